// The game record's hash chain (docs/record-format.md), checked again in the browser from the
// public text alone: each move's hash is SHA-256(previous hash + canonical JSON of
// {seq, seat, move} (format 1) or {seq, seat, move, salt} (format 2)), the first one chained
// from the seed commitment. Canonical JSON is Python's
// json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False), byte for byte.

import type { Game, GameRecord } from "./api";
import { sha256Hex } from "./deal";
import type { Check } from "./deal";

export const RECORD_FORMAT_V1 = "royal-court-record/1";
export const RECORD_FORMAT_V2 = "royal-court-record/2";
const SALT = /^[0-9a-f]{64}$/;

/** A value canonical JSON cannot write as Python would: the chain cannot be checked. */
export class CanonicalJsonError extends Error {}

// Python's json escapes these (and nothing else) when ensure_ascii is off: the two quotes'
// worth of short escapes, every other control character below U+0020 as \u00xx in lowercase
// hex. DEL, U+2028, U+2029 and every other character are written as themselves.
const SHORT_ESCAPES = new Map([
  ['"', '\\"'], ["\\", "\\\\"], ["\b", "\\b"], ["\f", "\\f"], ["\n", "\\n"], ["\r", "\\r"], ["\t", "\\t"],
]);

function quote(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const short = SHORT_ESCAPES.get(text[i]);
    if (short !== undefined) {
      out += short;
    } else if (unit < 0x20) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length
               && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      out += text.slice(i, i + 2); // a character beyond U+FFFF, as itself
      i += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      // Python cannot encode it as UTF-8 either (its hash would fail): say so, never guess.
      throw new CanonicalJsonError(`a lone surrogate U+${unit.toString(16).toUpperCase()} has no UTF-8 form`);
    } else {
      out += text[i];
    }
  }
  return `${out}"`;
}

/** Python sorts keys by code point; JavaScript's sort() by UTF-16 unit, which differs for
 * characters beyond U+FFFF against U+E000-U+FFFF. */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/**
 * Canonical JSON, as the server hashes it: keys sorted by code point at every level, "," and
 * ":" with no spaces, characters kept as they are (only the escapes Python writes). Integers
 * only: a fraction, or an integer past 2^53 that JSON.parse has already rounded, cannot be
 * written as Python wrote it, and throws CanonicalJsonError rather than hash something else.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new CanonicalJsonError(`${value} is not an integer this page can write exactly`);
    }
    return String(value); // -0 as "0", as Python reads "-0"
  }
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = new Map(Object.entries(value));
    const keys = [...entries.keys()].sort(byCodePoint);
    return `{${keys.map((k) => `${quote(k)}:${canonicalJson(entries.get(k))}`).join(",")}}`;
  }
  throw new CanonicalJsonError(`a ${typeof value} is not JSON`);
}

/** The chained hash of one logged move: its salt goes in when given (format 2). */
/** The fields of a logged move that its hash covers. */
export interface Chained {
  seq: number;
  seat: number;
  move: unknown;
  salt?: string;
}

export function moveHash(previous: string, { seq, seat, move, salt }: Chained): Promise<string> {
  const fields = salt === undefined ? { seq, seat, move } : { seq, seat, move, salt };
  return sha256Hex(previous + canonicalJson(fields));
}

/**
 * Walks a record's moves from `commitment`: {moves, broken, unsalted, last}. `broken` lists
 * the seqs whose hash does not chain (a seq out of place, a bad salt, a hash that differs);
 * each link is checked against the stored hash before it, so one edit breaks one link.
 * `unsalted` lists the moves of a format 2 record shown without their salt (a move seen in
 * part): their links cannot be checked by this viewer, which is the point of the salt.
 */
export interface Chain {
  moves: number;
  broken: number[];
  unsalted: number[];
  last: string;
}

/** A record as it arrives: the spec's, though the chain is checked as if anything could be
 * in it (an edited download). */
type RecordLike = Partial<Omit<GameRecord, "moves">> & { moves?: readonly unknown[] };

const isRecordObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export async function chainCheck(commitment: string, record: RecordLike | null | undefined): Promise<Chain> {
  if (record?.format !== RECORD_FORMAT_V1 && record?.format !== RECORD_FORMAT_V2) {
    throw new CanonicalJsonError(`an unknown record format: ${JSON.stringify(record?.format)}`);
  }
  const salted = record.format !== RECORD_FORMAT_V1;
  const moves = Array.isArray(record.moves) ? record.moves : [];
  const broken: number[] = [];
  const unsalted: number[] = [];
  let previous = commitment;
  for (const [index, entry] of moves.entries()) {
    const seq = index + 1;
    const fields = isRecordObject(entry) ? entry : {};
    const stored = fields.hash;
    if (fields.seq !== seq || typeof stored !== "string") {
      broken.push(seq);
    } else if (salted && fields.salt === undefined) {
      unsalted.push(seq);
    } else if (salted && !(typeof fields.salt === "string" && SALT.test(fields.salt))) {
      broken.push(seq);
    } else {
      const salt = salted && typeof fields.salt === "string" ? fields.salt : undefined;
      // A seat that is not a number is hashed as it came (and so breaks the link).
      const seat = typeof fields.seat === "number" ? fields.seat : Number.NaN;
      const hashed = typeof fields.seat === "number"
        ? await moveHash(previous, { seq, seat, move: fields.move, salt })
        : await sha256Hex(previous + canonicalJson(salt === undefined ? { seq, seat: fields.seat, move: fields.move }
          : { seq, seat: fields.seat, move: fields.move, salt }));
      if (hashed !== stored) {
        broken.push(seq);
      }
    }
    previous = typeof stored === "string" ? stored : String(stored);
  }
  return { moves: moves.length, broken, unsalted, last: previous };
}

/**
 * The verify panel's chain line for a finished game's record: {name, ok, detail}. The chain
 * starts from the commitment the page already checked against the seed (the game's), and the
 * record must be that game's, with every one of its moves.
 */
export async function verifyChain(game: Game, record: RecordLike | null | undefined): Promise<Check> {
  const count = Array.isArray(record?.moves) ? record.moves.length : 0;
  const name = count === 1 ? "The 1 move forms an unbroken hash chain from the commitment"
    : `The ${count} moves form an unbroken hash chain from the commitment`;
  const fail = (detail: string): Check => ({ name, ok: false, detail });
  if (record?.id !== game.id) return fail(`the record is of game ${record?.id}, not ${game.id}`);
  if (!record || record.seed_commitment !== game.seed_commitment) {
    return fail(`the record's commitment ${record?.seed_commitment} is not the one published`);
  }
  if (count !== game.version) return fail(`the record has ${count} moves, the game ${game.version}`);
  let chain: Chain;
  try {
    chain = await chainCheck(game.seed_commitment, record);
  } catch (e) {
    return fail(`the chain could not be checked: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (chain.broken.length) {
    const more = chain.broken.length > 1 ? ` (${chain.broken.length} links broken)` : "";
    return fail(`the chain breaks at seq ${chain.broken[0]}${more}`);
  }
  if (chain.unsalted.length) {
    return fail(`move ${chain.unsalted[0]} comes without its salt: its link cannot be checked`);
  }
  const body = record.format === RECORD_FORMAT_V1 ? "{seq, seat, move}" : "{seq, seat, move, salt}";
  return {
    name,
    ok: true,
    detail: `${record.format}: each hash is SHA-256(the hash before it + canonical JSON of ${body})`
      + (count ? `; the last is ${chain.last}` : ""),
  };
}
