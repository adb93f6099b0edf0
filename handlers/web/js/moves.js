// The legal-move controls. The contract (docs/web-client.md): every control that plays a move
// carries `data-move`, the move's JSON exactly as `legal_moves` lists it, and only those do.

import { h, moveLabel, words } from "./ui.js";

const BUILDER_OVER = 100; // more moves of one kind than this: pick them field by field
const SPLIT_OVER = 12; // more than this: one group per value of the first field

function moveButton(move, onPlay, label = moveLabel(move)) {
  return h("button", { type: "button", class: `move move-${move.type}`, "data-move": JSON.stringify(move),
                       onclick: () => onPlay(move) }, label);
}

/** Flattens one level of object fields: {cards: {king: "5C"}} → {"cards.king": "5C"}. */
function fields(move) {
  const out = {};
  for (const [k, v] of Object.entries(move)) {
    if (k === "type") continue;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = JSON.stringify(v2);
    } else out[k] = JSON.stringify(v);
  }
  return out;
}

/** Selects, one per field, and one button that carries the matching legal move (if any). */
function builder(type, moves, onPlay) {
  const flat = moves.map(fields);
  const names = Object.keys(flat[0]);
  const selects = names.map((name) => {
    const values = [...new Set(flat.map((f) => f[name]))];
    const id = `pick-${type}-${name.replace(/\W/g, "-")}`;
    return { name, id, select: h("select", { id }, values.map((v) => h("option", { value: v }, words(JSON.parse(v))))) };
  });
  const button = h("button", { type: "button", class: `move move-${type} build` });
  const update = () => {
    const chosen = Object.fromEntries(selects.map((s) => [s.name, s.select.value]));
    const index = flat.findIndex((f) => names.every((n) => f[n] === chosen[n]));
    if (index >= 0) {
      button.dataset.move = JSON.stringify(moves[index]);
      button.disabled = false;
      button.textContent = moveLabel(moves[index]);
    } else {
      delete button.dataset.move;
      button.disabled = true;
      button.textContent = "not a legal combination";
    }
  };
  selects.forEach((s) => {
    s.select.value = flat[0][s.name]; // start on a legal move
    s.select.addEventListener("change", update);
  });
  button.addEventListener("click", () => button.dataset.move && onPlay(JSON.parse(button.dataset.move)));
  update();
  return h("div", { class: "builder" },
    selects.map((s) => h("label", { for: s.id }, s.name.replace(".", " "), " ", s.select)), button);
}

/** The panel of every legal move, grouped by kind. */
export function movesPanel(legal, onPlay) {
  const byType = new Map();
  for (const move of legal) {
    if (!byType.has(move.type)) byType.set(move.type, []);
    byType.get(move.type).push(move);
  }
  const groups = [];
  const singles = [];
  for (const [type, moves] of byType) {
    const title = type.replaceAll("_", " ");
    if (moves.length > BUILDER_OVER) {
      groups.push(h("div", { class: "move-group" }, h("h4", {}, `${title} (${moves.length} ways)`),
        builder(type, moves, onPlay),
        h("details", {}, h("summary", {}, `every ${title}, one button each`),
          h("div", { class: "buttons" }, moves.map((m) => moveButton(m, onPlay))))));
      continue;
    }
    const firstField = Object.keys(moves[0]).find((k) => k !== "type");
    if (moves.length > SPLIT_OVER && firstField) {
      const split = new Map();
      for (const m of moves) {
        const key = JSON.stringify(m[firstField]);
        if (!split.has(key)) split.set(key, []);
        split.get(key).push(m);
      }
      for (const [key, sub] of split) {
        groups.push(h("div", { class: "move-group" }, h("h4", {}, `${title} ${words(JSON.parse(key))}`),
          h("div", { class: "buttons" }, sub.map((m) => moveButton(m, onPlay,
            moveLabel(Object.fromEntries(Object.entries(m).filter(([k]) => k !== firstField))))))));
      }
      continue;
    }
    if (moves.length === 1) {
      singles.push(moveButton(moves[0], onPlay)); // one row for the kinds with one move each
      continue;
    }
    groups.push(h("div", { class: "move-group" }, h("h4", {}, title),
      h("div", { class: "buttons" }, moves.map((m) => moveButton(m, onPlay)))));
  }
  // Resign last, away from the moves that play on.
  singles.sort((a, b) => (a.classList.contains("move-resign") ? 1 : 0) - (b.classList.contains("move-resign") ? 1 : 0));
  return h("section", { class: "moves", "aria-label": "Your moves" }, h("h2", {}, "Your move"), groups,
    singles.length ? h("div", { class: "move-group" }, h("div", { class: "buttons" }, singles)) : null);
}
