// Moves: made on the board (boardPlay) and listed for keyboards and screen readers
// (movesPanel). The contract (docs/web-client.md): every control that plays a move carries
// `data-move`, the move's JSON exactly as `legal_moves` lists it, and only those do; the board
// only ever plays one of those moves.

import type { Gesture, Move, View } from "./api";
import type { Terms } from "./boards";
import { DECKTET_BY_CODE, isCard } from "./cards";
import { h, isObject, moveLabel, short, words } from "./ui";
import type { JsonObject } from "./ui";

const BUILDER_OVER = 100; // more moves of one kind than this: pick them field by field
const SPLIT_OVER = 12; // more than this: one group per value of the first field
const SUGGESTED = 6; // at most this many ready-made choices (payments) beside the board
const DRAG_PX = 6; // a pointer moved this far while pressed is dragging, not clicking

/** A move's fields, read by name: every move of the spec is a JSON object. */
const fieldsOf = (move: Move): JsonObject => move;

// ---- on the board ---------------------------------------------------------------------------

/** The keys of an element (its `data-key`, space-separated). */
function keysOf(node: HTMLElement): string[] {
  return node.dataset.key ? node.dataset.key.split(" ") : [];
}

function valueAt(move: JsonObject, path: string): unknown {
  return path.split(".").reduce<unknown>((v, part) => (isObject(v) ? v[part] : undefined), move);
}

interface FillWith {
  seats: Readonly<Record<string, string>>;
  extra?: Readonly<Record<string, unknown>>;
  source?: HTMLElement | null;
}

/**
 * A key template filled in (domain/gestures.py): `{field}` from the move, `{me}`/`{them}`
 * the seats, `{source.x}` the source element's `data-x`, anything in `extra`. Null when a
 * value is missing (a null field: the gesture does not apply).
 */
function fill(template: string, move: JsonObject, { seats, extra = {}, source = null }: FillWith): string | null {
  let missing = false;
  const out = template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    let value: unknown;
    if (Object.hasOwn(extra, name)) value = extra[name];
    else if (Object.hasOwn(seats, name)) value = seats[name];
    else if (name.startsWith("source.")) value = source?.dataset[name.slice(7)];
    else value = valueAt(move, name);
    if (Array.isArray(value) && value.every((v: unknown) => typeof v !== "object")) value = value.join(",");
    if (value === null || value === undefined || typeof value === "object") missing = true;
    return String(value);
  });
  return missing ? null : out;
}

/** An undeclared move with one card-valued field: that card is where it is made. */
function defaultGestures(move: JsonObject): Gesture[] {
  const fields = Object.keys(move).filter((k) => k !== "type");
  if (fields.length === 1 && typeof move[fields[0]] === "string") return [{ target: `card:{${fields[0]}}` }];
  return [];
}

/** How one legal move is made on this board. */
type Plan =
  | { kind: "tune"; move: Move; field: string; zone: string; values: Record<string, number> }
  | { kind: "pick"; move: Move; keys: string[]; target: string | null }
  | { kind: "assign"; move: Move; pairs: [string, string][] }
  | { kind: "tap"; move: Move; source: string | null; target: string | null }
  | { kind: "chip"; move: Move };

type TunePlan = Extract<Plan, { kind: "tune" }>;

function numbers(value: unknown): Record<string, number> | null {
  if (!isObject(value)) return null;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "number") return null;
    out[k] = v;
  }
  return out;
}

/** How a legal move is made here: the first of its gestures whose elements are on the board. */
function planOf(move: Move, gestures: Readonly<Record<string, readonly Gesture[]>>,
                found: Map<string, HTMLElement[]>, seats: Record<string, string>): Plan {
  const fields = fieldsOf(move);
  const declared = Object.hasOwn(gestures, move.type) ? gestures[move.type] : defaultGestures(fields);
  for (const g of declared) {
    const at = (key: string | null) => (key !== null && found.has(key) ? key : null);
    if (g.tune) {
      const values = numbers(fields[g.tune.field]);
      if (values) return { kind: "tune", move, field: g.tune.field, zone: g.tune.zone, values };
      continue;
    }
    if (g.pick) {
      const items = fields[g.pick.field];
      if (!Array.isArray(items)) continue;
      const pickKey = g.pick.key;
      const keys = items.map((item: unknown) => at(fill(pickKey, fields, { seats, extra: { item } })));
      const target = g.target ? at(fill(g.target, fields, { seats })) : null;
      if (keys.some((k) => k === null) || (g.target && target === null)) continue;
      return { kind: "pick", move, keys: keys.filter((k): k is string => k !== null), target };
    }
    if (g.assign) {
      const object = fields[g.assign.field];
      if (!isObject(object)) continue;
      const assign = g.assign;
      const pairs = Object.entries(object).map(([name, value]) => {
        const extra = { name, value };
        return [at(fill(assign.source, fields, { seats, extra })), at(fill(assign.target, fields, { seats, extra }))];
      });
      const whole = pairs.flatMap(([s, t]): [string, string][] => (s !== null && t !== null ? [[s, t]] : []));
      if (whole.length !== pairs.length) continue;
      return { kind: "assign", move, pairs: whole };
    }
    const source = g.source ? at(fill(g.source, fields, { seats })) : null;
    if (g.source && source === null) continue;
    const sourceNode = source ? found.get(source)?.[0] ?? null : null;
    const target = g.target ? at(fill(g.target, fields, { seats, source: sourceNode })) : null;
    if (g.target && target === null) continue;
    if (g.when) {
      const [a, b] = g.when.map((t) => fill(t, fields, { seats, source: sourceNode }));
      if (a === null || a !== b) continue;
    }
    if (source === null && target === null) continue;
    return { kind: "tap", move, source, target };
  }
  return { kind: "chip", move };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const subset = (a: readonly string[], b: readonly string[]) => a.every((x) => b.includes(x));

/** The name of what an element shows, for the hint line: a card's name, a zone's title. */
function nameOf(node: HTMLElement | null | undefined): string {
  if (!node) return "";
  return node.getAttribute("aria-label")?.split(",")[0] || node.querySelector("h2, h3")?.textContent || "";
}

/** What a click (or a drop) on an element does. */
interface Action {
  move?: Move;
  assign?: [string, string];
  source?: string;
  pick?: string;
  unpick?: string;
  pickTarget?: string;
  unassign?: string;
}

/** A move the tray offers. */
interface Ready {
  move: Move;
  confirm?: true;
  suggestion?: true;
}

interface Options {
  targets: Map<string, Action[]>;
  selectable: Map<string, Action>;
  maybe: Set<string>;
  ready: Ready[];
}

export interface PlayOptions {
  view: View;
  legal: readonly Move[];
  gestures: Readonly<Record<string, readonly Gesture[]>>;
  terms?: Terms;
  /** What a card is worth by its rank, as the game declares it (`words.card_values`). */
  cardValues?: Readonly<Record<string, number>>;
  play: (move: Move) => unknown;
}

/** What a card counts for in a running total: its worth as the game declares it for a
 * standard card, a Decktet card's rank (printed on it); null when neither says. */
function worthOf(code: string, cardValues: Readonly<Record<string, number>>): number | null {
  const decktet = DECKTET_BY_CODE.get(code);
  if (decktet) return decktet.rank;
  return Object.hasOwn(cardValues, code[0]) ? cardValues[code[0]] : null;
}

const cardOfKey = (key: string | null): string | null =>
  key && key.startsWith("card:") && isCard(key.slice(5)) ? key.slice(5) : null;

/**
 * Makes a board playable: its keyed elements light up as the player selects, and a click
 * on a lit element plays the legal move it completes (`play(move)`). What the board cannot
 * show as an element (a move with no gesture, a choice to confirm) goes on the tray below it.
 * A source can also be dragged onto its target (a mouse, a pen or a finger: pointer events).
 */
export function boardPlay(board: HTMLElement, { view, legal, gestures, terms = {}, cardValues = {}, play }: PlayOptions): void {
  const me = "seat" in view && typeof view.seat === "number" ? view.seat : 0;
  const seats = { me: String(me), them: String(1 - me) };
  const found = new Map<string, HTMLElement[]>();
  const keyedNodes = [...board.querySelectorAll<HTMLElement>("[data-key]")];
  for (const node of keyedNodes) {
    for (const key of keysOf(node)) {
      const list = found.get(key) || [];
      list.push(node);
      found.set(key, list);
    }
  }
  const plans = legal.map((move) => planOf(move, gestures, found, seats));
  const tunes = plans.filter((p): p is TunePlan => p.kind === "tune");
  // Steppers start on a legal choice, the most even one (the spread of its values smallest).
  const spread = (t: TunePlan) => Math.max(...Object.values(t.values)) - Math.min(...Object.values(t.values));
  const even = tunes.reduce<TunePlan | null>((best, t) => (best === null || spread(t) < spread(best) ? t : best), null);
  const sel = {
    source: null as string | null,
    picks: [] as string[],
    pickTarget: null as string | null,
    assigned: new Map<string, string>(), // target -> source
    auto: false, // the source was selected for the player (the one thing to pick up)
    tune: even ? { ...even.values } : ({} as Record<string, number>),
  };
  let done = false;
  const hint = h("p", { class: "hint", role: "status", "aria-live": "polite" });
  const total = h("p", { class: "running-total", id: "running-total", hidden: true });
  const chips = h("div", { class: "chips" });
  const tray = h("div", { class: "tray", role: "group", "aria-label": "Play on the board" }, hint, total, chips);
  board.classList.add("playable");
  board.append(tray);
  let stepper: HTMLElement | null = null;
  if (tunes.length) {
    stepper = h("div", { class: "steppers", role: "group", "aria-label": "Set the values" });
    (found.get(tunes[0].zone)?.[0] || tray).append(stepper);
  }

  const clear = () => {
    sel.source = null;
    sel.auto = false;
    sel.picks = [];
    sel.pickTarget = null;
    sel.assigned = new Map();
  };
  const idle = () => !sel.source && !sel.picks.length && !sel.pickTarget && !sel.assigned.size;
  const go = (move: Move) => {
    if (done) return;
    done = true;
    board.classList.add("busy");
    play(move);
  };

  function consistent(p: Plan): boolean {
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
  function options(): Options {
    const targets = new Map<string, Action[]>(); // key -> moves (or an assignment) a click makes
    const selectable = new Map<string, Action>(); // key -> action that changes the selection
    const maybe = new Set<string>();
    const ready: Ready[] = []; // moves the tray offers (confirmations, suggestions, moves with no element)
    const addTarget = (key: string, action: Action) => {
      const list = targets.get(key) || [];
      targets.set(key, list);
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
    // The card picked up stays picked when tapped again (as anyone taps it before its place).
    if (sel.source) selectable.set(sel.source, { source: sel.source });
    for (const p of plans) if (p.kind === "chip") ready.push({ move: p.move });
    // Target first (a payment): its sensible ways, the smallest ones, ready-made.
    if (sel.pickTarget && !sel.picks.length) {
      const ways = live.filter((p): p is Extract<Plan, { kind: "pick" }> => p.kind === "pick" && p.target === sel.pickTarget);
      const minimal = ways.filter((p) => !ways.some((q) => q !== p && subset(q.keys, p.keys)))
        .sort((a, b) => a.keys.length - b.keys.length);
      for (const p of minimal.slice(0, SUGGESTED)) ready.push({ move: p.move, suggestion: true });
    }
    return { targets, selectable, maybe, ready };
  }

  function hintText(now: Options): string {
    const node = (key: string | null) => nameOf(key === null ? null : found.get(key)?.[0]);
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
      const picked = `Picked ${sel.picks.map(node).join(", ")}.`;
      if (now.targets.size) return `${picked} Now choose a lit card.`;
      // What the legal moves still ask for: none (confirm) or the fewest picks more.
      if (now.ready.some((r) => r.confirm)) return `${picked} Confirm, or click a pick to take it back.`;
      const more = Math.min(...plans.filter((p) => p.kind === "pick" && sel.picks.every((k) => p.keys.includes(k)))
        .map((p) => (p.kind === "pick" ? p.keys.length - sel.picks.length : Infinity)));
      return `${picked} ${Number.isFinite(more) && more > 0 ? `Pick ${more} more.` : "Pick more."}`;
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

  /**
   * The running total of the cards picked so far (a payment): each card's worth, their sum,
   * and the worth of the card they are for once it is chosen. Only where every card picked
   * has a worth (the game's card values, or a Decktet card's rank); "" otherwise.
   */
  function runningTotal(): string {
    if (!sel.picks.length && !sel.pickTarget) return "";
    const picked = sel.picks.map(cardOfKey);
    const target = cardOfKey(sel.pickTarget);
    if (picked.some((c) => c === null) || (sel.pickTarget && target === null)) return "";
    const worths = picked.map((c) => (c === null ? null : worthOf(c, cardValues)));
    const targetWorth = target === null ? null : worthOf(target, cardValues);
    if (worths.some((w) => w === null) || (target !== null && targetWorth === null)) return "";
    const sum = worths.reduce<number>((s, w) => s + (w ?? 0), 0);
    const parts = picked.map((c, i) => `${short(c ?? "")} ${worths[i]}`).join(" + ");
    const of = target === null ? "" : ` · ${short(target)}: ${targetWorth}`;
    return picked.length ? `Total ${sum} = ${parts}${of}` : `Total 0: nothing picked yet${of}`;
  }

  function chip(label: string, attrs: Record<string, string>, onclick: () => void): HTMLButtonElement {
    return h("button", { type: "button", class: "chip", ...attrs, onclick }, label);
  }

  function renderTune(): void {
    if (!stepper) return;
    const box = stepper;
    const names = Object.keys(tunes[0].values);
    // The game's own word for each value, from the vocabulary (`terms`) that names them all.
    const vocabulary = Object.values(terms || {}).find((t) => names.every((n) => typeof t?.[n] === "string")) || {};
    const label = (n: string) => (Object.hasOwn(vocabulary, n) ? vocabulary[n] : words(n));
    const range = Object.fromEntries(names.map((n) => {
      const values = tunes.map((t) => t.values[n]);
      return [n, [Math.min(...values), Math.max(...values)]];
    }));
    const sums = new Set(tunes.map((t) => names.reduce((s, n) => s + t.values[n], 0)));
    const whole = sums.size === 1 ? [...sums][0] : null;
    const sum = names.reduce((s, n) => s + sel.tune[n], 0);
    const match = tunes.find((t) => names.every((n) => t.values[n] === sel.tune[n]));
    const step = (n: string, d: number) => () => {
      sel.tune[n] += d;
      refresh();
      box.querySelector<HTMLElement>(`[data-step="${n}${d > 0 ? "+" : "-"}"]`)?.focus();
    };
    box.replaceChildren(...names.map((n) => h("div", { class: "stepper" },
      h("span", { class: "stepper-name" }, label(n)),
      h("button", { type: "button", class: "step", "data-step": `${n}-`, "aria-label": `${label(n)}: one less`,
                    disabled: sel.tune[n] <= range[n][0], onclick: step(n, -1) }, "−"),
      h("output", { class: "stepper-value", "aria-label": label(n) }, String(sel.tune[n])),
      h("button", { type: "button", class: "step", "data-step": `${n}+`, "aria-label": `${label(n)}: one more`,
                    disabled: sel.tune[n] >= range[n][1], onclick: step(n, 1) }, "+"))),
    ...(whole === null ? [] : [h("p", { class: "stepper-left" },
      sum === whole ? "All points placed." : sum < whole ? `${whole - sum} left to place.` : `${sum - whole} too many.`)]),
    h("button", { type: "button", class: "chip confirm", disabled: !match,
                  ...(match ? { "data-move": JSON.stringify(match.move) } : {}),
                  onclick: () => match && go(match.move) }, match ? `Confirm: ${moveLabel(match.move)}` : "Not a legal choice yet"));
  }

  /** The keys that can be picked up and dragged now: a source to select, or the one selected. */
  function draggable(now: Options): Set<string> {
    const out = new Set<string>();
    for (const [key, action] of now.selectable) if (action.source !== undefined) out.add(key);
    return out;
  }

  function refresh(): void {
    const now = options();
    const drags = draggable(now);
    const assignedSources = [...sel.assigned.values()];
    for (const node of keyedNodes) {
      const keys = keysOf(node);
      const target = keys.some((k) => now.targets.has(k));
      const selectable = keys.some((k) => now.selectable.has(k));
      node.classList.toggle("target", target);
      node.classList.toggle("selectable", selectable && !target);
      node.classList.toggle("draggable", !target && keys.some((k) => drags.has(k)));
      node.classList.toggle("maybe", keys.some((k) => now.maybe.has(k)));
      node.classList.toggle("selected", keys.some((k) => k === sel.source || sel.picks.includes(k) || k === sel.pickTarget));
      node.classList.toggle("assigned", assignedSources.some((s) => keys.includes(s)));
      // What can be clicked can be reached with Tab, and a card or a table row that can is a
      // button (named by its aria-label); it is what it was again once it cannot.
      const pressable = node.classList.contains("card") || node instanceof HTMLTableRowElement;
      if (target || selectable) {
        node.tabIndex = 0;
        if (pressable) node.setAttribute("role", "button");
      } else if (node.hasAttribute("tabindex")) {
        node.removeAttribute("tabindex");
        if (node.classList.contains("card")) node.setAttribute("role", "img");
        else if (pressable) node.removeAttribute("role");
      }
    }
    board.querySelectorAll(".tentative").forEach((n) => n.remove());
    for (const [t, s] of sel.assigned) {
      const source = found.get(s)?.[0];
      const place = found.get(t)?.[0];
      const copy = source?.cloneNode(true);
      if (source && place && copy instanceof HTMLElement) {
        copy.classList.add("tentative");
        copy.classList.remove("assigned", "selectable", "target", "selected", "draggable");
        copy.removeAttribute("data-key");
        copy.removeAttribute("tabindex");
        copy.setAttribute("role", "img");
        copy.setAttribute("aria-label", `${nameOf(source)} (to place)`);
        place.append(copy);
      }
    }
    hint.textContent = hintText(now);
    const running = runningTotal();
    total.textContent = running;
    total.hidden = !running;
    const seen = new Set<string>();
    const buttons: HTMLButtonElement[] = [];
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

  function act(action: Action): void {
    if (action.move) {
      go(action.move);
      return;
    }
    if (action.assign) {
      sel.assigned.set(action.assign[1], action.assign[0]);
      sel.source = null;
      sel.auto = false;
      // One card left to place: it is picked up already.
      const left = new Set(plans.flatMap((p) => (p.kind === "assign" && consistent(p)
        ? p.pairs.filter(([, t]) => !sel.assigned.has(t)).map(([s]) => s) : [])));
      if (left.size === 1) {
        sel.source = [...left][0];
        sel.auto = true;
      }
    } else if (action.source) {
      if (action.source !== sel.source) sel.auto = false;
      sel.source = action.source;
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
  }

  function choose(actions: readonly Action[]): void {
    const moves = actions.flatMap((a) => (a.move ? [a.move] : []));
    if (moves.length < 2) {
      act(moves.length ? { move: moves[0] } : actions[0]);
      return;
    }
    // Several moves end on this element (rare): the tray asks which.
    hint.textContent = "Which one?";
    chips.replaceChildren(...moves.map((m) => chip(moveLabel(m), { "data-move": JSON.stringify(m) }, () => go(m))),
      chip("Cancel", { class: "chip cancel" }, () => { clear(); refresh(); }));
  }

  /** The keyed elements from `start` up to the board, innermost first. */
  function keyedPath(start: EventTarget | null): HTMLElement[] {
    const path: HTMLElement[] = [];
    for (let node = start instanceof Node ? start : null; node && node !== board.parentNode; node = node.parentNode) {
      if (node instanceof HTMLElement && node.dataset.key) path.push(node);
    }
    return path;
  }

  /** A click (or a key) on the board: the innermost lit element under it acts. */
  function onActivate(event: Event): void {
    if (done || (event.target instanceof Element && event.target.closest(".tray, .steppers"))) return;
    const now = options();
    const path = keyedPath(event.target);
    for (const node of path) {
      const key = keysOf(node).find((k) => now.targets.has(k));
      if (key) {
        event.preventDefault();
        choose(now.targets.get(key) || []);
        return;
      }
    }
    for (const node of path) {
      const key = keysOf(node).find((k) => now.selectable.has(k));
      const action = key === undefined ? undefined : now.selectable.get(key);
      if (action) {
        event.preventDefault();
        act(action);
        return;
      }
    }
    // A tap on nothing puts down the card picked up by hand; what is placed or picked
    // already stays (Cancel and Escape undo it all), and what was picked for the player stays.
    if (sel.source && !sel.auto) {
      sel.source = null;
      refresh();
    }
  }

  // ---- dragging: pick a source up, drop it on a lit place (mouse, pen or finger alike) ------

  interface Drag {
    node: HTMLElement;
    key: string;
    pointer: number;
    x: number;
    y: number;
    before: string | null;
    beforeAuto: boolean;
    ghost: HTMLElement | null;
    dx: number;
    dy: number;
    over: HTMLElement | null;
  }
  let drag: Drag | null = null;
  let dragged = false; // the click a browser sends at the end of a drag is not a click

  /** The lit target (and its key) under a point, if any. */
  function dropAt(x: number, y: number): { node: HTMLElement; key: string } | null {
    const now = options();
    for (const node of keyedPath(document.elementFromPoint(x, y))) {
      if (!board.contains(node)) continue;
      const key = keysOf(node).find((k) => now.targets.has(k));
      if (key) return { node, key };
    }
    return null;
  }

  function endDrag(d: Drag): void {
    d.ghost?.remove();
    d.over?.classList.remove("drop-over");
    board.classList.remove("dragging");
    if (d.node.hasPointerCapture(d.pointer)) d.node.releasePointerCapture(d.pointer);
  }

  board.addEventListener("pointerdown", (event) => {
    if (done || drag || !event.isPrimary || event.button !== 0) return;
    if (event.target instanceof Element && event.target.closest(".tray, .steppers")) return;
    const drags = draggable(options());
    for (const node of keyedPath(event.target)) {
      const key = keysOf(node).find((k) => drags.has(k));
      if (key) {
        drag = { node, key, pointer: event.pointerId, x: event.clientX, y: event.clientY, before: sel.source, beforeAuto: sel.auto,
                 ghost: null, dx: 0, dy: 0, over: null };
        return;
      }
    }
  });

  board.addEventListener("pointermove", (event) => {
    const d = drag;
    if (!d || event.pointerId !== d.pointer || done) return;
    if (!d.ghost) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_PX) return;
      // Picked up: selected as a click would, its places lit, and a copy follows the pointer.
      if (sel.source !== d.key) act({ source: d.key });
      const copy = d.node.cloneNode(true);
      if (!(copy instanceof HTMLElement)) return;
      const rect = d.node.getBoundingClientRect();
      copy.classList.add("drag-ghost");
      copy.classList.remove("selectable", "selected", "target", "draggable");
      for (const name of ["data-key", "tabindex", "role", "id"]) copy.removeAttribute(name);
      copy.setAttribute("aria-hidden", "true");
      copy.style.width = `${rect.width}px`;
      copy.style.height = `${rect.height}px`;
      d.dx = d.x - rect.left;
      d.dy = d.y - rect.top;
      d.ghost = copy;
      document.body.append(copy);
      board.classList.add("dragging");
      try { d.node.setPointerCapture(d.pointer); } catch { /* the pointer is gone already */ }
    }
    event.preventDefault();
    d.ghost.style.transform = `translate(${event.clientX - d.dx}px, ${event.clientY - d.dy}px)`;
    const over = dropAt(event.clientX, event.clientY)?.node ?? null;
    if (over !== d.over) {
      d.over?.classList.remove("drop-over");
      over?.classList.add("drop-over");
      d.over = over;
    }
  });

  board.addEventListener("pointerup", (event) => {
    const d = drag;
    if (!d || event.pointerId !== d.pointer) return;
    drag = null;
    if (!d.ghost) return; // not moved: a click, which the click handler plays
    endDrag(d);
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
    const drop = dropAt(event.clientX, event.clientY);
    if (drop) {
      choose(options().targets.get(drop.key) || []);
      return;
    }
    // Dropped where nothing goes: the selection is what it was before.
    if (sel.source !== d.before && !done) {
      sel.source = d.before;
      sel.auto = d.beforeAuto;
      refresh();
    }
  });

  board.addEventListener("pointercancel", (event) => {
    const d = drag;
    if (!d || event.pointerId !== d.pointer) return;
    drag = null;
    if (d.ghost) {
      endDrag(d);
      if (sel.source !== d.before && !done) {
        sel.source = d.before;
        sel.auto = d.beforeAuto;
        refresh();
      }
    }
  });

  board.addEventListener("click", (event) => {
    if (dragged) {
      dragged = false;
      event.preventDefault();
      return;
    }
    onActivate(event);
  });
  board.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target instanceof HTMLElement && event.target.dataset.key) onActivate(event);
    if (event.key === "Escape" && !idle()) {
      clear();
      refresh();
    }
  });
  // One place to start from (a reaction from the reserve): it is selected already.
  const sources = new Set(plans.flatMap((p) => (p.kind === "tap" && p.source ? [p.source] : [])));
  if (sources.size === 1 && plans.every((p) => p.kind === "chip" || (p.kind === "tap" && p.source))) {
    sel.source = [...sources][0];
    sel.auto = true;
  }
  refresh();
}

// ---- the list of moves ----------------------------------------------------------------------

function moveButton(move: Move, onPlay: (move: Move) => unknown, label = moveLabel(move)): HTMLButtonElement {
  return h("button", { type: "button", class: `move move-${move.type}`, "data-move": JSON.stringify(move),
                       onclick: () => onPlay(move) }, label);
}

/** Flattens one level of object fields: {cards: {king: "5C"}} → {"cards.king": "5C"}. */
function fields(move: Move): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fieldsOf(move))) {
    if (k === "type") continue;
    if (isObject(v)) {
      for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = JSON.stringify(v2);
    } else out[k] = JSON.stringify(v);
  }
  return out;
}

/**
 * Each move's label (the game's sentence for it, moveLabel), made distinct where two would
 * read alike: the plain words of its fields, then its place in the list, are added.
 */
function distinctLabels(moves: readonly Move[]): string[] {
  const count = (labels: readonly string[]) => labels.reduce((m, l) => m.set(l, (m.get(l) || 0) + 1), new Map<string, number>());
  let labels = moves.map((m) => moveLabel(m));
  let seen = count(labels);
  labels = labels.map((l, i) => {
    if ((seen.get(l) || 0) < 2) return l;
    const plain = Object.entries(fieldsOf(moves[i])).filter(([k]) => k !== "type").map(([, v]) => words(v)).join(", ");
    return plain && !l.includes(plain) ? `${l} (${plain})` : l;
  });
  seen = count(labels);
  return labels.map((l, i) => ((seen.get(l) || 0) < 2 ? l : `${l} (${i + 1})`));
}

/** The words a group's labels begin with alike ("Take control of The Mill"), whole words only,
 * without a dangling joining word; "" when they share none. */
function sharedWords(labels: readonly string[]): string {
  if (labels.length < 2) return "";
  const split = labels.map((l) => l.split(" "));
  let n = 0;
  while (split.every((w) => n < w.length - 1 && w[n] === split[0][n])) n++;
  const out = split[0].slice(0, n);
  while (out.length && /^(with|and|or|to|of|on|in|a|the|from|by|:)$/i.test(out[out.length - 1])) out.pop();
  return out.join(" ").replace(/[,:;]$/, "");
}

/** Selects, one per field, and one button that carries the matching legal move (if any). */
function builder(type: string, moves: readonly Move[], onPlay: (move: Move) => unknown): HTMLElement {
  const flat = moves.map(fields);
  const names = Object.keys(flat[0]);
  const selects = names.map((name) => {
    const values = [...new Set(flat.map((f) => f[name]))];
    const id = `pick-${type}-${name.replace(/\W/g, "-")}`;
    return { name, id, select: h("select", { id }, values.map((v) => h("option", { value: v }, words(JSON.parse(v))))) };
  });
  const button = h("button", { type: "button", class: `move move-${type} build` });
  let chosenMove: Move | null = null;
  const update = () => {
    const chosen = Object.fromEntries(selects.map((s) => [s.name, s.select.value]));
    const index = flat.findIndex((f) => names.every((n) => f[n] === chosen[n]));
    if (index >= 0) {
      chosenMove = moves[index];
      button.dataset.move = JSON.stringify(moves[index]);
      button.disabled = false;
      button.textContent = moveLabel(moves[index]);
    } else {
      chosenMove = null;
      delete button.dataset.move;
      button.disabled = true;
      button.textContent = "not a legal combination";
    }
  };
  selects.forEach((s) => {
    s.select.value = flat[0][s.name]; // start on a legal move
    s.select.addEventListener("change", update);
  });
  button.addEventListener("click", () => { if (chosenMove) onPlay(chosenMove); });
  update();
  return h("div", { class: "builder" },
    selects.map((s) => h("label", { for: s.id }, s.name.replace(".", " "), " ", s.select)), button);
}

/** Resign, behind a confirmation: the button that resigns shows only once asked. */
export function resignControl(move: Move, onPlay: (move: Move) => unknown): HTMLElement {
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
export function movesPanel(legal: readonly Move[], onPlay: (move: Move) => unknown): HTMLElement {
  const byType = new Map<string, Move[]>();
  for (const move of legal) {
    if (move.type === "resign") continue;
    const list = byType.get(move.type) || [];
    list.push(move);
    byType.set(move.type, list);
  }
  const groups: HTMLElement[] = [];
  const singles: HTMLElement[] = [];
  for (const [type, moves] of byType) {
    const title = type.replaceAll("_", " ");
    if (moves.length > BUILDER_OVER) {
      groups.push(h("div", { class: "move-group" }, h("h3", {}, `${title} (${moves.length} ways)`),
        builder(type, moves, onPlay),
        h("details", {}, h("summary", {}, `every ${title}, one button each`),
          h("div", { class: "buttons" }, distinctLabels(moves).map((label, i) => moveButton(moves[i], onPlay, label))))));
      continue;
    }
    const labels = distinctLabels(moves);
    const firstField = Object.keys(moves[0]).find((k) => k !== "type");
    const split = new Map<string, number[]>();
    for (const [i, m] of moves.entries()) {
      const key = firstField ? JSON.stringify(fieldsOf(m)[firstField]) : "";
      split.set(key, [...(split.get(key) || []), i]);
    }
    // Many moves of one kind: one group per value of their first field, when that groups them
    // (not one group per move), headed by what its moves' sentences share.
    if (moves.length > SPLIT_OVER && firstField && split.size > 1 && split.size <= moves.length / 2) {
      for (const [key, indexes] of split) {
        const shared = sharedWords(indexes.map((i) => labels[i]));
        groups.push(h("div", { class: "move-group" }, h("h3", {}, shared || `${title} ${words(JSON.parse(key))}`),
          h("div", { class: "buttons" }, indexes.map((i) => moveButton(moves[i], onPlay, labels[i])))));
      }
      continue;
    }
    if (moves.length === 1) {
      singles.push(moveButton(moves[0], onPlay)); // one row for the kinds with one move each
      continue;
    }
    groups.push(h("div", { class: "move-group" }, h("h3", {}, title),
      h("div", { class: "buttons" }, moves.map((m, i) => moveButton(m, onPlay, labels[i])))));
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
export function focusNext(root: ParentNode): void {
  const next = listOpen ? root.querySelector<HTMLElement>("#move-list [data-move]:not([disabled])")
    : root.querySelector<HTMLElement>(".board.playable [tabindex='0'], .board.playable .tray button:not([disabled])");
  next?.focus({ preventScroll: true });
}
