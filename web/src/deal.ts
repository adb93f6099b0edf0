// The deal algorithm (docs/deal-algorithm.md), written again in the browser from the public
// text alone: SHA-256 from Web Crypto, 64-bit draws as BigInt, rejection sampling, Fisher-Yates.
// It is a second, independent implementation: the verify panel trusts it, not the server.

import type { DealStep, Game, View } from "./api";
import { DECKTET_BY_CODE, RANKS, STANDARD } from "./cards";

const encoder = new TextEncoder();
const TWO_64 = 1n << 64n;

function subtle(): SubtleCrypto {
  if (!globalThis.crypto?.subtle) {
    throw new Error("Web Crypto needs a secure context: open the page over https or on localhost");
  }
  return globalThis.crypto.subtle;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes: the seed commitment. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await subtle().digest("SHA-256", encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** stream(seed, label): four unsigned 64-bit draws per SHA-256 block, blocks counted from 0. */
export class DealStream {
  prefix: number[];
  counter: bigint;
  pending: bigint[];

  constructor(seed: string, label: string) {
    this.prefix = [...encoder.encode(seed), 0, ...encoder.encode(label), 0];
    this.counter = 0n;
    this.pending = [];
  }

  async draw(): Promise<bigint> {
    if (this.pending.length === 0) {
      const block = new Uint8Array(this.prefix.length + 8);
      block.set(this.prefix);
      new DataView(block.buffer).setBigUint64(this.prefix.length, this.counter, false);
      this.counter += 1n;
      const digest = new DataView(await subtle().digest("SHA-256", block));
      for (let i = 0; i < 4; i += 1) this.pending.push(digest.getBigUint64(8 * i, false));
    }
    const next = this.pending.shift();
    if (next === undefined) throw new Error("a SHA-256 block gives four draws");
    return next;
  }

  /** A uniform integer in [0, n), without modulo bias. */
  async uniform(n: number): Promise<number> {
    const size = BigInt(n);
    const limit = (TWO_64 / size) * size;
    for (;;) {
      const x = await this.draw();
      if (x < limit) return Number(x % size);
    }
  }

  /** Fisher-Yates from the end; index 0 of the result is the top card. */
  async shuffle<T>(items: readonly T[]): Promise<T[]> {
    const out = [...items];
    for (let i = out.length - 1; i >= 1; i -= 1) {
      const j = await this.uniform(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

export function shuffled<T>(seed: string, label: string, items: readonly T[]): Promise<T[]> {
  return new DealStream(seed, label).shuffle(items);
}

const SUIT_ORDER = ["C", "D", "H", "S"];
const JOKER = /^X([12])$/;

/**
 * A card's place in the canonical order (docs/deal-algorithm.md), or null for a code this page
 * does not know: standard cards deck by deck (no digit is deck 1), Clubs Ace to King, then
 * Diamonds, Hearts, Spades; the Jokers after them; the Decktet in its own table's order.
 */
function canonicalIndex(code: string): number | null {
  const standard = STANDARD.exec(code);
  if (standard) {
    const [, rank, suit, deck] = standard;
    return (Number(deck || 1) - 1) * 52 + SUIT_ORDER.indexOf(suit) * 13 + RANKS.indexOf(rank);
  }
  const joker = JOKER.exec(code);
  if (joker) return 104 + Number(joker[1]);
  const decktet = DECKTET_BY_CODE.get(code);
  return decktet ? 1000 + decktet.index : null;
}

/**
 * Why a published deal plan ([{label, cards}], from the finished game's replay) cannot be
 * trusted, or null. The plan comes from the server, so this page holds it to what the public
 * algorithm says a plan is: every card known, each step's cards in canonical order (a server
 * free to order them could make any seed deal any deck), no card twice.
 */
export function planProblem(plan: readonly DealStep[] | undefined): string | null {
  if (!Array.isArray(plan)) return "the server sent no deal plan";
  const seen = new Set<string>();
  for (const { label, cards } of plan) {
    let previous = -1;
    for (const code of cards) {
      const index = canonicalIndex(code);
      if (index === null) return `step ${label}: ${code} is not a card this page knows`;
      if (index <= previous) return `step ${label}: ${code} is out of canonical order`;
      if (seen.has(code)) return `${code} is dealt twice`;
      seen.add(code);
      previous = index;
    }
  }
  return null;
}

/** The whole deal, top first, as `court deal` prints it (the plan's shuffles, in order). */
export async function deriveDeck(plan: readonly DealStep[], seed: string): Promise<string[]> {
  const deck: string[] = [];
  for (const { label, cards } of plan) deck.push(...(await shuffled(seed, label, cards)));
  return deck;
}

function cardsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") found.add(value);
  else if (Array.isArray(value)) value.forEach((v) => cardsIn(v, found));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => cardsIn(v, found));
  return found;
}

/**
 * Checks a finished game's deal: the seed against the commitment published at the start, the
 * published plan against the public algorithm, the deck this page derives against the deck the
 * server played, and every card shown face up at the deal against that deck.
 * Returns {ok, checks: [{name, ok, detail}], deck}.
 */
/** One line of the verify panel. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function verifyDeal(game: Game, plan: readonly DealStep[] | undefined, played: readonly string[],
                                 firstView: View): Promise<{ ok: boolean; checks: Check[]; deck: string[] | null }> {
  const checks: Check[] = [];
  const seed = game.seed ?? "";
  const commitment = await sha256Hex(seed);
  checks.push({
    name: "The seed matches the commitment published before play",
    ok: commitment === game.seed_commitment,
    detail: `SHA-256("${seed}") = ${commitment}`,
  });
  const problem = planProblem(plan);
  const deck = problem === null && plan ? await deriveDeck(plan, seed) : null;
  if (deck === null) {
    checks.push({ name: "The deal plan follows the public algorithm", ok: false, detail: problem ?? "the server sent no deal plan" });
  } else if (deck.length === 0) {
    checks.push({ name: "Nothing is dealt in this game", ok: played.length === 0,
                  detail: "the players choose every card" });
  } else {
    const same = deck.length === played.length && deck.every((c, i) => c === played[i]);
    checks.push({
      name: `The ${deck.length} cards derived here are the deck that was played`,
      ok: same,
      detail: same ? `top cards: ${deck.slice(0, 8).join(" ")} …`
        : `derived ${deck.slice(0, 8).join(" ")} … played ${played.slice(0, 8).join(" ")} …`,
    });
    const inDeck = new Set(deck);
    // A deal of Decktet cards shows Decktet cards; a standard deal, standard cards (Jokers
    // are never shuffled in the games that keep them in hand; everything else shown is).
    const decktet = deck.some((c) => DECKTET_BY_CODE.has(c));
    const dealtCard = decktet ? (c: string) => DECKTET_BY_CODE.has(c) : (c: string) => STANDARD.test(c);
    const shown = [...cardsIn(firstView)].filter(dealtCard);
    const strays = shown.filter((c) => !inDeck.has(c));
    checks.push({
      name: "Every card face up at the deal comes from that deck",
      ok: strays.length === 0,
      detail: strays.length ? `not in the deck: ${strays.join(" ")}` : `${shown.length} cards checked`,
    });
  }
  return { ok: checks.every((c) => c.ok), checks, deck };
}
