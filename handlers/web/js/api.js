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
