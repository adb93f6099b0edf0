// One board per layout (the `board` a ruleset declares in GET /v1/rulesets), each drawing
// exactly the view it is given (the seat's or the spectator's): nothing is inferred, nothing
// hidden is asked for. No game is named here: a new game picks a layout, or `generic`. Keys a
// board does not lay out itself are still shown, by the generic renderer at the end, so no part
// of a view is lost.
//
// Every element a move can start from or go to carries `data-key` (space-separated keys): the
// vocabulary of each layout is in docs/web-client.md ("Playing on the board"), and the
// gestures a ruleset declares name these keys. moves.ts turns clicks on them into legal moves.

import type { Gesture, Move, View } from "./api";
import { backElement, cardElement, cardRow, isCard, SUITS } from "./cards";
import { boardPlay } from "./moves";
import { h, isObject, words } from "./ui";
import type { Child } from "./ui";

/** A game's vocabularies (`words.terms` of its ruleset): value → words. */
export type Terms = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The views that have these fields: a layout draws the views shaped for it, whichever games
 * they are (the spec's union of every game's view, narrowed by shape, never by name). */
type ViewWith<K extends string> = Extract<View, { [P in K]: unknown }>;

function has<K extends string>(view: View, key: K): view is ViewWith<K> {
  return key in view;
}

/** A member of a typed object by a name read at run time (a column, a figurehead). */
function member<T>(object: Readonly<Record<string, T>> | null | undefined, name: string): T | undefined {
  return object && Object.hasOwn(object, name) ? object[name] : undefined;
}

const COLUMN_SUIT: Record<string, string> = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
// The envelope, and the undo count (the game's "Casual play" panel says it in its words).
const SHARED_KEYS = ["status", "legal_moves", "outcome", "undos"];

/** Adds keys to an element's `data-key` (the board's names for it). */
function keyed<T extends HTMLElement>(node: T, ...keys: (string | null | undefined)[]): T {
  const all = [...(node.dataset.key ? node.dataset.key.split(" ") : []), ...keys.filter((k): k is string => Boolean(k))];
  if (all.length) node.dataset.key = all.join(" ");
  return node;
}

function zone(title: string, ...children: Child[]): HTMLElement {
  return h("section", { class: "zone", "aria-label": title }, h("h2", {}, title), ...children);
}

function stat(label: string, value: unknown): HTMLElement {
  return h("span", { class: "stat" }, h("span", { class: "label" }, label), " ", h("b", {}, String(value)));
}

function empty(text = "empty"): HTMLElement {
  return h("span", { class: "slot", role: "img", "aria-label": text }, h("span", { class: "slot-text" }, text));
}

/** A card face up, or its back where the view hides it (null). */
function face(code: string | null, note?: string): HTMLElement {
  return code === null ? backElement(1, note || "face down") : cardElement(code, note);
}

/** A row of cards drawn overlapping, bottom first (the last one on top, in full): the row
 * never wraps, the cards under the top one close up as far as its width asks. */
function fan(codes: readonly (string | null)[] | null | undefined, label: string, topKey?: string): HTMLElement {
  const row = h("div", { class: "fan", role: "group", "aria-label": label });
  if (!codes || codes.length === 0) row.append(empty("none"));
  (codes || []).forEach((code, i) => {
    const top = i === (codes || []).length - 1;
    const card = face(code, top && (codes || []).length > 1 ? "top" : undefined);
    if (top && topKey) keyed(card, topKey);
    row.append(top ? card : h("span", { class: "under" }, card));
  });
  return row;
}

/** Any JSON value as HTML: cards as cards, lists as rows, objects as labelled groups. */
export function generic(value: unknown): HTMLElement {
  if (value === null || value === undefined) return h("span", { class: "empty" }, "—");
  if (typeof value === "string" && isCard(value)) return cardElement(value);
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    if (list.length && list.every((v) => typeof v === "string" && isCard(v))) return cardRow(list.map(String));
    if (!list.some((v) => v && typeof v === "object")) return h("span", {}, words(list));
    return h("ol", { class: "generic-list" }, list.map((v) => h("li", {}, generic(v))));
  }
  if (isObject(value)) {
    if (typeof value.card === "string" && isCard(value.card)) {
      const { card, ...rest } = value;
      return cardElement(String(card), Object.keys(rest).length ? words(rest) : undefined);
    }
    return h("dl", { class: "generic" },
      Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, generic(v))]));
  }
  return h("span", {}, words(value));
}

function others(view: View, used: readonly string[]): HTMLElement | null {
  const rest = Object.fromEntries(
    Object.entries(view).filter(([k]) => !used.includes(k) && !SHARED_KEYS.includes(k)));
  return Object.keys(rest).length ? zone("More", generic(rest)) : null;
}

function suitHeading(name: string): HTMLElement {
  const letter = member(COLUMN_SUIT, name);
  const red = letter === "D" || letter === "H";
  return h("h3", { class: red ? "red" : "" }, letter ? h("span", { class: "sym", "aria-hidden": "true" }, `${SUITS[letter][0]} `) : "",
    h("span", { class: letter ? "col-name" : "" }, name));
}

interface ColumnEntry {
  card: string | null;
  role: string;
}

interface Pretender {
  attack: number;
  defense: number;
  strength: number;
}

/** A column of cards, bottom first, drawn overlapping; each card's role is its tag. */
function column(name: string, cards: readonly ColumnEntry[],
                { key, pretender, joker, label }: { key?: string; pretender?: Pretender | null; joker?: string | null; label?: string } = {}): HTMLElement {
  const stack = h("div", { class: cards.length > 10 ? "stack long" : "stack" },
    cards.length ? cards.map((c) => {
      const card = face(c.card, c.role);
      card.classList.add(`role-${c.role}`);
      return card;
    }) : empty());
  const info = pretender
    ? h("p", { class: "pretender" }, h("span", { class: "atk" }, `attack ${pretender.attack}`), " · ",
        h("span", { class: "def" }, `defense ${pretender.defense}`), " ",
        h("b", {}, `strength ${pretender.strength}`))
    : null;
  const node = h("div", { class: "column", "data-column": name, role: "group", "aria-label": label || `${name} column` },
    suitHeading(name), joker ? h("div", { class: "above" }, cardElement(joker, "above")) : null, stack, info);
  return keyed(node, key);
}

function tableau(view: ViewWith<"pretenders">): Child[] {
  const jokers = view.jokers?.in_hand || [];
  const above: Readonly<Record<string, string | null | undefined>> = view.jokers?.above || {};
  const current = view.current ? keyed(cardElement(view.current, "current card"), "current") : empty("no card");
  return [
    h("div", { class: "table-top" },
      keyed(zone("Stock", backElement(view.stock_count, "cards in the stock")), "stock"),
      keyed(zone("Current card", current), view.current ? null : "current"),
      zone("Jokers", jokers.length
        ? h("div", { class: "cards" }, jokers.map((j) => keyed(face(j), "joker")))
        : empty("none")),
      zone("Discard", view.discard_count ? backElement(view.discard_count, "cards discarded") : empty("none"))),
    keyed(zone(`Reserve (${view.reserve.length})`, fan(view.reserve, "reserve, bottom first", "reserve-top")), "reserve"),
    h("div", { class: "columns" }, Object.entries(view.columns || {}).map(([name, cards]) =>
      column(name, cards, { key: `column:${name}`, pretender: member(view.pretenders, name), joker: member(above, name) }))),
    others(view, ["current", "stock_count", "jokers", "discard_count", "reserve", "columns", "pretenders"]),
  ];
}

function seatName(index: number, seat: number | null): string {
  if (seat === null) return `Seat ${index + 1}`;
  return index === seat ? "You" : "Opponent";
}

type FacingView = ViewWith<"players">;

function facingSide(player: FacingView["players"][number], index: number, view: FacingView, seat: number | null): HTMLElement {
  const joker = player.joker?.card && !player.joker.above
    ? keyed(cardElement(player.joker.card), `joker:${index}`) : null;
  const aboveTheirs: Record<string, string> = Object.fromEntries(view.players.flatMap((p, i) =>
    i !== index && p.joker?.above ? [[p.joker.above, p.joker.card]] : []));
  const side = h("section", { class: `side ${seat === index ? "mine" : "theirs"}`, "aria-label": `${seatName(index, seat)}: columns` },
    h("div", { class: "side-head" }, h("h2", {}, seatName(index, seat)),
      stat("hand", view.hand_counts?.[index] ?? "?"),
      (view.to_move || []).includes(index) ? h("span", { class: "to-move" }, view.reaction ? "may react" : "to move") : null),
    h("div", { class: "side-row" },
      keyed(h("div", { class: "reserve", role: "group", "aria-label": `${seatName(index, seat)}: reserve` },
        h("h3", {}, `Reserve (${player.reserve.length})`), fan(player.reserve, "reserve, bottom first", `reserve-top:${index}`)),
      `reserve:${index}`),
      joker ? h("div", { class: "joker-slot" }, h("h3", {}, "Joker"), joker) : null),
    h("div", { class: "columns" }, Object.entries(player.columns).map(([name, cards]) =>
      column(name, cards, { key: `column:${index}:${name}`, joker: member(aboveTheirs, name),
                            label: `${seatName(index, seat)}: ${name} column` }))));
  return side;
}

function facingTableaux(view: FacingView): Child[] {
  const seat = typeof view.seat === "number" ? view.seat : null;
  const order = seat === null ? [0, 1] : [1 - seat, seat];
  return [
    h("div", { class: "row stats" },
      stat("round", view.round), stat("stock", view.stock_count), stat("discard", view.discard_count),
      stat("reshuffles", view.reshuffles)),
    facingSide(view.players[order[0]], order[0], view, seat),
    view.reaction ? h("p", { class: "reaction" }, `Reaction: ${seatName(view.reaction.seat, seat)} may answer from the reserve`) : null,
    facingSide(view.players[order[1]], order[1], view, seat),
    view.hand ? keyed(zone("Your hand", h("div", { class: "cards hand" }, view.hand.length ? view.hand.map((c) => cardElement(c)) : empty())), "hand") : null,
    others(view, ["seat", "round", "phase", "to_move", "turn", "reaction", "hand", "hand_counts",
      "players", "stock_count", "discard_count", "reshuffles"]),
  ];
}

function cardsZone(title: string, codes: readonly (string | null)[] | null | undefined, key: string): HTMLElement {
  return keyed(zone(`${title} (${(codes || []).length})`,
    h("div", { class: "cards" }, codes?.length ? codes.map((c) => face(c)) : empty("none"))), key);
}

function capital(view: ViewWith<"palace">): Child[] {
  return [
    h("div", { class: "row stats" },
      stat("stock", view.stock_count), stat("personalities left", view.personalities_left),
      stat("discarded", view.discard_count)),
    cardsZone("Palace", view.palace, "palace"),
    cardsZone("Capital", view.capital, "capital"),
    cardsZone("Resources", view.resources, "resources"),
    h("div", { class: "row zones" },
      keyed(zone(`Controlled (${view.controlled.length})`, fan(view.controlled, "controlled")), "controlled"),
      zone(`Discard pile (${view.discard_count})`, fan(view.discard, "discard pile"))),
    view.excuse ? h("p", { class: "note-line" }, `The Excuse waits in the ${view.excuse}.`) : null,
    others(view, ["capital", "palace", "resources", "controlled", "excuse", "personalities_left",
      "stock_count", "discard", "discard_count"]),
  ];
}

type FigureheadsView = ViewWith<"sides">;

function figureheadSide(side: FigureheadsView["sides"][number], index: number, seat: number | null,
  terms: Terms): HTMLElement {
  const who = seatName(index, seat);
  const say = termsFor(terms, Object.keys(side.figureheads || {}));
  const heads = side.figureheads
    ? h("div", { class: "columns heads" }, Object.entries(side.figureheads).map(([name, f]) =>
        keyed(h("div", { class: `column head${f.alive ? "" : " dead"}`, "data-figurehead": name, role: "group",
                         "aria-label": `${who}: ${say(name)}${f.alive ? "" : " (dead)"}` },
          h("h3", {}, `${say(name)}${f.alive ? "" : " ✝"}`),
          cardElement(f.card, f.alive ? undefined : "dead"),
          h("div", { class: "stack supporters" }, f.supporters.length
            ? f.supporters.map((s) => {
              if (!s.card) return backElement(1, "face-down supporter");
              const card = cardElement(s.card, s.face_up ? "face up" : "face down (only you see it)");
              if (!s.face_up) card.classList.add("veiled");
              return card;
            })
            : empty("none"))),
        `figurehead:${index}:${name}`)))
    : h("p", { class: "empty" }, side.suit ? `plays ${side.suit}` : "has not chosen a suit yet");
  const assassin = side.assassin ? h("div", { class: "column assassin", role: "group", "aria-label": `${who}: assassin` },
    h("h3", {}, "Assassin"),
    keyed(cardElement(side.assassin.card, side.assassin.target ? `→ ${say(side.assassin.target)}` : undefined),
      `assassin:${index}`)) : null;
  if (assassin && side.figureheads) heads.append(assassin);
  return h("section", { class: `side ${seat === index ? "mine" : "theirs"}`, "aria-label": who },
    h("div", { class: "side-head" }, h("h2", {}, who), stat("suit", side.suit ? termsFor(terms, [side.suit])(side.suit) : "—"),
      stat("in hand", side.hand_count), stat("exposed", side.exposed)),
    heads, side.figureheads ? null : assassin);
}

function figureheads(view: FigureheadsView, terms: Terms): Child[] {
  const seat = typeof view.seat === "number" ? view.seat : null;
  const order = seat === null ? [0, 1] : [1 - seat, seat];
  const hand = seat !== null ? view.sides[seat].hand : null;
  // The step and who has moved in it are the game's words, in its panels ("Turn", "This step").
  return [
    order.map((i) => figureheadSide(view.sides[i], i, seat, terms)),
    hand ? keyed(zone("Your hand", h("div", { class: "cards hand" }, hand.length ? hand.map((c) => cardElement(c)) : empty())), "hand") : null,
    view.sealed ? zone("Your sealed move", generic(view.sealed)) : null,
    others(view, ["phase", "turn", "seat", "to_move", "submitted", "sealed", "sides", "first_assassin"]),
  ];
}

type MapView = ViewWith<"map">;
type Pile = MapView["map"][number][number];

function mapPile(pile: Pile, r: number, c: number, position: readonly number[] | null): HTMLElement {
  const here = position && position[0] === r && position[1] === c;
  const classes = ["pile", pile.cleared ? "cleared" : "", pile.cut_off ? "cut-off" : "", here ? "here" : ""];
  const shown: [string, string | null][] = [["guard", pile.guard], ["opponent", pile.opponent], ["treasure", pile.treasure]];
  const cards = shown.flatMap(([k, code]) => (code ? [cardElement(code, k)] : []));
  const state = [here ? "you are here" : "", pile.cleared ? "cleared" : "", pile.cut_off ? "cut off" : ""]
    .filter(Boolean).join(", ");
  // Face-up cards drawn; the face-down ones are a back when alone, else a count beside them.
  const hidden = !pile.face_down ? null : cards.length
    ? h("span", { class: "hidden-count", role: "img", "aria-label": `${pile.face_down} face down` }, `+${pile.face_down}`)
    : backElement(pile.face_down, "face down");
  return keyed(h("div", { class: classes.filter(Boolean).join(" "), "data-cell": `${r},${c}`, role: "group",
                          "aria-label": `row ${r + 1}, column ${c + 1}${state ? `: ${state}` : ""}` },
    h("div", { class: "pile-cards" }, cards, hidden),
    here ? h("span", { class: "marker" }, "◆ you") : pile.cleared ? h("span", { class: "marker done" }, "✓") : null),
  `cell:${r},${c}`);
}

/** The game's word for each of these names, from the vocabulary (`terms`) naming them all. */
export function termsFor(terms: Terms, names: readonly string[]): (name: string) => string {
  const found = Object.values(terms).find((t) => t && names.every((n) => typeof member(t, n) === "string"));
  return (n) => member(found, n) ?? n;
}

function character(view: MapView, terms: Terms): HTMLElement {
  const ch = view.character;
  const say = termsFor(terms, Object.keys(ch?.cliches || {}));
  const body = ch
    ? h("table", { class: "cliches" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "cliché"), h("th", { scope: "col" }, "dice"), h("th", { scope: "col" }, "wounds"))),
        h("tbody", {}, Object.entries(ch.cliches).map(([name, dice]) => {
          const letter = member(COLUMN_SUIT, name);
          const wounds = member(ch.wounds, name);
          // A row a round can be fought in is a button (moves.ts), named by what it says:
          // "Wizardry ♠ 3 dice 0 wounds" (the words after the numbers for screen readers only).
          return keyed(h("tr", { class: "cliche" },
            h("th", { scope: "row", class: letter === "D" || letter === "H" ? "red" : "" }, say(name)),
            h("td", {}, h("b", {}, String(dice)), h("span", { class: "sr-only" }, dice === 1 ? " die" : " dice"),
              h("span", { class: "pips", "aria-hidden": "true" }, ` ${"●".repeat(dice)}`)),
            h("td", {}, String(wounds), h("span", { class: "sr-only" }, wounds === 1 ? " wound" : " wounds"))), `cliche:${name}`);
        })))
    : h("p", { class: "empty" }, "Not created yet.");
  return keyed(zone("Character", body), "character");
}

/** The battle beside the map: the foe, each side's dice counted per cliché in the game's own
 * words for them (its vocabulary that names every one: "Wizardry ♠ 3"), the treasures in play. */
function battle(b: MapView["battle"], terms: Terms): HTMLElement | null {
  if (!b) return null;
  const dice = (o: Readonly<Record<string, number | undefined>> | null | undefined) => {
    const entries = Object.entries(o || {});
    const say = termsFor(terms, entries.map(([k]) => k));
    const named = (k: string) => {
      const word = say(k);
      if (word !== k) return word;
      const letter = member(COLUMN_SUIT, k);
      return letter ? `${SUITS[letter][0]} ${k}` : words(k);
    };
    return entries.map(([k, v]) => `${named(k)}: ${v}`).join(" · ") || "—";
  };
  const extras: [string, unknown][] = [["plus", b.plus], ["minus", b.minus]];
  return zone("Battle",
    h("div", { class: "battle" }, face(b.foe.card, b.foe.role),
      h("dl", { class: "generic" },
        h("dt", {}, "foe"), h("dd", {}, b.foe.name),
        h("dt", {}, "foe's dice"), h("dd", { class: "dice foe-dice" }, dice(b.foe_dice)),
        h("dt", {}, "your dice"), h("dd", { class: "dice your-dice" }, dice(b.player_dice)),
        h("dt", {}, "rounds"), h("dd", {}, String(b.rounds)),
        ...extras.flatMap(([k, v]) => (v ? [h("dt", {}, k), h("dd", {}, words(v))] : [])),
        ...(b.x?.length ? [h("dt", {}, "ignoring"), h("dd", {}, words(b.x))] : []))));
}

function dungeonMap(view: MapView, terms: Terms): Child[] {
  return [
    h("div", { class: "row stats" },
      stat("turn", view.turn ?? "—"), stat("defeated", view.defeated ?? 0),
      stat("lost battles", view.lost_battles ?? 0), stat("dice rolled", view.dice_rolled ?? 0)),
    h("div", { class: "map-layout" },
      keyed(zone("The map", h("div", { class: "map" },
        view.map.flatMap((row, r) => row.map((pile, c) => mapPile(pile, r, c, view.position))))), "map"),
      h("div", { class: "map-side" },
        character(view, terms),
        battle(view.battle, terms),
        zone(`Goal ${view.goal.number}`, h("div", { class: "goal" }, cardRow(view.goal.deuces, "goal cards"), h("p", {}, view.goal.text))),
        zone("Treasures", h("div", { class: "cards" }, view.treasures?.length
          ? view.treasures.map((t) => face(t.card, t.name)) : empty("none"))))),
    h("div", { class: "row zones" },
      zone(`Victory (${(view.victory || []).length})`, fan(view.victory || [], "victory area")),
      zone(`Discard (${(view.discard || []).length})`, fan(view.discard || [], "discard pile"))),
    others(view, ["phase", "goal", "character", "position", "map", "battle", "treasures", "victory",
      "discard", "defeated", "turn", "lost_battles", "dice_rolled", "last_roll"]),
  ];
}

const genericBoard = (view: View): Child[] => [others(view, [])];

/** Each layout's board; a view not shaped for its layout is drawn whole, as `generic`. */
const BOARDS: Record<string, (view: View, terms: Terms) => Child[]> = {
  tableau: (view) => (has(view, "pretenders") ? tableau(view) : genericBoard(view)),
  "facing-tableaux": (view) => (has(view, "players") ? facingTableaux(view) : genericBoard(view)),
  capital: (view) => (has(view, "palace") ? capital(view) : genericBoard(view)),
  figureheads: (view, terms) => (has(view, "sides") ? figureheads(view, terms) : genericBoard(view)),
  map: (view, terms) => (has(view, "map") ? dungeonMap(view, terms) : genericBoard(view)),
  generic: genericBoard,
};

export interface BoardOptions {
  gestures?: Readonly<Record<string, readonly Gesture[]>>;
  terms?: Terms | null;
  /** What a card is worth by its rank, as the game declares it (`words.card_values`). */
  cardValues?: Readonly<Record<string, number>>;
  play?: ((move: Move) => unknown) | null;
}

/**
 * The board of a layout for a view; an unknown layout still shows the whole view. With
 * `play` (a seat's board in a game still playing), its elements make the view's legal moves
 * through the ruleset's `gestures`, and what they cannot make is offered beside them.
 */
export function renderBoard(layout: string, view: View, { gestures = {}, terms = {}, cardValues = {}, play = null }: BoardOptions = {}): HTMLElement {
  const known = Object.hasOwn(BOARDS, layout) ? layout : "generic";
  const board = h("div", { class: `board board-${known}`, "data-layout": known }, BOARDS[known](view, terms || {}));
  const all: readonly Move[] = view.legal_moves || [];
  const legal = all.filter((m) => m.type !== "resign");
  if (play && legal.length) boardPlay(board, { view, legal, gestures, terms: terms || {}, cardValues, play });
  return board;
}

/** Marks the cards with these codes on a board (class `recent`): what the last move did. */
export function highlightCards(root: ParentNode, codes: readonly string[] | null | undefined): void {
  root.querySelectorAll(".card.recent").forEach((c) => c.classList.remove("recent"));
  const wanted = new Set(codes || []);
  if (!wanted.size) return;
  root.querySelectorAll<HTMLElement>(".board .card[data-card]").forEach((c) => {
    if (wanted.has(c.dataset.card || "")) c.classList.add("recent");
  });
}
