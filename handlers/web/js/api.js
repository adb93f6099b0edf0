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

/** The `rel="push"` target of a response's Link header: the WebSocket a deploy on AWS offers
 * for waiting (docs/api.md, "Streams"), or null. */
export function pushLink(headers) {
  const link = headers?.get("Link") || "";
  const match = /<([^>]+)>\s*;\s*rel="?push"?/.exec(link);
  return match && /^wss?:\/\//.test(match[1]) ? match[1] : null;
}

const PUSH_PING_MS = 5 * 60 * 1000; // API Gateway closes a connection idle for 10 minutes

/**
 * The same events as `eventStream`, pushed through a WebSocket (API Gateway's on AWS): the
 * token goes in the first message, never in the URL. Yields {id, data}; returns when the
 * connection closes (reconnect with the last id); a problem document sent instead of an event
 * throws ApiError, and so does a connection that never opens.
 */
export async function* pushStream(url, { token, lastEventId, signal } = {}) {
  const socket = new WebSocket(url);
  const queue = [];
  let wake = null;
  let opened = false;
  const push = (item) => { queue.push(item); if (wake) { wake(); wake = null; } };
  socket.onopen = () => {
    opened = true;
    const hello = { action: "watch", last_event_id: lastEventId ?? null };
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
      if (!queue.length) await new Promise((resolve) => { wake = resolve; });
      const item = queue.shift();
      if (item.closed) {
        if (!opened) throw new ApiError(502, { title: "The push connection did not open" });
        return;
      }
      let data;
      try { data = JSON.parse(item.message.data); } catch { continue; }
      if (data && data.game && data.view) yield { id: String(data.game.version), data };
      else if (data && data.status) throw new ApiError(data.status, data);
    }
  } finally {
    clearInterval(ping);
    signal?.removeEventListener("abort", stop);
    socket.close();
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
