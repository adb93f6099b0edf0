// The public API (openapi.yaml), and nothing else: this client has no private endpoint. Every
// request and answer is typed from openapi.gen.ts, which openapi-typescript generates from the
// spec (`make web`), and made by openapi-fetch, so tsc holds each path, parameter and body to it.

import createClient from "openapi-fetch";
import type { components, paths } from "./openapi.gen";

export type Schemas = components["schemas"];
export type Game = Schemas["Game"];
export type View = Schemas["View"];
export type Move = Schemas["Move"];
export type Effect = Schemas["Effect"];
export type Outcome = Schemas["Outcome"];
export type Words = Schemas["Words"];
export type WordsTemplate = Schemas["WordsTemplate"];
export type Gesture = Schemas["Gesture"];
export type RulesetDescription = Schemas["RulesetDescription"];
export type OptionDescription = Schemas["OptionDescription"];
export type SeatInfo = Schemas["SeatInfo"];
export type Invite = Schemas["Invite"];
export type GameWithView = Schemas["GameWithView"];
export type ReplayStep = Schemas["ReplayStep"];
export type GameRecord = Schemas["Record"];
export type LoggedMove = Schemas["LoggedMove"];
export type LoggedMoveBody = Schemas["LoggedMoveBody"];
export type DealStep = Schemas["DealStep"];
export type Challenge = Schemas["Challenge"];
export type Leaderboard = Schemas["Leaderboard"];
export type CreatedPlayer = Schemas["CreatedPlayer"];
export type PlayerProfile = Schemas["PlayerProfile"];
export type CreateGame = paths["/v1/games"]["post"]["requestBody"]["content"]["application/json"];
/** The rulesets that have a daily challenge: an enum of the spec's, named here by no game. */
export type DailyRuleset = paths["/v1/daily/{date}/{ruleset}/games"]["post"]["parameters"]["path"]["ruleset"];

/** What a problem+json answer says (docs/api.md, "Errors"); `retryAfter` is its header. */
export interface ProblemText {
  title?: string;
  detail?: string;
  status?: number;
  retryAfter?: string | null;
  /** The game a refusal names (409 already-played: the player's ranked attempt). */
  gameId?: string;
}

export class ApiError extends Error {
  status: number;
  problem: ProblemText;

  constructor(status: number, problem: ProblemText) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The readable parts of an answer that is not a success (a problem, or any text). */
function problemOf(error: unknown): ProblemText {
  if (!isRecord(error)) {
    const text = typeof error === "string" ? error : "";
    return text ? { title: "Unreadable answer", detail: text.slice(0, 200) } : {};
  }
  const text = (key: string) => (typeof error[key] === "string" ? String(error[key]) : undefined);
  return { title: text("title"), detail: text("detail"), gameId: text("game_id"),
           status: typeof error.status === "number" ? error.status : undefined };
}

export const client = createClient<paths>({ headers: { Accept: "application/json" } });

/** The headers of a request made for a seat (or a player): its token, and any others. */
export function auth(token?: string | null, headers: Record<string, string> = {}): Record<string, string> {
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}

export interface Answer<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** One request's answer: its body when it is a success, else ApiError with its problem. A
 * network failure rejects as fetch does (not an ApiError: the caller may retry). */
export async function answer<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Answer<T>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw new ApiError(response.status, problemOf(error));
  if (data === undefined) throw new ApiError(response.status, { title: "An empty answer" });
  return { status: response.status, data, headers: response.headers };
}

/** As `answer`, where `304 Not Modified` (a long-poll that saw no change) is not an error. */
export async function answerOrUnchanged<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Answer<T | null>> {
  const sent = await pending;
  if (sent.response.status === 304) return { status: 304, data: null, headers: sent.response.headers };
  return answer(Promise.resolve(sent));
}

/**
 * The one place where text from the server becomes a typed value without openapi-fetch: an
 * event of the game's stream (or of the push WebSocket) is a GameWithView by the spec
 * (`streamGame`), which the contract tests hold the server to. Malformed JSON throws.
 */
function parseEvent(text: string): GameWithView {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !isRecord(value.game) || !isRecord(value.view)) {
    throw new ApiError(502, { title: "An event that is not a game" });
  }
  return value as GameWithView; // checked above as far as the page relies on it
}

export interface GameEvent {
  id: string | undefined;
  data: GameWithView;
}

interface StreamOptions {
  token?: string | null;
  lastEventId?: number | string | null;
  signal?: AbortSignal;
}

/**
 * A game's event stream (`GET …/events`, text/event-stream), read with fetch and a stream
 * reader rather than EventSource, so that the token travels in the Authorization header and
 * never in a URL. Yields each event as {id, data}; returns when the server ends the stream
 * (a bounded stream: reconnect with the last id); throws ApiError on a problem answer.
 */
export async function* eventStream(gameId: string, { token, lastEventId, signal }: StreamOptions = {}): AsyncGenerator<GameEvent> {
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  if (lastEventId !== undefined && lastEventId !== null) headers["Last-Event-ID"] = String(lastEventId);
  const { response, error } = await client.GET("/v1/games/{game_id}/events", {
    params: { path: { game_id: gameId } }, headers: auth(token, headers), signal, cache: "no-store",
    parseAs: "stream",
  });
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !response.body || !type.startsWith("text/event-stream")) {
    throw new ApiError(response.ok ? 502 : response.status,
      { ...problemOf(error), retryAfter: response.headers.get("Retry-After") });
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replaceAll("\r\n", "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map<string, string>();
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue; // a comment: the heartbeat
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          const before = fields.get("data");
          fields.set(name, name === "data" && before !== undefined ? `${before}\n${text}` : text);
        }
        const data = fields.get("data");
        if (data !== undefined) yield { id: fields.get("id"), data: parseEvent(data) };
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The `rel="push"` target of a response's Link header: the WebSocket a deploy on AWS offers
 * for waiting (docs/api.md, "Streams"), or null. */
export function pushLink(headers: Headers | null | undefined): string | null {
  const link = headers?.get("Link") || "";
  const match = /<([^>]+)>\s*;\s*rel="?push"?/.exec(link);
  return match && /^wss?:\/\//.test(match[1]) ? match[1] : null;
}

const PUSH_PING_MS = 5 * 60 * 1000; // API Gateway closes a connection idle for 10 minutes

type Pushed = { message: MessageEvent } | { closed: true };

/**
 * The same events as `eventStream`, pushed through a WebSocket (API Gateway's on AWS): the
 * token goes in the first message, never in the URL. Yields {id, data}; returns when the
 * connection closes (reconnect with the last id); a problem document sent instead of an event
 * throws ApiError, and so does a connection that never opens.
 */
export async function* pushStream(url: string, { token, lastEventId, signal }: StreamOptions = {}): AsyncGenerator<GameEvent> {
  const socket = new WebSocket(url);
  const queue: Pushed[] = [];
  let wake: (() => void) | null = null;
  let opened = false;
  const push = (item: Pushed) => { queue.push(item); if (wake) { wake(); wake = null; } };
  socket.onopen = () => {
    opened = true;
    const hello: Record<string, unknown> = { action: "watch", last_event_id: lastEventId ?? null };
    if (token) hello.token = token;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (message) => push({ message });
  socket.onclose = () => push({ closed: true });
  const stop = () => socket.close();
  signal?.addEventListener("abort", stop);
  const ping = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action: "ping" }));
  }, PUSH_PING_MS);
  try {
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => { wake = resolve; });
      const item = queue.shift();
      if (!item) continue;
      if ("closed" in item) {
        if (!opened) throw new ApiError(502, { title: "The push connection did not open" });
        return;
      }
      const text = typeof item.message.data === "string" ? item.message.data : "";
      let data: unknown;
      try { data = JSON.parse(text); } catch { continue; }
      if (isRecord(data) && data.game && data.view) {
        const event = parseEvent(text);
        yield { id: String(event.game.version), data: event };
      } else if (isRecord(data) && typeof data.status === "number") {
        throw new ApiError(data.status, problemOf(data));
      }
    }
  } finally {
    clearInterval(ping);
    signal?.removeEventListener("abort", stop);
    socket.close();
  }
}

/** A fresh Idempotency-Key: a retried click can never play a move twice. */
export function newKey(): string {
  // Web Crypto's randomUUID is there only in a secure context (https, localhost).
  if (typeof globalThis.crypto?.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// Seat tokens live in localStorage, keyed by game: a reload resumes the game. They reach the
// page only in the URL fragment, which browsers never send to a server.
const SEAT_KEY = (gameId: string) => `royal-court:seat:${gameId}`;
const PLAYER_KEY = "royal-court:player";
const RECENT_KEY = "royal-court:recent";
const DAILY_KEY = (date: string, ruleset: string) => `royal-court:daily:${date}:${ruleset}`;

/** A seat this browser holds: its token, and what the page remembers of it. */
export interface SeatRecord {
  token: string;
  seat: number | null;
  ruleset?: string;
  invites?: Invite[];
}

export interface RecentGame {
  id: string;
  ruleset?: string;
  at: string;
}

/** What this browser keeps is its own writing; anything unreadable is treated as absent. */
function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function readSeat(gameId: string): SeatRecord | null {
  const value = read(SEAT_KEY(gameId));
  if (!isRecord(value) || typeof value.token !== "string") return null;
  return {
    token: value.token,
    seat: typeof value.seat === "number" ? value.seat : null,
    ruleset: typeof value.ruleset === "string" ? value.ruleset : undefined,
    invites: Array.isArray(value.invites) ? value.invites.filter(isInvite) : undefined,
  };
}

function isInvite(value: unknown): value is Invite {
  return isRecord(value) && typeof value.seat === "number" && typeof value.invite === "string"
    && typeof value.join === "string";
}

function readRecent(): RecentGame[] {
  const value = read(RECENT_KEY);
  if (!Array.isArray(value)) return [];
  return value.flatMap((g: unknown) => (isRecord(g) && typeof g.id === "string" && typeof g.at === "string"
    ? [{ id: g.id, at: g.at, ruleset: typeof g.ruleset === "string" ? g.ruleset : undefined }] : []));
}

function readPlayer(): CreatedPlayer | null {
  const value = read(PLAYER_KEY);
  if (!isRecord(value) || typeof value.token !== "string" || typeof value.name !== "string") return null;
  return { token: value.token, name: value.name, player_id: typeof value.player_id === "string" ? value.player_id : "" };
}

export const storage = {
  seat: readSeat,
  saveSeat(gameId: string, seat: SeatRecord) {
    localStorage.setItem(SEAT_KEY(gameId), JSON.stringify(seat));
    const recent = readRecent().filter((g) => g.id !== gameId);
    recent.unshift({ id: gameId, ruleset: seat.ruleset, at: new Date().toISOString() });
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, 12)));
  },
  recent: readRecent,
  player: readPlayer,
  savePlayer: (player: CreatedPlayer) => localStorage.setItem(PLAYER_KEY, JSON.stringify(player)),
  forgetPlayer: () => localStorage.removeItem(PLAYER_KEY),
  /** The game of this player's ranked attempt at a day's deal, if it was dealt here. */
  dailyAttempt(date: string, ruleset: string): string | null {
    const value = read(DAILY_KEY(date, ruleset));
    return typeof value === "string" ? value : null;
  },
  saveDailyAttempt: (date: string, ruleset: string, gameId: string) =>
    localStorage.setItem(DAILY_KEY(date, ruleset), JSON.stringify(gameId)),
};
