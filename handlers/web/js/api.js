// The public API (openapi.yaml), and nothing else: this client has no private endpoint.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** One request. JSON in and out; a problem+json answer throws ApiError. 304 gives null. */
export async function api(method, path, { body, token, headers = {}, signal } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, init);
  if (response.status === 304) return { status: 304, data: null, headers: response.headers };
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { title: "Unreadable answer", detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new ApiError(response.status, data || {});
  return { status: response.status, data, headers: response.headers };
}

/**
 * A game's event stream (`GET …/events`, text/event-stream), read with fetch and a stream
 * reader rather than EventSource, so that the token travels in the Authorization header and
 * never in a URL. Yields each event as {id, data}; returns when the server ends the stream
 * (a bounded stream: reconnect with the last id); throws ApiError on a problem answer.
 */
export async function* eventStream(path, { token, lastEventId, signal } = {}) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastEventId !== undefined && lastEventId !== null) headers["Last-Event-ID"] = String(lastEventId);
  const response = await fetch(path, { headers, signal, cache: "no-store" });
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !response.body || !type.startsWith("text/event-stream")) {
    let problem = {};
    try { problem = await response.json(); } catch { /* not a problem document */ }
    throw new ApiError(response.ok ? 502 : response.status, { ...problem, retryAfter: response.headers.get("Retry-After") });
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
        const fields = {};
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue; // a comment: the heartbeat
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${text}` : text;
        }
        if (fields.data !== undefined) yield { id: fields.id, data: JSON.parse(fields.data) };
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** A fresh Idempotency-Key: a retried click can never play a move twice. */
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// Seat tokens live in localStorage, keyed by game: a reload resumes the game. They reach the
// page only in the URL fragment, which browsers never send to a server.
const SEAT_KEY = (gameId) => `royal-court:seat:${gameId}`;
const PLAYER_KEY = "royal-court:player";
const RECENT_KEY = "royal-court:recent";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

export const storage = {
  seat: (gameId) => read(SEAT_KEY(gameId)),
  saveSeat(gameId, seat) {
    localStorage.setItem(SEAT_KEY(gameId), JSON.stringify(seat));
    const recent = (read(RECENT_KEY) || []).filter((g) => g.id !== gameId);
    recent.unshift({ id: gameId, ruleset: seat.ruleset, at: new Date().toISOString() });
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, 12)));
  },
  recent: () => read(RECENT_KEY) || [],
  player: () => read(PLAYER_KEY),
  savePlayer: (player) => localStorage.setItem(PLAYER_KEY, JSON.stringify(player)),
};
