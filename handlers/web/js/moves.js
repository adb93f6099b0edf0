// Moves: made on the board (boardPlay) and listed for keyboards and screen readers
// (movesPanel). The contract (docs/web-client.md): every control that plays a move carries
// `data-move`, the move's JSON exactly as `legal_moves` lists it, and only those do; the board
// only ever plays one of those moves.

import { h, moveLabel, words } from "./ui.js";

const BUILDER_OVER = 100; // more moves of one kind than this: pick them field by field
const SPLIT_OVER = 12; // more than this: one group per value of the first field
const SUGGESTED = 6; // at most this many ready-made choices (payments) beside the board

// ---- on the board ---------------------------------------------------------------------------

/** The keys of an element (its `data-key`, space-separated). */
function keysOf(node) {
  return node.dataset.key ? node.dataset.key.split(" ") : [];
}

function valueAt(move, path) {
  return path.split(".").reduce((v, part) => (v && typeof v === "object" ? v[part] : undefined), move);
}

/**
 * A key template filled in (domain/gestures.py): `{field}` from the move, `{me}`/`{them}`
 * the seats, `{source.x}` the source element's `data-x`, anything in `extra`. Null when a
 * value is missing (a null field: the gesture does not apply).
 */
function fill(template, move, { seats, extra = {}, source = null }) {
  let missing = false;
  const out = template.replace(/\{([^{}]*)\}/g, (_, name) => {
    let value;
    if (Object.hasOwn(extra, name)) value = extra[name];
    else if (Object.hasOwn(seats, name)) value = seats[name];
    else if (name.startsWith("source.")) value = source?.dataset[name.slice(7)];
    else value = valueAt(move, name);
    if (Array.isArray(value) && value.every((v) => typeof v !== "object")) value = value.join(",");
    if (value === null || value === undefined || typeof value === "object") missing = true;
    return String(value);
  });
  return missing ? null : out;
}

/** An undeclared move with one card-valued field: that card is where it is made. */
function defaultGestures(move) {
  const fields = Object.keys(move).filter((k) => k !== "type");
  if (fields.length === 1 && typeof move[fields[0]] === "string") return [{ target: `card:{${fields[0]}}` }];
  return [];
}

/** How a legal move is made here: the first of its gestures whose elements are on the board. */
function planOf(move, gestures, found, seats) {
  for (const g of gestures[move.type] || defaultGestures(move)) {
    const at = (key) => (key !== null && found.has(key) ? key : null);
    if (g.tune) {
      const values = move[g.tune.field];
      if (values && typeof values === "object") return { kind: "tune", move, field: g.tune.field, zone: g.tune.zone, values };
      continue;
    }
    if (g.pick) {
      const items = move[g.pick.field];
      if (!Array.isArray(items)) continue;
      const keys = items.map((item) => at(fill(g.pick.key, move, { seats, extra: { item } })));
      const target = g.target ? at(fill(g.target, move, { seats })) : null;
      if (keys.some((k) => k === null) || (g.target && target === null)) continue;
      return { kind: "pick", move, keys, target };
    }
    if (g.assign) {
      const object = move[g.assign.field];
      if (!object || typeof object !== "object") continue;
      const pairs = Object.entries(object).map(([name, value]) => {
        const extra = { name, value };
        return [at(fill(g.assign.source, move, { seats, extra })), at(fill(g.assign.target, move, { seats, extra }))];
      });
      if (pairs.some(([s, t]) => s === null || t === null)) continue;
      return { kind: "assign", move, pairs };
    }
    const source = g.source ? at(fill(g.source, move, { seats })) : null;
    if (g.source && source === null) continue;
    const sourceNode = source ? found.get(source)[0] : null;
    const target = g.target ? at(fill(g.target, move, { seats, source: sourceNode })) : null;
    if (g.target && target === null) continue;
    if (g.when) {
      const [a, b] = g.when.map((t) => fill(t, move, { seats, source: sourceNode }));
      if (a === null || a !== b) continue;
    }
    if (source === null && target === null) continue;
    return { kind: "tap", move, source, target };
  }
  return { kind: "chip", move };
}

const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
const subset = (a, b) => a.every((x) => b.includes(x));

/** The name of what an element shows, for the hint line: a card's name, a zone's title. */
function nameOf(node) {
  if (!node) return "";
  return node.getAttribute("aria-label")?.split(",")[0] || node.querySelector("h2, h3")?.textContent || "";
}

/**
 * Makes a board playable: its keyed elements light up as the player selects, and a click
 * on a lit element plays the legal move it completes (`play(move)`). What the board cannot
 * show as an element (a move with no gesture, a choice to confirm) goes on the tray below it.
 */
export function boardPlay(board, { view, legal, gestures, terms = {}, play }) {
  const me = typeof view.seat === "number" ? view.seat : 0;
  const seats = { me: String(me), them: String(1 - me) };
  const found = new Map();
  const keyedNodes = [...board.querySelectorAll("[data-key]")];
  for (const node of keyedNodes) {
    for (const key of keysOf(node)) {
      if (!found.has(key)) found.set(key, []);
      found.get(key).push(node);
    }
  }
  const plans = legal.map((move) => planOf(move, gestures, found, seats));
  const tunes = plans.filter((p) => p.kind === "tune");
  // Steppers start on a legal choice, the most even one (the spread of its values smallest).
  const spread = (t) => Math.max(...Object.values(t.values)) - Math.min(...Object.values(t.values));
  const even = tunes.reduce((best, t) => (best === null || spread(t) < spread(best) ? t : best), null);
  const sel = { source: null, picks: [], pickTarget: null, assigned: new Map(), tune: even ? { ...even.values } : null };
  let done = false;
  const hint = h("p", { class: "hint", role: "status", "aria-live": "polite" });
  const chips = h("div", { class: "chips" });
  const tray = h("div", { class: "tray", role: "group", "aria-label": "Play on the board" }, hint, chips);
  board.classList.add("playable");
  board.append(tray);
  let stepper = null;
  if (tunes.length) {
    stepper = h("div", { class: "steppers", role: "group", "aria-label": "Set the values" });
    (found.get(tunes[0].zone)?.[0] || tray).append(stepper);
  }

  const clear = () => {
    sel.source = null;
    sel.picks = [];
    sel.pickTarget = null;
    sel.assigned = new Map();
  };
  const idle = () => !sel.source && !sel.picks.length && !sel.pickTarget && !sel.assigned.size;
  const go = (move) => {
    if (done) return;
    done = true;
    board.classList.add("busy");
    play(move);
  };

  function consistent(p) {
    if (p.kind === "tap") return !sel.picks.length && !sel.pickTarget && !sel.assigned.size && p.source === sel.source;
    if (p.kind === "pick") {
      return !sel.source && !sel.assigned.size && subset(sel.picks, p.keys) &&
        (sel.pickTarget === null || sel.pickTarget === p.target);
    }
    if (p.kind === "assign") {
      if (sel.picks.length || sel.pickTarget) return false;
      if (![...sel.assigned].every(([t, s]) => p.pairs.some(([ps, pt]) => ps === s && pt === t))) return false;
      return !sel.source || p.pairs.some(([s, t]) => s === sel.source && !sel.assigned.has(t));
    }
    return false;
  }

  /** What each key does now, what goes on the tray, and the hint. */
  function options() {
    const targets = new Map(); // key -> moves (or an assignment) a click makes
    const selectable = new Map(); // key -> action that changes the selection
    const maybe = new Set();
    const ready = []; // moves the tray offers (confirmations, suggestions, moves with no element)
    const addTarget = (key, action) => {
      if (!targets.has(key)) targets.set(key, []);
      const list = targets.get(key);
      const same = JSON.stringify(action);
      if (!list.some((a) => JSON.stringify(a) === same)) list.push(action);
    };
    const live = plans.filter(consistent);
    for (const p of live) {
      if (p.kind === "tap") {
        if (p.target) addTarget(p.target, { move: p.move });
        else ready.push({ move: p.move });
      } else if (p.kind === "pick") {
        const exact = sameSet(sel.picks, p.keys);
        if (exact && p.target && !sel.pickTarget) addTarget(p.target, { move: p.move });
        if (exact && p.target && sel.pickTarget) {
          addTarget(p.target, { move: p.move });
          ready.push({ move: p.move, confirm: true });
        }
        if (exact && !p.target && sel.picks.length) ready.push({ move: p.move, confirm: true });
        if (!exact && p.target && sel.picks.length && !sel.pickTarget) maybe.add(p.target);
        for (const k of p.keys) if (!sel.picks.includes(k)) selectable.set(k, { pick: k });
        if (idle() && p.target) selectable.set(p.target, { pickTarget: p.target });
      } else if (p.kind === "assign") {
        for (const [s, t] of p.pairs) {
          if (sel.assigned.has(t)) continue;
          if (sel.source === s) addTarget(t, { assign: [s, t] });
          else if (![...sel.assigned.values()].includes(s)) selectable.set(s, { source: s });
        }
        if (sel.assigned.size === p.pairs.length) ready.push({ move: p.move, confirm: true });
      }
    }
    // Sources of the taps a player could start instead of what is selected now.
    if (!sel.picks.length && !sel.pickTarget && !sel.assigned.size) {
      for (const p of plans) if (p.kind === "tap" && p.source && p.source !== sel.source) selectable.set(p.source, { source: p.source });
    }
    for (const k of sel.picks) selectable.set(k, { unpick: k });
    for (const t of sel.assigned.keys()) if (!targets.has(t)) selectable.set(t, { unassign: t });
    if (sel.source) selectable.set(sel.source, { deselect: true });
    for (const p of plans) if (p.kind === "chip") ready.push({ move: p.move });
    // Target first (a payment): its sensible ways, the smallest ones, ready-made.
    if (sel.pickTarget && !sel.picks.length) {
      const ways = live.filter((p) => p.kind === "pick" && p.target === sel.pickTarget);
      const minimal = ways.filter((p) => !ways.some((q) => q !== p && subset(q.keys, p.keys)))
        .sort((a, b) => a.keys.length - b.keys.length);
      for (const p of minimal.slice(0, SUGGESTED)) ready.push({ move: p.move, suggestion: true });
    }
    return { targets, selectable, maybe, ready };
  }

  function hintText(now) {
    const node = (key) => nameOf(found.get(key)?.[0]);
    if (sel.source) {
      return now.targets.size ? `${node(sel.source)}: now choose where it goes (the lit places).`
        : `${node(sel.source)} selected.`;
    }
    if (sel.pickTarget) {
      const picked = sel.picks.map(node).join(", ");
      return picked ? `For ${node(sel.pickTarget)}: ${picked}. Pick more, or confirm.`
        : `For ${node(sel.pickTarget)}: pick the cards for it, or take one of these ways.`;
    }
    if (sel.picks.length) {
      return `Picked ${sel.picks.map(node).join(", ")}. ${now.targets.size ? "Now choose a lit card." : "Pick more."}`;
    }
    if (sel.assigned.size && now.ready.some((r) => r.confirm)) return "All placed: confirm, or click a place to take its card back.";
    if (sel.assigned.size) return `${sel.assigned.size} placed. Select the next card, then where it goes.`;
    if (tunes.length) return "Set the values, then confirm.";
    if (plans.some((p) => p.kind === "pick" && p.target) && now.selectable.size) {
      return "Pick cards one by one, then the lit card they go to; or that card first.";
    }
    if (plans.some((p) => p.kind === "pick") && now.selectable.size) return "Pick one or more of the lit places, then confirm.";
    if (plans.some((p) => p.kind === "assign") && now.selectable.size) return "Select a card, then the place it goes to.";
    if (now.targets.size && now.selectable.size) return "Select a card, or play on a lit place.";
    if (now.targets.size) return "Play on a lit place.";
    if (now.selectable.size) return "Select a lit card, then where it goes.";
    return now.ready.length ? "Choose below." : "";
  }

  function chip(label, attrs, onclick) {
    return h("button", { type: "button", class: "chip", ...attrs, onclick }, label);
  }

  function renderTune() {
    if (!stepper) return;
    const names = Object.keys(tunes[0].values);
    // The game's own word for each value, from the vocabulary (`terms`) that names them all.
    const vocabulary = Object.values(terms || {}).find((t) => names.every((n) => typeof t?.[n] === "string")) || {};
    const label = (n) => vocabulary[n] || words(n);
    const range = Object.fromEntries(names.map((n) => {
      const values = tunes.map((t) => t.values[n]);
      return [n, [Math.min(...values), Math.max(...values)]];
    }));
    const sums = new Set(tunes.map((t) => names.reduce((s, n) => s + t.values[n], 0)));
    const total = sums.size === 1 ? [...sums][0] : null;
    const sum = names.reduce((s, n) => s + sel.tune[n], 0);
    const match = tunes.find((t) => names.every((n) => t.values[n] === sel.tune[n]));
    const step = (n, d) => () => {
      sel.tune[n] += d;
      refresh();
      stepper.querySelector(`[data-step="${n}${d > 0 ? "+" : "-"}"]`)?.focus();
    };
    stepper.replaceChildren(...names.map((n) => h("div", { class: "stepper" },
      h("span", { class: "stepper-name" }, label(n)),
      h("button", { type: "button", class: "step", "data-step": `${n}-`, "aria-label": `${label(n)}: one less`,
                    disabled: sel.tune[n] <= range[n][0], onclick: step(n, -1) }, "−"),
      h("output", { class: "stepper-value", "aria-label": label(n) }, String(sel.tune[n])),
      h("button", { type: "button", class: "step", "data-step": `${n}+`, "aria-label": `${label(n)}: one more`,
                    disabled: sel.tune[n] >= range[n][1], onclick: step(n, 1) }, "+"))),
    total === null ? null : h("p", { class: "stepper-left" },
      sum === total ? "All points placed." : sum < total ? `${total - sum} left to place.` : `${sum - total} too many.`),
    h("button", { type: "button", class: "chip confirm", disabled: !match,
                  ...(match ? { "data-move": JSON.stringify(match.move) } : {}),
                  onclick: () => match && go(match.move) }, match ? `Confirm: ${moveLabel(match.move)}` : "Not a legal choice yet"));
  }

  function refresh() {
    const now = options();
    const assignedSources = [...sel.assigned.values()];
    for (const node of keyedNodes) {
      const keys = keysOf(node);
      const target = keys.some((k) => now.targets.has(k));
      const selectable = keys.some((k) => now.selectable.has(k));
      node.classList.toggle("target", target);
      node.classList.toggle("selectable", selectable && !target);
      node.classList.toggle("maybe", keys.some((k) => now.maybe.has(k)));
      node.classList.toggle("selected", keys.some((k) => k === sel.source || sel.picks.includes(k) || k === sel.pickTarget));
      node.classList.toggle("assigned", assignedSources.some((s) => keys.includes(s)));
      // What can be clicked can be reached with Tab, and a card that can is a button.
      if (target || selectable) {
        node.tabIndex = 0;
        if (node.classList.contains("card")) node.setAttribute("role", "button");
      } else if (node.hasAttribute("tabindex")) {
        node.removeAttribute("tabindex");
        if (node.classList.contains("card")) node.setAttribute("role", "img");
      }
    }
    board.querySelectorAll(".tentative").forEach((n) => n.remove());
    for (const [t, s] of sel.assigned) {
      const source = found.get(s)?.[0];
      const place = found.get(t)?.[0];
      if (source && place) {
        const copy = source.cloneNode(true);
        copy.classList.add("tentative");
        copy.classList.remove("assigned", "selectable", "target", "selected");
        copy.removeAttribute("data-key");
        copy.removeAttribute("tabindex");
        copy.setAttribute("role", "img");
        copy.setAttribute("aria-label", `${nameOf(source)} (to place)`);
        place.append(copy);
      }
    }
    hint.textContent = hintText(now);
    const seen = new Set();
    const buttons = [];
    for (const r of now.ready) {
      const json = JSON.stringify(r.move);
      if (seen.has(json)) continue;
      seen.add(json);
      const label = r.confirm ? `Confirm: ${moveLabel(r.move)}` : moveLabel(r.move);
      buttons.push(chip(label, { class: `chip${r.confirm ? " confirm" : ""}${r.suggestion ? " suggestion" : ""}${r.move.type === "undo" ? " undo" : ""}`,
                                 "data-move": json }, () => go(r.move)));
    }
    if (!idle()) buttons.push(chip("Cancel", { class: "chip cancel" }, () => { clear(); refresh(); }));
    chips.replaceChildren(...buttons);
    renderTune();
  }

  function act(action) {
    if (action.move) return go(action.move);
    if (action.assign) {
      sel.assigned.set(action.assign[1], action.assign[0]);
      sel.source = null;
      // One card left to place: it is picked up already.
      const left = new Set(plans.filter((p) => p.kind === "assign" && consistent(p))
        .flatMap((p) => p.pairs.filter(([, t]) => !sel.assigned.has(t)).map(([s]) => s)));
      if (left.size === 1) sel.source = [...left][0];
    } else if (action.source) {
      sel.source = action.source;
    } else if (action.deselect) {
      sel.source = null;
    } else if (action.pick) {
      sel.picks.push(action.pick);
    } else if (action.unpick) {
      sel.picks = sel.picks.filter((k) => k !== action.unpick);
    } else if (action.pickTarget) {
      sel.pickTarget = action.pickTarget;
    } else if (action.unassign) {
      sel.assigned.delete(action.unassign);
    }
    refresh();
    return undefined;
  }

  function choose(actions) {
    const moves = actions.filter((a) => a.move);
    if (moves.length < 2) return act(moves[0] || actions[0]);
    // Several moves end on this element (rare): the tray asks which.
    hint.textContent = "Which one?";
    chips.replaceChildren(...moves.map((a) => chip(moveLabel(a.move), { "data-move": JSON.stringify(a.move) }, () => go(a.move))),
      chip("Cancel", { class: "chip cancel" }, () => { clear(); refresh(); }));
    return undefined;
  }

  function onActivate(event) {
    if (done || event.target.closest(".tray, .steppers")) return;
    const now = options();
    const path = [];
    for (let node = event.target; node && node !== board.parentNode; node = node.parentNode) {
      if (node.dataset?.key) path.push(node);
    }
    for (const node of path) {
      const key = keysOf(node).find((k) => now.targets.has(k));
      if (key) {
        event.preventDefault();
        choose(now.targets.get(key));
        return;
      }
    }
    for (const node of path) {
      const key = keysOf(node).find((k) => now.selectable.has(k));
      if (key) {
        event.preventDefault();
        act(now.selectable.get(key));
        return;
      }
    }
    if (!idle()) {
      clear();
      refresh();
    }
  }

  board.addEventListener("click", onActivate);
  board.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.dataset?.key) onActivate(event);
    if (event.key === "Escape" && !idle()) {
      clear();
      refresh();
    }
  });
  // One place to start from (a reaction from the reserve): it is selected already.
  const sources = new Set(plans.filter((p) => p.kind === "tap" && p.source).map((p) => p.source));
  if (sources.size === 1 && plans.every((p) => p.kind === "chip" || (p.kind === "tap" && p.source))) {
    sel.source = [...sources][0];
  }
  refresh();
}

// ---- the list of moves ----------------------------------------------------------------------

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

/** Resign, behind a confirmation: the button that resigns shows only once asked. */
export function resignControl(move, onPlay) {
  const ask = h("button", { type: "button", class: "resign-ask", "aria-expanded": "false" }, "Resign…");
  const yes = moveButton(move, onPlay, "Yes, resign");
  const no = h("button", { type: "button", class: "resign-no" }, "No, play on");
  const confirm = h("span", { class: "resign-confirm", hidden: true }, "Resign and lose this game? ", yes, " ", no);
  ask.addEventListener("click", () => {
    confirm.hidden = false;
    ask.hidden = true;
    ask.setAttribute("aria-expanded", "true");
    no.focus();
  });
  no.addEventListener("click", () => {
    confirm.hidden = true;
    ask.hidden = false;
    ask.setAttribute("aria-expanded", "false");
    ask.focus();
  });
  return h("span", { class: "resign" }, ask, confirm);
}

let listOpen = false; // the list stays open across moves once a player opened it

/** Every legal move, grouped by kind, in a list that is closed until asked for (the board is
 * where a sighted player plays); resign last, behind its confirmation. */
export function movesPanel(legal, onPlay) {
  const byType = new Map();
  for (const move of legal) {
    if (move.type === "resign") continue;
    if (!byType.has(move.type)) byType.set(move.type, []);
    byType.get(move.type).push(move);
  }
  const groups = [];
  const singles = [];
  for (const [type, moves] of byType) {
    const title = type.replaceAll("_", " ");
    if (moves.length > BUILDER_OVER) {
      groups.push(h("div", { class: "move-group" }, h("h3", {}, `${title} (${moves.length} ways)`),
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
        groups.push(h("div", { class: "move-group" }, h("h3", {}, `${title} ${words(JSON.parse(key))}`),
          h("div", { class: "buttons" }, sub.map((m) => moveButton(m, onPlay,
            moveLabel(Object.fromEntries(Object.entries(m).filter(([k]) => k !== firstField))))))));
      }
      continue;
    }
    if (moves.length === 1) {
      singles.push(moveButton(moves[0], onPlay)); // one row for the kinds with one move each
      continue;
    }
    groups.push(h("div", { class: "move-group" }, h("h3", {}, title),
      h("div", { class: "buttons" }, moves.map((m) => moveButton(m, onPlay)))));
  }
  const resign = legal.find((m) => m.type === "resign");
  const count = legal.length - (resign ? 1 : 0);
  const list = h("details", { class: "moves", id: "move-list", open: listOpen },
    h("summary", {}, `All legal moves (${count})`, h("span", { class: "small" }, " · as a list, for keyboards and screen readers")),
    groups,
    singles.length ? h("div", { class: "move-group" }, h("div", { class: "buttons" }, singles)) : null);
  list.addEventListener("toggle", () => { listOpen = list.open; });
  return h("section", { class: "move-panel", "aria-label": "Your moves" },
    count ? list : null,
    resign ? h("p", { class: "resign-line" }, resignControl(resign, onPlay)) : null);
}

/** After a move, the focus where the next one is made: the open list of moves, else the
 * board's first element to click. The page does not scroll for it (a phone stays put). */
export function focusNext(root) {
  const next = listOpen ? root.querySelector("#move-list [data-move]:not([disabled])")
    : root.querySelector(".board.playable [tabindex='0'], .board.playable .tray button:not([disabled])");
  next?.focus({ preventScroll: true });
}
