// A TypeScript client of the Royal Court API, built from openapi.yaml alone.
//
// `./schema.js` is what openapi-typescript generates from the spec (the test generates it
// afresh: tests/clients/test_generated_clients.py) and openapi-fetch makes the requests: no
// other HTTP, no casts, no `any` (`tsc --noEmit --strict` checks it). It plays every game the
// server lists to the end (a solitaire on a chosen deal; a game of two seats with both seats,
// the second joined by invite, and against a bot), reads each finished game's log, record
// and a replay step, has the server verify the record, and plays a daily challenge. One JSON
// line per game on stdout; any surprise throws.
//
//     node out/play.js http://127.0.0.1:8000    # compiled beside schema.ts (docs/clients.md)

import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Game = Schemas["Game"];
type View = Schemas["View"];
type CreatedGame = Schemas["CreatedGame"];
type MoveRequest = Schemas["MoveRequest"];
type RulesetDescription = Schemas["RulesetDescription"];
type SeatRequest = Schemas["SeatRequest"];
type CreateGame = paths["/v1/games"]["post"]["requestBody"]["content"]["application/json"];
type DailyGame = paths["/v1/daily/{date}/{ruleset}/games"]["post"];
type DailyRuleset = DailyGame["parameters"]["path"]["ruleset"];
type Api = Client<paths>;

const MAX_MOVES = 2000; // every game here ends far sooner when each seat plays its first legal move
const SEED = "generated-client"; // a solitaire's deal, chosen: the same game on every run
const DAILY_RULESETS: DailyRuleset[] = ["royal-assassin", "adaman", "risus-royale"];

/** The answer's body, when it is what the spec says a success is (else its problem). */
async function ok<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (data === undefined) {
    throw new Error(`${response.status} ${response.url}: ${JSON.stringify(error)}`);
  }
  return data;
}

/** A client that sends a seat's (or a player's) token. */
function seatClient(baseUrl: string, token: string): Api {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}

// --- dealing ---------------------------------------------------------------------------------

/** The create request of a ruleset the server lists: one typed variant per ruleset. */
function createBody(ruleset: RulesetDescription, seats: SeatRequest[]): CreateGame {
  switch (ruleset.id) {
    case "royal-assassin":
      return { ruleset: "royal-assassin", seed: SEED };
    case "adaman":
      return { ruleset: "adaman", seed: SEED };
    case "risus-royale":
      return { ruleset: "risus-royale", seed: SEED };
    case "royal-ace-assin":
      return { ruleset: "royal-ace-assin", seats };
    case "royal-assassin-duel":
      return { ruleset: "royal-assassin-duel", seats };
  }
  throw new Error(`a ruleset this client does not know: ${ruleset.id}`);
}

// --- playing ---------------------------------------------------------------------------------

/** The seats that may move now: a solitaire's one seat, or the view's `to_move`. */
function seatsToMove(view: View): number[] {
  if ("to_move" in view) return view.to_move;
  return view.legal_moves.length > 0 ? [0] : [];
}

/** The view's first legal move that is neither a resignation nor an undo, at the version the
 * seat has seen. */
function choose(view: View, version: number): MoveRequest {
  for (const move of view.legal_moves) {
    if (move.type !== "resign" && move.type !== "undo") return { version, move };
  }
  throw new Error(`no move to play in ${JSON.stringify(view)}`);
}

/** Each seat we hold plays its first legal move whenever it may move (bots move in the
 * server, within our requests), until the game is over. */
async function playToTheEnd(seats: Map<number, Api>, created: CreatedGame): Promise<Game> {
  let { game, view } = created;
  let seenBy = created.seat;
  let played = 0;
  while (game.status === "playing") {
    const mover = seatsToMove(view).find((seat) => seats.has(seat));
    const api = mover === undefined ? undefined : seats.get(mover);
    if (mover === undefined || api === undefined) {
      throw new Error(`no seat of ours may move (a bot's turn?): ${JSON.stringify(view)}`);
    }
    if (mover !== seenBy) {
      // another seat's turn: read the game as that seat sees it
      const path = { game_id: game.id };
      ({ game, view } = await ok(api.GET("/v1/games/{game_id}", { params: { path } })));
      seenBy = mover;
    }
    const result = await ok(
      api.POST("/v1/games/{game_id}/moves", {
        params: { path: { game_id: game.id } },
        body: choose(view, game.version),
      }),
    );
    ({ game, view } = result);
    played += 1;
    if (played >= MAX_MOVES) throw new Error(`${game.ruleset} did not end in ${MAX_MOVES} moves`);
  }
  return game;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

/** The finished game's log, record and first replay step, and the record's verdict. */
async function checkFinished(api: Api, game: Game): Promise<boolean> {
  const path = { game_id: game.id };
  const log = await ok(api.GET("/v1/games/{game_id}/moves", { params: { path } }));
  const seqs = Array.from({ length: game.version }, (_, i) => i + 1);
  check(log.moves.map((m) => m.seq).join() === seqs.join(), `the log: ${JSON.stringify(log)}`);
  const record = await ok(api.GET("/v1/games/{game_id}/record", { params: { path } }));
  check(record.id === game.id && record.status === game.status, JSON.stringify(record));
  check(typeof record.seed === "string", "a finished game's record reveals its seed");
  const first = log.moves[0];
  if (first !== undefined) {
    const query = { at: 1 };
    const step = await ok(api.GET("/v1/games/{game_id}/replay", { params: { path, query } }));
    check(step.at === 1 && step.move?.seq === 1 && step.move.hash === first.hash,
          JSON.stringify(step));
  }
  const verdict = await ok(api.POST("/v1/records/verify", { body: record }));
  check(verdict.valid && verdict.problems.length === 0, JSON.stringify(verdict));
  check(verdict.moves === record.moves.length, `${verdict.moves} of ${record.moves.length} moves`);
  return verdict.valid;
}

function report(mode: string, game: Game, verified: boolean | null): void {
  const result = game.outcome === null ? null : game.outcome.result;
  const { ruleset, version: moves, status } = game;
  console.log(JSON.stringify({ ruleset, mode, moves, status, result, verified }));
}

async function playSolitaire(baseUrl: string, anyone: Api, ruleset: RulesetDescription) {
  const created = await ok(anyone.POST("/v1/games", { body: createBody(ruleset, []) }));
  const seat = seatClient(baseUrl, created.token);
  const game = await playToTheEnd(new Map([[created.seat, seat]]), created);
  report("solo", game, await checkFinished(seat, game));
}

/** Both seats by invite, then one seat against the ruleset's quickest bot. */
async function playTwoSeats(baseUrl: string, anyone: Api, ruleset: RulesetDescription) {
  const human: SeatRequest = { player: "human" };
  let created = await ok(anyone.POST("/v1/games", { body: createBody(ruleset, [human, human]) }));
  const seats = new Map([[created.seat, seatClient(baseUrl, created.token)]]);
  for (const invite of created.invites) {
    const joined = await ok(
      anyone.POST("/v1/games/{game_id}/seats/{seat}", {
        params: { path: { game_id: created.game.id, seat: invite.seat } },
        body: { invite: invite.invite },
      }),
    );
    seats.set(joined.seat, seatClient(baseUrl, joined.token));
  }
  check(seats.size === ruleset.seats.max, `seats ${[...seats.keys()].join()}`);
  let game = await playToTheEnd(seats, created);
  const first = seats.get(created.seat);
  if (first === undefined) throw new Error("the creator's seat");
  report("invite", game, await checkFinished(first, game));

  const policy = ruleset.policies.includes("random") ? "random" : ruleset.policies[0];
  const bot: SeatRequest = { player: "bot", policy };
  created = await ok(anyone.POST("/v1/games", { body: createBody(ruleset, [human, bot]) }));
  check(created.invites.length === 0, JSON.stringify(created.invites));
  const seat = seatClient(baseUrl, created.token);
  game = await playToTheEnd(new Map([[created.seat, seat]]), created);
  report("bot", game, await checkFinished(seat, game));
}

/** A guest signs in (an ID token from the test's issuer) and becomes the account's player,
 * reads itself and its public profile, then makes its ranked attempt at one of today's
 * challenges and finds its place on the day's leaderboard. */
async function playDaily(baseUrl: string, anyone: Api, idToken: string): Promise<void> {
  const guest = await ok(anyone.POST("/v1/players", { body: { name: "Tsclient" } }));
  const player = await ok(
    seatClient(baseUrl, guest.token).POST("/v1/sessions", { body: { id_token: idToken } }),
  );
  check(player.player_id === guest.player_id, JSON.stringify(player));
  const me = await ok(seatClient(baseUrl, player.token).GET("/v1/me"));
  check(me.signed_in && me.sessions === 1 && me.name === guest.name, JSON.stringify(me));
  const profile = await ok(
    anyone.GET("/v1/players/{player_id}", { params: { path: { player_id: player.player_id } } }),
  );
  check(profile.signed_in && profile.name === guest.name, JSON.stringify(profile));
  const today = await ok(anyone.GET("/v1/daily/{date}", { params: { path: { date: "today" } } }));
  const challenge =
    today.challenges.find((c) => c.ruleset === "royal-assassin") ?? today.challenges[0];
  const ruleset = DAILY_RULESETS.find((r) => r === challenge?.ruleset);
  if (challenge === undefined || ruleset === undefined) throw new Error(JSON.stringify(today));
  const signedIn = seatClient(baseUrl, player.token);
  const created = await ok(
    signedIn.POST("/v1/daily/{date}/{ruleset}/games", {
      params: { path: { date: "today", ruleset } },
    }),
  );
  check(created.game.seed_commitment === challenge.seed_commitment, JSON.stringify(created.game));
  const seat = seatClient(baseUrl, created.token);
  const game = await playToTheEnd(new Map([[created.seat, seat]]), created);
  const board = await ok(
    signedIn.GET("/v1/daily/{date}/{ruleset}/leaderboard", {
      params: { path: { date: today.date, ruleset } },
    }),
  );
  check(board.you?.game_id === game.id, JSON.stringify(board.you));
  check(board.entries.some((entry) => entry.name === player.name), JSON.stringify(board.entries));
  const path = { game_id: game.id };
  const log = await ok(seat.GET("/v1/games/{game_id}/moves", { params: { path } }));
  check(log.moves.length === game.version, JSON.stringify(log));
  // A ranked attempt's record keeps its seed until the day is over: nothing to verify yet.
  const record = await ok(seat.GET("/v1/games/{game_id}/record", { params: { path } }));
  check(record.seed === undefined && record.moves.length === game.version, JSON.stringify(record));
  report("daily", game, null);
}

async function main(baseUrl: string, idToken: string): Promise<void> {
  const anyone = createClient<paths>({ baseUrl });
  const listed = await ok(anyone.GET("/v1/rulesets"));
  for (const ruleset of listed.rulesets) {
    if (ruleset.seats.max === 1) await playSolitaire(baseUrl, anyone, ruleset);
    else await playTwoSeats(baseUrl, anyone, ruleset);
  }
  await playDaily(baseUrl, anyone, idToken);
}

const [baseUrl, idToken] = process.argv.slice(2);
if (baseUrl === undefined || idToken === undefined) {
  throw new Error("usage: node play.js BASE_URL ID_TOKEN");
}
await main(baseUrl, idToken);
