// The deal algorithm (docs/deal-algorithm.md), written again in the browser from the public
// text alone: SHA-256 from Web Crypto, 64-bit draws as BigInt, rejection sampling, Fisher-Yates.
// It is a second, independent implementation: the verify panel trusts it, not the server.

import { DECKTET, DECKTET_BY_CODE, RANKS, STANDARD } from "./cards.js";

const encoder = new TextEncoder();
const TWO_64 = 1n << 64n;

function subtle() {
  if (!globalThis.crypto?.subtle) {
    throw new Error("Web Crypto needs a secure context: open the page over https or on localhost");
  }
  return globalThis.crypto.subtle;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes: the seed commitment. */
export async function sha256Hex(text) {
  const digest = new Uint8Array(await subtle().digest("SHA-256", encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** stream(seed, label): four unsigned 64-bit draws per SHA-256 block, blocks counted from 0. */
export class DealStream {
  constructor(seed, label) {
    this.prefix = [...encoder.encode(seed), 0, ...encoder.encode(label), 0];
    this.counter = 0n;
    this.pending = [];
  }

  async draw() {
    if (this.pending.length === 0) {
      const block = new Uint8Array(this.prefix.length + 8);
      block.set(this.prefix);
      new DataView(block.buffer).setBigUint64(this.prefix.length, this.counter, false);
      this.counter += 1n;
      const digest = new DataView(await subtle().digest("SHA-256", block));
      for (let i = 0; i < 4; i += 1) this.pending.push(digest.getBigUint64(8 * i, false));
    }
    return this.pending.shift();
  }

  /** A uniform integer in [0, n), without modulo bias. */
  async uniform(n) {
    const size = BigInt(n);
    const limit = (TWO_64 / size) * size;
    for (;;) {
      const x = await this.draw();
      if (x < limit) return Number(x % size);
    }
  }

  /** Fisher-Yates from the end; index 0 of the result is the top card. */
  async shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i >= 1; i -= 1) {
      const j = await this.uniform(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

export function shuffled(seed, label, items) {
  return new DealStream(seed, label).shuffle(items);
}

const SUIT_ORDER = ["C", "D", "H", "S"];
/** The 52 standard codes in canonical order: Clubs Ace to King, then Diamonds, Hearts, Spades. */
export const STANDARD_DECK = SUIT_ORDER.flatMap((s) => RANKS.map((r) => r + s));

/** What each game shuffles, per docs/deal-algorithm.md: [{label, cards}] in deal order. */
export function dealPlan(ruleset, options) {
  switch (ruleset) {
    case "royal-assassin":
      return [{ label: "deal",
                cards: options.jokers_in_deck ? [...STANDARD_DECK, "X1", "X2"] : STANDARD_DECK }];
    case "royal-assassin-duel": {
      const decks = Number(options.decks ?? 2);
      const cards = decks === 1 ? STANDARD_DECK
        : [1, 2].flatMap((d) => STANDARD_DECK.map((c) => c + d));
      return [{ label: "deal", cards }];
    }
    case "risus-royale":
      return [
        { label: "goal", cards: SUIT_ORDER.map((s) => `2${s}`) },
        { label: "opponents", cards: SUIT_ORDER.flatMap((s) => ["A", "J", "Q", "K"].map((r) => r + s)) },
        { label: "deal", cards: SUIT_ORDER.flatMap((s) => "3456789T".split("").map((r) => r + s)) },
      ];
    case "adaman": {
      const extra = ["watchman", "light-keeper", "consul"].slice(0, Number(options.extra_personalities ?? 0));
      const inUse = (card) => card.deck === "basic"
        || (options.pawns_and_courts ? card.deck === "pawn" || card.deck === "court"
          : extra.includes(card.code))
        || (card.deck === "excuse" && Boolean(options.excuse));
      return [{ label: "deal", cards: DECKTET.filter(inUse).map((c) => c.code) }];
    }
    case "royal-ace-assin":
      return []; // nothing is dealt: the players choose every card
    default:
      return null;
  }
}

/** The whole deal, top first, as `court deal` prints it (the plan's shuffles, in order). */
export async function deriveDeck(ruleset, options, seed) {
  const plan = dealPlan(ruleset, options);
  if (plan === null) return null;
  const deck = [];
  for (const { label, cards } of plan) deck.push(...(await shuffled(seed, label, cards)));
  return deck;
}

function cardsIn(value, found = new Set()) {
  if (typeof value === "string") found.add(value);
  else if (Array.isArray(value)) value.forEach((v) => cardsIn(v, found));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => cardsIn(v, found));
  return found;
}

/**
 * Checks a finished game's deal: the seed against the commitment published at the start, the
 * deck this page derives against the deck the server played, and every card shown face up at
 * the deal against that deck. Returns {ok, checks: [{name, ok, detail}], deck}.
 */
export async function verifyDeal(game, played, firstView) {
  const checks = [];
  const commitment = await sha256Hex(game.seed);
  checks.push({
    name: "The seed matches the commitment published before play",
    ok: commitment === game.seed_commitment,
    detail: `SHA-256("${game.seed}") = ${commitment}`,
  });
  const deck = await deriveDeck(game.ruleset, game.options, game.seed);
  if (deck === null) {
    checks.push({ name: "This page knows the game's deal", ok: false, detail: game.ruleset });
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
    // Jokers are never shuffled in the games that keep them in hand; everything else shown is.
    const dealtCard = game.ruleset === "adaman" ? (c) => DECKTET_BY_CODE.has(c)
      : (c) => STANDARD.test(c);
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
