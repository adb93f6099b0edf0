// A game's own words, rendered knowing no game: the `words` each ruleset declares in
// GET /v1/rulesets (domain/presentation.py, docs/web-client.md "A game's words"). Templates are
// sentences with {path:format:arg} values, <optional parts> and [you form|other form] verbs, or
// choices of such sentences by a value; seats are said from the reader's side ("you",
// "Opponent", "Bot (best)"), never as numbers.

import type { SeatInfo, Words, WordsTemplate } from "./api";
import { cardName, isCard } from "./cards";
import { isObject, joinWords, short, words } from "./ui";
import type { JsonObject, MoveSayer } from "./ui";

const DIE_FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const MISSING = undefined;

/** What a template is said of: the object, the seat whose move it is, the view, a panel's item
 * and the keys of its place. */
export interface Said {
  obj?: unknown;
  mover?: number | null;
  view?: unknown;
  item?: unknown;
  keys?: readonly (string | number)[];
}

/** How a game ended, from one reader's side. */
export interface Ending {
  verdict: "won" | "lost" | "draw" | "over";
  headline: string;
  reason: string;
  score: string;
}

const EMPTY_WORDS: Words = {
  moves: {}, effects: {}, terms: {}, card_values: {}, panels: [],
  ending: { result: "result", results: { won: "won", lost: "lost" }, winner: null, reason: null, score: null },
};

/** The JSON text a choice's cases name a value by. */
function caseKey(value: unknown): string {
  if (value === null || value === undefined) return "null";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function missing(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Plain words for any value, for a game that declares none: never a raw dump. */
export const plain = words;

/** A sentence with its first letter up. */
export function capitalized(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * The words of one game seen by one reader. `words`: the ruleset's declaration; `seats`: the
 * game's seats ({seat, player, policy}); `viewer`: the reader's seat, or null (a spectator).
 */
export class Speaker implements MoveSayer {
  words: Words;
  seats: readonly SeatInfo[];
  viewer: number | null;
  maxSeats: number;

  constructor(words: Words | null | undefined,
              { seats = [], viewer = null, maxSeats = 1 }: { seats?: readonly SeatInfo[]; viewer?: number | null; maxSeats?: number } = {}) {
    this.words = words || EMPTY_WORDS;
    this.seats = seats;
    this.viewer = viewer;
    this.maxSeats = maxSeats;
  }

  /** A seat as its reader knows it: "you", "Opponent", "Bot (best)", "Player 2". */
  seatName(seat: unknown): string {
    if (typeof seat !== "number" || !Number.isInteger(seat)) return "someone";
    if (seat === this.viewer) return "you";
    const info = this.seats.find((s) => s.seat === seat);
    if (info?.player === "bot") return `Bot (${info.policy || "bot"})`;
    if (this.maxSeats === 1) return "the player";
    if (this.viewer !== null && this.maxSeats === 2) return "Opponent";
    return `Player ${seat + 1}`;
  }

  seatOf(seat: unknown): string {
    return seat === this.viewer ? "your" : `${this.seatName(seat)}'s`;
  }

  rival(seat: unknown): unknown {
    return typeof seat === "number" && Number.isInteger(seat) ? 1 - seat : seat;
  }

  // ---- values ------------------------------------------------------------------------------

  value(kind: string, arg: string, v: unknown, ctx: Said): string {
    const terms = this.words.terms || {};
    switch (kind) {
      case "text": return plain(v);
      case "number": return String(v);
      case "count": {
        const [one, many] = arg.includes("/") ? arg.split("/") : [arg, `${arg}s`];
        return arg ? `${String(v)} ${v === 1 ? one : many}` : String(v);
      }
      case "card": return typeof v === "string" && isCard(v) ? short(v) : plain(v);
      case "card_name": return typeof v === "string" && isCard(v) ? cardName(v) : plain(v);
      case "cards": return Array.isArray(v) && v.length ? joinWords(v.map((c) => (typeof c === "string" && isCard(c) ? short(c) : plain(c)))) : "none";
      case "seat": return this.seatName(v);
      case "seat_of": return this.seatOf(v);
      case "rival": return this.seatName(this.rival(v));
      case "rival_of": return this.seatOf(this.rival(v));
      case "dice": return (Array.isArray(v) ? v : [v]).map((d) => (typeof d === "number" && DIE_FACES[d - 1] ? `${DIE_FACES[d - 1]}${d}` : String(d))).join(" ");
      case "cell": return Array.isArray(v) ? `row ${Number(v[0]) + 1}, column ${Number(v[1]) + 1}` : plain(v);
      case "list": case "last": case "per_seat": {
        const [inner, ...rest] = arg.split(":");
        const say = (item: unknown) => (missing(item) ? "—" : this.value(inner, rest.join(":"), item, ctx));
        const items: readonly unknown[] = Array.isArray(v) ? v : [v];
        if (kind === "last") return items.length ? say(items[items.length - 1]) : "none";
        if (kind === "list") return joinWords(items.map(say));
        return items.map((item, seat) => `${this.seatName(seat)}: ${say(item)}`).join(" · ");
      }
      case "pairs": {
        const names = terms[arg] || {};
        return Object.entries(isObject(v) ? v : {}).map(([k, x]) =>
          `${names[k] ?? plain(k)} ${missing(x) ? "—" : plain(x)}`).join(", ");
      }
      case "sum": return this.sum(v, arg);
      case "stack": return this.stack(v, arg);
      case "move": {
        const seat = isObject(ctx.obj) && typeof ctx.obj.seat === "number" && Number.isInteger(ctx.obj.seat) ? ctx.obj.seat : ctx.mover ?? null;
        return this.move(v, seat, { bare: true });
      }
      default: {
        const names = terms[kind];
        if (names) return names[caseKey(v)] ?? plain(v);
        return plain(v);
      }
    }
  }

  cardValue(code: unknown): number {
    if (typeof code !== "string") return 0;
    return (this.words.card_values || {})[code[0]] ?? 0;
  }

  /** The total of a list's cards (of one role if `role`), and how many lie face down. */
  sum(list: unknown, role: string): string {
    const items: unknown[] = (Array.isArray(list) ? list : []).flat();
    let total = 0;
    let hidden = 0;
    for (const item of items) {
      const entry: JsonObject = isObject(item) ? item : { card: item };
      if (role && entry.role !== role) continue;
      if (entry.card === null || entry.card === undefined) hidden += 1;
      else total += this.cardValue(entry.card);
    }
    return `${total}${hidden ? ` (+${hidden} face down)` : ""}`;
  }

  /** A column bottom first: its topmost `role` entry, and the totals of the roles on it. */
  stack(entries: unknown, role: string): string {
    const list: JsonObject[] = (Array.isArray(entries) ? entries : []).map((e: unknown) => (isObject(e) ? e : {}));
    if (!list.length) return "empty";
    let top = -1;
    list.forEach((e, i) => { if (e.role === role) top = i; });
    if (top < 0) return `no ${role}`;
    const head = list[top];
    const totals = new Map<unknown, number>();
    for (const e of list.slice(top + 1)) totals.set(e.role, (totals.get(e.role) || 0) + this.cardValue(e.card));
    const on = [...totals].map(([r, n]) => `${String(r)} ${n}`).join(", ");
    return `${short(String(head.card))} ${this.cardValue(head.card)}${on ? `: ${on}` : ", nothing on it"}`;
  }

  // ---- templates ---------------------------------------------------------------------------

  /** The value at a path: dotted keys, `^` the view, `@` the item, `#N` a key, `*` spread. */
  lookup(path: string, ctx: Said): unknown {
    let segments = path.split(".");
    let value: unknown;
    if (path === "mover") return ctx.mover;
    if (segments[0] === "@") return ctx.item;
    if (/^#\d?$/.test(segments[0])) {
      value = ctx.keys?.[Number(segments[0].slice(1) || 0)];
      segments = segments.slice(1);
    } else if (segments[0].startsWith("^")) {
      value = ctx.view;
      segments = [segments[0].slice(1), ...segments.slice(1)];
    } else value = ctx.obj;
    let values: unknown[] = [value];
    let spread = false;
    for (let seg of segments) {
      if (/^#\d?$/.test(seg)) seg = String(ctx.keys?.[Number(seg.slice(1) || 0)]);
      if (seg === "*") {
        spread = true;
        values = values.flatMap((v) => (v && typeof v === "object" ? Object.values(v) : []));
      } else {
        const key = seg;
        values = values.map((v) => (isObject(v) ? v[key] : Array.isArray(v) ? v[Number(key)] : MISSING));
      }
    }
    return spread ? values.filter((v) => v !== undefined) : values[0];
  }

  /** A template said of `ctx` ({obj, mover, view, item, keys}); "" when it says nothing. */
  say(template: WordsTemplate | null | undefined, ctx: Said): string {
    if (template === null || template === undefined) return "";
    if (typeof template === "object") {
      const picked = this.lookup(template.choose, ctx);
      const next = Object.hasOwn(template.cases, caseKey(picked)) ? template.cases[caseKey(picked)] : template.else;
      return this.say(next, ctx);
    }
    // The subject, which the verbs agree with: the first seat the sentence names.
    const first = /\{([^{}:]*):(seat|rival)(?::[^{}]*)?\}/.exec(template);
    const named = first ? this.lookup(first[1], ctx) : null;
    const subject = first && first[2] === "rival" ? this.rival(named) : named;
    const fill = (text: string, optional: boolean) => {
      let absent = false;
      const out = text.replace(/\{([^{}]*)\}/g, (_, inner: string) => {
        const [path, kind = "text", ...rest] = inner.split(":");
        const v = this.lookup(path, ctx);
        // An empty list is said ("none") where nothing is optional; a missing value never.
        if (v === null || v === undefined || (optional && missing(v))) {
          absent = true;
          return "—";
        }
        return this.value(kind, rest.join(":"), v, ctx);
      });
      return { out, absent };
    };
    let text = template.replace(/<([^<>]*)>/g, (_, inner: string) => {
      const { out, absent } = fill(inner, true);
      return absent ? "" : out;
    });
    text = fill(text, false).out;
    text = text.replace(/\[([^\]|]*)\|([^\]]*)\]/g, (_, you: string, other: string) =>
      (typeof subject === "number" && Number.isInteger(subject) && subject === this.viewer ? you : other));
    return capitalized(text.replace(/\s+/g, " ").trim());
  }

  /** A move in the game's words, said of `seat`; `bare`: without a capital (inside another). */
  move(move: unknown, seat: number | null | undefined, { bare = false }: { bare?: boolean } = {}): string {
    if (!isObject(move)) return "";
    const type = String(move.type);
    const template = Object.hasOwn(this.words.moves, type) ? this.words.moves[type] : undefined;
    const text = template !== undefined
      ? this.say(template, { obj: move, mover: seat })
      : `${capitalized(this.seatName(seat))} ${seat === this.viewer ? "play" : "plays"} ${plain(type)}${
        Object.keys(move).length > 1 ? `: ${plain(Object.fromEntries(Object.entries(move).filter(([k]) => k !== "type")))}` : ""}`;
    return bare && text && !/^(Opponent|Bot|Player)/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
  }

  /** An effect in the game's words ("" when its move already said it all). */
  effect(effect: unknown, mover: number | null | undefined): string {
    if (!isObject(effect)) return "";
    const effectType = String(effect.type);
    const template = Object.hasOwn(this.words.effects, effectType) ? this.words.effects[effectType] : undefined;
    if (template !== undefined) return this.say(template, { obj: effect, mover });
    const { type, ...fields } = effect;
    return capitalized(`${plain(type)}${Object.keys(fields).length ? `: ${plain(fields)}` : ""}`);
  }

  /** The view's panels: [{label, lines}], each line a sentence, empty ones left out. */
  panels(view: unknown): { label: string; lines: string[] }[] {
    const out: { label: string; lines: string[] }[] = [];
    for (const panel of this.words.panels || []) {
      const items = panel.each ? this.spread(view, panel.each) : [{ item: view, keys: [] }];
      const lines = items.flatMap(({ item, keys }) => panel.lines.map((line) =>
        this.say(line, { obj: item, item, keys, view, mover: this.viewer })))
        .filter((line) => line);
      if (lines.length) out.push({ label: panel.label, lines });
    }
    return out;
  }

  /** The items at a path with `*`s, each with the keys that lead to it. */
  spread(view: unknown, path: string): { item: unknown; keys: (string | number)[] }[] {
    let found: { item: unknown; keys: (string | number)[] }[] = [{ item: view, keys: [] }];
    for (const seg of path.split(".")) {
      found = found.flatMap(({ item, keys }) => {
        if (!item || typeof item !== "object") return [];
        if (seg !== "*") return [{ item: Array.isArray(item) ? item[Number(seg)] : isObject(item) ? item[seg] : undefined, keys }];
        return Object.entries(item).map(([k, v]) => ({ item: v, keys: [...keys, Array.isArray(item) ? Number(k) : k] }));
      });
    }
    return found.filter(({ item }) => item !== null && item !== undefined);
  }

  /**
   * How the game ended, from this reader's side: {verdict: "won"|"lost"|"draw"|"over",
   * headline: "You won", reason, score}. `outcome` is the game's; the view's (the seat's
   * side of it) is preferred where it has a result.
   */
  ending(outcome: unknown, viewOutcome: unknown): Ending {
    const o = { ...(isObject(outcome) ? outcome : {}), ...(isObject(viewOutcome) ? viewOutcome : {}) };
    const ending = this.words.ending || EMPTY_WORDS.ending;
    let verdict: Ending["verdict"] = "over";
    let headline: string | undefined;
    const winner = ending.winner ? this.lookup(ending.winner, { obj: o }) : undefined;
    const result = ending.result ? this.lookup(ending.result, { obj: o }) : undefined;
    const said = typeof result === "string" && Object.hasOwn(ending.results || {}, result) ? ending.results[result] : undefined;
    if (ending.winner && typeof winner === "number" && Number.isInteger(winner)) {
      if (this.viewer === null) headline = `${capitalized(this.seatName(winner))} won`;
      else verdict = winner === this.viewer ? "won" : "lost";
    } else if (said === "draw" || (ending.winner && winner === null && said !== "won" && said !== "lost")) {
      verdict = "draw";
    } else if (said === "won" || said === "lost") {
      if (this.viewer === null) headline = `The player ${said}`;
      else verdict = said;
    }
    if (!headline) headline = ({ won: "You won", lost: "You lost", draw: "Draw", over: "The game is over" } as const)[verdict];
    const ctx = { obj: o, mover: this.viewer };
    return {
      verdict, headline,
      reason: this.say(ending.reason, ctx),
      score: this.say(ending.score, ctx),
    };
  }
}

/** The card codes a list of moves and effects names: what a board may light up. */
export function cardsNamed(values: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") { if (isCard(v)) found.add(v); }
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(values);
  return [...found];
}
