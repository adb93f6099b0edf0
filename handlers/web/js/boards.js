// One board per layout (the `board` a ruleset declares in GET /v1/rulesets), each drawing
// exactly the view it is given (the seat's or the spectator's): nothing is inferred, nothing
// hidden is asked for. No game is named here: a new game picks a layout, or `generic`. Keys a board does not lay
// out itself are still shown, by the generic renderer at the end, so no part of a view is lost.

import { backElement, cardElement, cardRow, DECKTET_SUITS, isCard, SUITS } from "./cards.js";
import { h, words } from "./ui.js";

const COLUMN_SUIT = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
const SHARED_KEYS = ["status", "legal_moves", "outcome"];

function zone(title, ...children) {
  return h("section", { class: "zone", "aria-label": title }, h("h3", {}, title), ...children);
}

function stat(label, value) {
  return h("span", { class: "stat" }, h("span", { class: "label" }, label), " ", String(value));
}

/** Any JSON value as HTML: cards as cards, lists as rows, objects as labelled groups. */
export function generic(value) {
  if (value === null || value === undefined) return h("span", { class: "empty" }, "—");
  if (typeof value === "string" && isCard(value)) return cardElement(value);
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => typeof v === "string" && isCard(v))) return cardRow(value);
    if (!value.some((v) => v && typeof v === "object")) return h("span", {}, words(value));
    return h("ol", { class: "generic-list" }, value.map((v) => h("li", {}, generic(v))));
  }
  if (typeof value === "object") {
    if (typeof value.card === "string" && isCard(value.card)) {
      const { card, ...rest } = value;
      return cardElement(card, Object.keys(rest).length ? words(rest) : undefined);
    }
    return h("dl", { class: "generic" },
      Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, generic(v))]));
  }
  return h("span", {}, words(value));
}

function others(view, used) {
  const rest = Object.fromEntries(
    Object.entries(view).filter(([k]) => !used.includes(k) && !SHARED_KEYS.includes(k)));
  return Object.keys(rest).length ? zone("More", generic(rest)) : null;
}

function column(name, cards, pretender) {
  const suit = SUITS[COLUMN_SUIT[name]];
  const stack = h("div", { class: "stack" },
    cards.length ? cards.map((c) => cardElement(c.card, c.role)) : h("span", { class: "empty" }, "empty"));
  const info = pretender
    ? h("div", { class: "pretender" },
        `strength ${pretender.strength} · attack ${pretender.attack} · defense ${pretender.defense}`)
    : null;
  return h("div", { class: "column", "data-column": name },
    h("h4", { class: COLUMN_SUIT[name] === "D" || COLUMN_SUIT[name] === "H" ? "red" : "" },
      `${suit[0]} ${name}`), stack, info);
}

function tableau(view) {
  const columns = Object.entries(view.columns || {});
  return [
    h("div", { class: "row" },
      zone("Current card", view.current ? cardElement(view.current) : h("span", { class: "empty" }, "none")),
      zone("Stock", backElement(view.stock_count, "cards in the stock")),
      zone("Jokers", cardRow(view.jokers?.in_hand || [], "jokers in hand"),
        Object.keys(view.jokers?.above || {}).length ? generic({ above: view.jokers.above }) : null),
      zone("Discard", stat("cards", view.discard_count))),
    zone("Reserve", cardRow(view.reserve, "reserve")),
    h("div", { class: "columns" },
      columns.map(([name, cards]) => column(name, cards, view.pretenders?.[name]))),
    others(view, ["current", "stock_count", "jokers", "discard_count", "reserve", "columns", "pretenders"]),
  ];
}

function facingSide(player, index, view, seat) {
  const title = seat === index ? `Seat ${index + 1} (you)` : `Seat ${index + 1}`;
  return zone(title,
    h("div", { class: "row" },
      stat("hand", view.hand_counts?.[index] ?? "?"),
      h("span", { class: "stat" }, "Joker ", player.joker?.card ? cardElement(player.joker.card,
        player.joker.above ? `above ${player.joker.above}` : "in hand") : "—")),
    h("h4", {}, "Reserve"), cardRow(player.reserve, `seat ${index + 1} reserve`),
    h("div", { class: "columns" }, Object.entries(player.columns).map(([name, cards]) => column(name, cards))));
}

function facingTableaux(view) {
  const seat = typeof view.seat === "number" ? view.seat : null;
  const order = seat === null ? [0, 1] : [1 - seat, seat];
  return [
    h("div", { class: "row" },
      stat("round", view.round), stat("phase", view.phase),
      stat("turn", view.turn === null ? "—" : `seat ${view.turn + 1}`),
      stat("stock", view.stock_count), stat("discard", view.discard_count),
      stat("reshuffles", view.reshuffles)),
    view.reaction ? zone("Reaction", generic(view.reaction)) : null,
    order.map((i) => facingSide(view.players[i], i, view, seat)),
    view.hand ? zone("Your hand", cardRow(view.hand, "your hand")) : null,
    others(view, ["seat", "round", "phase", "to_move", "turn", "reaction", "hand", "hand_counts",
      "players", "stock_count", "discard_count", "reshuffles"]),
  ];
}

function capital(view) {
  return [
    h("div", { class: "row" },
      stat("stock", view.stock_count), stat("personalities left", view.personalities_left),
      stat("discarded", view.discard_count)),
    zone("Capital", cardRow(view.capital, "capital")),
    zone("Palace", cardRow(view.palace, "palace")),
    zone("Resources", cardRow(view.resources, "resources")),
    zone("Controlled", cardRow(view.controlled, "controlled")),
    view.excuse ? zone("Excuse", cardElement(view.excuse)) : null,
    zone("Discard pile", cardRow(view.discard, "discard pile")),
    h("p", { class: "legend" }, "Suits: ",
      Object.entries(DECKTET_SUITS).map(([s, sym]) => `${sym} ${s}`).join(" · ")),
    others(view, ["capital", "palace", "resources", "controlled", "excuse", "personalities_left",
      "stock_count", "discard", "discard_count"]),
  ];
}

function figureheadSide(side, index, seat) {
  const title = seat === index ? `Seat ${index + 1} (you)` : `Seat ${index + 1}`;
  const heads = side.figureheads
    ? h("div", { class: "columns" }, Object.entries(side.figureheads).map(([name, f]) =>
        h("div", { class: `column${f.alive ? "" : " dead"}`, "data-figurehead": name },
          h("h4", {}, `${name}${f.alive ? "" : " (dead)"}`),
          cardElement(f.card, f.alive ? "alive" : "assassinated"),
          h("div", { class: "stack" }, f.supporters.length
            ? f.supporters.map((s) => (s.card ? cardElement(s.card, s.face_up ? "face up" : "face down")
              : backElement(1, "face-down supporter")))
            : h("span", { class: "empty" }, "no supporters")))))
    : null;
  return zone(title,
    h("div", { class: "row" }, stat("suit", side.suit ?? "—"), stat("cards in hand", side.hand_count),
      stat("exposed", side.exposed)),
    side.assassin ? h("div", {}, "Assassin ", cardElement(side.assassin.card,
      side.assassin.target ? `targets ${side.assassin.target}` : undefined)) : null,
    heads,
    side.hand ? h("div", {}, h("h4", {}, "Hand"), cardRow(side.hand, `seat ${index + 1} hand`)) : null);
}

function figureheads(view) {
  const seat = typeof view.seat === "number" ? view.seat : null;
  const order = seat === null ? [0, 1] : [1 - seat, seat];
  return [
    h("div", { class: "row" }, stat("phase", view.phase),
      stat("turn", view.turn ?? "—"),
      stat("sealed", (view.submitted || []).map((s, i) => `seat ${i + 1} ${s ? "✓" : "…"}`).join(", "))),
    order.map((i) => figureheadSide(view.sides[i], i, seat)),
    view.sealed ? zone("Your sealed move", generic(view.sealed)) : null,
    others(view, ["phase", "turn", "seat", "to_move", "submitted", "sealed", "sides"]),
  ];
}

function mapPile(pile, r, c, position) {
  const here = position && position[0] === r && position[1] === c;
  const classes = ["pile", pile.cleared ? "cleared" : "", pile.cut_off ? "cut-off" : "", here ? "here" : ""];
  const cards = ["guard", "opponent", "treasure"].filter((k) => pile[k])
    .map((k) => cardElement(pile[k], k));
  const state = [here ? "you are here" : "", pile.cleared ? "cleared" : "", pile.cut_off ? "cut off" : ""]
    .filter(Boolean).join(", ");
  return h("div", { class: classes.filter(Boolean).join(" "), "data-cell": `${r},${c}`, role: "group",
                    "aria-label": `row ${r + 1}, column ${c + 1}${state ? `: ${state}` : ""}` },
    pile.face_down ? backElement(pile.face_down, "face down") : null, cards,
    here ? h("span", { class: "marker" }, "◆ you") : null);
}

function dungeonMap(view) {
  const character = view.character;
  return [
    zone(`Goal ${view.goal.number}`, h("p", {}, view.goal.text), cardRow(view.goal.deuces, "goal cards")),
    h("div", { class: "row" },
      stat("turn", view.turn ?? "—"), stat("defeated", view.defeated ?? 0),
      stat("lost battles", view.lost_battles ?? 0), stat("dice rolled", view.dice_rolled ?? 0)),
    character ? zone("Your character", h("table", { class: "cliches" },
      h("thead", {}, h("tr", {}, h("th", {}, "cliché"), h("th", {}, "dice"), h("th", {}, "wounds"))),
      h("tbody", {}, Object.entries(character.cliches).map(([name, dice]) =>
        h("tr", {}, h("td", {}, name), h("td", {}, dice), h("td", {}, character.wounds[name])))))) : null,
    zone("The map", h("div", { class: "map" },
      view.map.flatMap((row, r) => row.map((pile, c) => mapPile(pile, r, c, view.position))))),
    view.battle ? zone("Battle", generic(view.battle)) : null,
    view.last_roll ? zone("Last roll", h("p", { class: "dice" }, words(view.last_roll))) : null,
    zone("Treasures", cardRow(view.treasures || [], "treasures")),
    zone("Victory", cardRow(view.victory || [], "victory area")),
    zone("Discard", cardRow(view.discard || [], "discard pile")),
    others(view, ["phase", "goal", "character", "position", "map", "battle", "treasures", "victory",
      "discard", "defeated", "turn", "lost_battles", "dice_rolled", "last_roll"]),
  ];
}

const BOARDS = {
  tableau,
  "facing-tableaux": facingTableaux,
  capital,
  figureheads,
  map: dungeonMap,
  generic: (view) => [others(view, [])],
};

/** The board of a layout for a view; an unknown layout still shows the whole view. */
export function renderBoard(layout, view) {
  const known = Object.hasOwn(BOARDS, layout) ? layout : "generic";
  return h("div", { class: `board board-${known}` }, BOARDS[known](view));
}
