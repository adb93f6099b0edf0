// A game's own words, rendered knowing no game: the `words` each ruleset declares in
// GET /v1/rulesets (domain/presentation.py, docs/web-client.md "A game's words"). Templates are
// sentences with {path:format:arg} values, <optional parts> and [you form|other form] verbs, or
// choices of such sentences by a value; seats are said from the reader's side ("you",
// "Opponent", "Bot (best)"), never as numbers.

import { cardName, isCard } from "./cards.js";
import { joinWords, short, words } from "./ui.js";

const DIE_FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const MISSING = undefined;

/** The JSON text a choice's cases name a value by. */
function caseKey(value) {
  if (value === null || value === undefined) return "null";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function missing(value) {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Plain words for any value, for a game that declares none: never a raw dump. */
export const plain = words;

/** A sentence with its first letter up. */
export function capitalized(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * The words of one game seen by one reader. `words`: the ruleset's declaration; `seats`: the
 * game's seats ({seat, player, policy}); `viewer`: the reader's seat, or null (a spectator).
 */
export class Speaker {
  constructor(words, { seats = [], viewer = null, maxSeats = 1 } = {}) {
    this.words = words || {};
    this.seats = seats;
    this.viewer = viewer;
    this.maxSeats = maxSeats;
  }

  /** A seat as its reader knows it: "you", "Opponent", "Bot (best)", "Player 2". */
  seatName(seat) {
    if (!Number.isInteger(seat)) return "someone";
    if (seat === this.viewer) return "you";
    const info = this.seats.find((s) => s.seat === seat);
    if (info?.player === "bot") return `Bot (${info.policy || "bot"})`;
    if (this.maxSeats === 1) return "the player";
    if (this.viewer !== null && this.maxSeats === 2) return "Opponent";
    return `Player ${seat + 1}`;
  }

  seatOf(seat) {
    return seat === this.viewer ? "your" : `${this.seatName(seat)}'s`;
  }

  rival(seat) {
    return Number.isInteger(seat) ? 1 - seat : seat;
  }

  // ---- values ------------------------------------------------------------------------------

  value(kind, arg, v, ctx) {
    const terms = this.words.terms || {};
    switch (kind) {
      case "text": return plain(v);
      case "number": return String(v);
      case "count": {
        const [one, many] = arg.includes("/") ? arg.split("/") : [arg, `${arg}s`];
        return arg ? `${v} ${v === 1 ? one : many}` : String(v);
      }
      case "card": return isCard(v) ? short(v) : plain(v);
      case "card_name": return isCard(v) ? cardName(v) : plain(v);
      case "cards": return Array.isArray(v) && v.length ? joinWords(v.map((c) => (isCard(c) ? short(c) : plain(c)))) : "none";
      case "seat": return this.seatName(v);
      case "seat_of": return this.seatOf(v);
      case "rival": return this.seatName(this.rival(v));
      case "rival_of": return this.seatOf(this.rival(v));
      case "dice": return (Array.isArray(v) ? v : [v]).map((d) => DIE_FACES[d - 1] ? `${DIE_FACES[d - 1]}${d}` : String(d)).join(" ");
      case "cell": return Array.isArray(v) ? `row ${v[0] + 1}, column ${v[1] + 1}` : plain(v);
      case "list": case "last": case "per_seat": {
        const [inner, ...rest] = arg.split(":");
        const say = (item) => (missing(item) ? "—" : this.value(inner, rest.join(":"), item, ctx));
        const items = Array.isArray(v) ? v : [v];
        if (kind === "last") return items.length ? say(items[items.length - 1]) : "none";
        if (kind === "list") return joinWords(items.map(say));
        return items.map((item, seat) => `${this.seatName(seat)}: ${say(item)}`).join(" · ");
      }
      case "pairs": {
        const names = terms[arg] || {};
        return Object.entries(v || {}).map(([k, x]) =>
          `${names[k] ?? plain(k)} ${missing(x) ? "—" : plain(x)}`).join(", ");
      }
      case "sum": return this.sum(v, arg);
      case "stack": return this.stack(v, arg);
      case "move": return this.move(v, Number.isInteger(ctx.obj?.seat) ? ctx.obj.seat : ctx.mover, { bare: true });
      default: {
        const names = terms[kind];
        if (names) return names[caseKey(v)] ?? plain(v);
        return plain(v);
      }
    }
  }

  cardValue(code) {
    if (typeof code !== "string") return 0;
    return (this.words.card_values || {})[code[0]] ?? 0;
  }

  /** The total of a list's cards (of one role if `role`), and how many lie face down. */
  sum(list, role) {
    const items = (Array.isArray(list) ? list : []).flat();
    let total = 0;
    let hidden = 0;
    for (const item of items) {
      const entry = item && typeof item === "object" ? item : { card: item };
      if (role && entry.role !== role) continue;
      if (entry.card === null || entry.card === undefined) hidden += 1;
      else total += this.cardValue(entry.card);
    }
    return `${total}${hidden ? ` (+${hidden} face down)` : ""}`;
  }

  /** A column bottom first: its topmost `role` entry, and the totals of the roles on it. */
  stack(entries, role) {
    const list = Array.isArray(entries) ? entries : [];
    if (!list.length) return "empty";
    let top = -1;
    list.forEach((e, i) => { if (e?.role === role) top = i; });
    if (top < 0) return `no ${role}`;
    const head = list[top];
    const totals = new Map();
    for (const e of list.slice(top + 1)) totals.set(e.role, (totals.get(e.role) || 0) + this.cardValue(e.card));
    const on = [...totals].map(([r, n]) => `${r} ${n}`).join(", ");
    return `${short(head.card)} ${this.cardValue(head.card)}${on ? `: ${on}` : ", nothing on it"}`;
  }

  // ---- templates ---------------------------------------------------------------------------

  /** The value at a path: dotted keys, `^` the view, `@` the item, `#N` a key, `*` spread. */
  lookup(path, ctx) {
    let segments = path.split(".");
    let value;
    if (path === "mover") return ctx.mover;
    if (segments[0] === "@") return ctx.item;
    if (/^#\d?$/.test(segments[0])) {
      value = ctx.keys?.[Number(segments[0].slice(1) || 0)];
      segments = segments.slice(1);
    } else if (segments[0].startsWith("^")) {
      value = ctx.view;
      segments = [segments[0].slice(1), ...segments.slice(1)];
    } else value = ctx.obj;
    let values = [value];
    let spread = false;
    for (let seg of segments) {
      if (/^#\d?$/.test(seg)) seg = String(ctx.keys?.[Number(seg.slice(1) || 0)]);
      if (seg === "*") {
        spread = true;
        values = values.flatMap((v) => (v && typeof v === "object" ? Object.values(v) : []));
      } else {
        values = values.map((v) => (v && typeof v === "object" ? v[seg] : MISSING));
      }
    }
    return spread ? values.filter((v) => v !== undefined) : values[0];
  }

  /** A template said of `ctx` ({obj, mover, view, item, keys}); "" when it says nothing. */
  say(template, ctx) {
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
    const fill = (text, optional) => {
      let absent = false;
      const out = text.replace(/\{([^{}]*)\}/g, (_, inner) => {
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
    let text = template.replace(/<([^<>]*)>/g, (_, inner) => {
      const { out, absent } = fill(inner, true);
      return absent ? "" : out;
    });
    text = fill(text, false).out;
    text = text.replace(/\[([^\]|]*)\|([^\]]*)\]/g, (_, you, other) =>
      (Number.isInteger(subject) && subject === this.viewer ? you : other));
    return capitalized(text.replace(/\s+/g, " ").trim());
  }

  /** A move in the game's words, said of `seat`; `bare`: without a capital (inside another). */
  move(move, seat, { bare = false } = {}) {
    if (!move || typeof move !== "object") return "";
    const template = (this.words.moves || {})[move.type];
    const text = template !== undefined
      ? this.say(template, { obj: move, mover: seat })
      : `${capitalized(this.seatName(seat))} ${seat === this.viewer ? "play" : "plays"} ${plain(move.type)}${
        Object.keys(move).length > 1 ? `: ${plain(Object.fromEntries(Object.entries(move).filter(([k]) => k !== "type")))}` : ""}`;
    return bare && text && !/^(Opponent|Bot|Player)/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
  }

  /** An effect in the game's words ("" when its move already said it all). */
  effect(effect, mover) {
    if (!effect || typeof effect !== "object") return "";
    const template = (this.words.effects || {})[effect.type];
    if (template !== undefined) return this.say(template, { obj: effect, mover });
    const { type, ...fields } = effect;
    return capitalized(`${plain(type)}${Object.keys(fields).length ? `: ${plain(fields)}` : ""}`);
  }

  /** The view's panels: [{label, lines}], each line a sentence, empty ones left out. */
  panels(view) {
    const out = [];
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
  spread(view, path) {
    let found = [{ item: view, keys: [] }];
    for (const seg of path.split(".")) {
      found = found.flatMap(({ item, keys }) => {
        if (!item || typeof item !== "object") return [];
        if (seg !== "*") return [{ item: item[seg], keys }];
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
  ending(outcome, viewOutcome) {
    const o = { ...(outcome || {}), ...(viewOutcome || {}) };
    const ending = this.words.ending || { result: "result", results: { won: "won", lost: "lost" } };
    let verdict = "over";
    let headline;
    const winner = ending.winner ? this.lookup(ending.winner, { obj: o }) : undefined;
    const result = ending.result ? this.lookup(ending.result, { obj: o }) : undefined;
    const said = (ending.results || {})[result];
    if (ending.winner && Number.isInteger(winner)) {
      if (this.viewer === null) headline = `${capitalized(this.seatName(winner))} won`;
      else verdict = winner === this.viewer ? "won" : "lost";
    } else if (said === "draw" || (ending.winner && winner === null && said !== "won" && said !== "lost")) {
      verdict = "draw";
    } else if (said === "won" || said === "lost") {
      if (this.viewer === null) headline = `The player ${said}`;
      else verdict = said;
    }
    if (!headline) headline = { won: "You won", lost: "You lost", draw: "Draw", over: "The game is over" }[verdict];
    const ctx = { obj: o, mover: this.viewer };
    return {
      verdict, headline,
      reason: this.say(ending.reason, ctx),
      score: this.say(ending.score, ctx),
    };
  }
}

/** The card codes a list of moves and effects names: what a board may light up. */
export function cardsNamed(values) {
  const found = new Set();
  const walk = (v) => {
    if (typeof v === "string") { if (isCard(v)) found.add(v); }
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(values);
  return [...found];
}
