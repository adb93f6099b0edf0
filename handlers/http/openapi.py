"""Generates openapi.yaml (OpenAPI 3.1) from the marshmallow schemas with apispec.

Run `make openapi` after changing the API; a test fails while the committed file is stale.
This module is never imported on the request path: the server serves the committed file.
"""

from __future__ import annotations

import copy
import re
import sys
from dataclasses import dataclass
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from domain.capabilities import GameEntry
from domain.contracts import RESULT
from domain.deal import seed_commitment
from domain.moves import MoveShape
from domain.presentation import WORDS_COMPONENTS
from domain.record import RECORD_FORMAT, move_hash
from domain.registry import GAMES
from domain.replay import Playthrough
from domain.service import GAME_ID as GAME_ID_PATTERN
from domain.stored import IDEMPOTENCY_KEY_MAX
from domain.verify import verify
from handlers.http import schemas
from handlers.http.app import MAX_BODY_BYTES, WAIT_POLL_SECONDS
from handlers.http.events import encode_event
from handlers.http.problems import KINDS

DESCRIPTION = """\
Royal Court serves royal-intrigue card games. Every game is rebuilt on each request by replaying
its append-only move log from a seed, so the server keeps no state between requests.

**Flow.** `POST /v1/games` deals a game and returns seat 0's secret `token`; send it as
`Authorization: Bearer <token>` to play. Each move names the `version` (number of moves) the
client has seen: a stale version gets 409 with the current one. The view lists the legal moves.

**Verifiable deals.** `seed_commitment` (SHA-256 of the seed) is published at creation; the seed
is revealed when the client chose it or when the game is over, so anyone can re-derive the deal
(see docs/deal-algorithm.md). Each logged move carries a hash chained to the previous one.

**Errors** are RFC 9457 problem details (`application/problem+json`) and never change anything.
"""


def _problem(*slugs: str, description: str | None = None) -> dict[str, Any]:
    """A problem response, documented from the catalogue (the first slug gives the example)."""
    kinds = [KINDS[slug] for slug in slugs]
    text = description or " / ".join(k.description for k in kinds)
    example = kinds[0].body(**kinds[0].example)
    response: dict[str, Any] = {
        "description": text,
        "content": {"application/problem+json": {"schema": "Problem", "example": example}},
    }
    if {"store-unavailable", "too-many-requests", "sign-in-unavailable"} & set(slugs):
        response["headers"] = {
            "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds."}
        }
    return response


def _json(schema: str, description: str, example: Any = None, **extra: Any) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}, **extra}


UNAVAILABLE = _problem("store-unavailable")
RATE_LIMITED = _problem(
    "too-many-requests",
    description="`court serve` only: this client address made too many requests of this kind "
    "lately (creating games or players, moves, records, replay steps, verifications, profiles: "
    "per-client limits, docs/api.md). Retry after `Retry-After` seconds.",
)
NOT_FOUND = _problem("game-not-found")
MALFORMED = _problem("malformed-json")
TOO_LARGE = _problem("body-too-large", description=f"The body is over {MAX_BODY_BYTES} bytes.")
FORBIDDEN = _problem("wrong-token")
HTTP_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})
PLAY_CONFLICTS = _problem(
    "stale-version", "game-finished", "not-your-turn", "daily-closed", "game-too-long"
)

GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^{GAME_ID_PATTERN.pattern}$"},
    "description": "The id returned when the game was created.",
}
ETAG_HEADER = {
    "ETag": {
        "schema": {"type": "string"},
        "description": 'The version, e.g. "3" (a read adds `r` once a finished game\'s rematch '
        'is dealt, "7r": no move, but a change a 304 must not hide).',
    }
}
PUSH_LINK_HEADER = {
    "Link": {
        "schema": {"type": "string", "pattern": '^<wss?://[^>]+[?]game=[^>]+>; rel="push"$'},
        "description": "Only where the deploy offers one (AWS: ROYAL_PUSH_URL): the WebSocket "
        'to wait on for this game\'s next versions, `<wss://…?game=<id>>; rel="push"`. Open it '
        'and send `{"action": "watch", "token": "<your token>", "last_event_id": <version>}` '
        "(no token: a spectator); each message is then what the event stream's `data:` would "
        "be (docs/api.md, Streams).",
    }
}

EXAMPLE_GAME = next(iter(GAMES.values()))  # the first game registered illustrates the spec


def _game_example(entry: GameEntry) -> dict[str, Any]:
    """The game JSON of the example deal, as the service shows it: made, not written out."""
    ruleset = entry.ruleset
    state = ruleset.start(entry.example_seed)
    return {
        "id": "q0Vh3lJx8u1kZbH9sWcR4Agq0Vh3lJx8",
        "ruleset": ruleset.id,
        "options": ruleset.validate_options(None),
        "version": 0,
        "status": ruleset.status(state),
        "seed_commitment": seed_commitment(entry.example_seed),
        "seed_known": True,
        "created_at": "2026-11-22T03:25:59.123Z",
        "outcome": None,
        "result": None,
        "seed": entry.example_seed,
        "seats": [{"seat": 0, "player": "human", "joined": True}],
    }


@dataclass(frozen=True)
class _Played:
    view: dict[str, Any]
    effects: list[dict[str, Any]]


def _after_first_move(entry: GameEntry, move: dict[str, Any]) -> _Played:
    ruleset = entry.ruleset
    transition = ruleset.apply(ruleset.start(entry.example_seed), 0, move)
    return _Played(ruleset.view(transition.state, 0), transition.effects)


def _specific_first(entries: list[GameEntry]) -> list[GameEntry]:
    """The rulesets ordered so that, for every kind of move two of them share, the one whose
    move has more fields comes first (Royal Assassin Duel's `attack` {card, column} before
    Royal Assassin's {column}). Generated clients try an `anyOf` in order and take the first
    branch whose required fields are there: in this order none drops a field of a move."""

    def fields_of(entry: GameEntry) -> dict[str, set[str]]:
        return {shape.type: set(shape.fields) for shape in entry.ruleset.moves_offered}

    ordered: list[GameEntry] = []
    left = list(entries)
    while left:
        # The first ruleset left that no other left ruleset must precede.
        entry = next(
            e for e in left
            if not any(fields_of(o).get(kind, set()) > wanted
                       for o in left for kind, wanted in fields_of(e).items())
        )  # fmt: skip
        ordered.append(entry)
        left.remove(entry)
    return ordered


def _any_move(unions: list[str]) -> dict[str, Any]:
    """`Move`: a move of any ruleset. `anyOf`, not `oneOf`: the rulesets share moves
    (`resign`, `undo`, and look-alikes such as a `joker` on a column), and which ruleset a
    move belongs to is the game's, not the move's; within its ruleset a move matches exactly
    one branch (each union is a `oneOf` discriminated by `type`). `unions` come in
    `_specific_first` order."""
    return {
        "title": "Move",
        "description": "A move of one of the rulesets (the game's own): see each ruleset's "
        "union for the kinds of move and their fields.",
        "anyOf": [_ref(name) for name in unions],
    }


def _move_request() -> dict[str, Any]:
    """The move body: `version`, and a move of one of the rulesets (each declared by its
    game), so that any client can build and check its moves from this document alone."""
    return {
        "title": "MoveRequest",
        "type": "object",
        "properties": {
            "version": {
                "type": "integer",
                "minimum": 0,
                "description": "The number of moves the client has seen.",
            },
            "move": {
                "description": "A move of the game's ruleset, as listed in the view's "
                "legal_moves; anything else is refused with 422 and the legal moves.",
                **_ref("Move"),
            },
        },
        "required": ["version", "move"],
        "additionalProperties": False,
    }


def _record_example(game_example: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """A finished example game's record: its first move, then a resignation."""
    ruleset = EXAMPLE_GAME.ruleset
    game = Playthrough(ruleset, EXAMPLE_GAME.example_seed, None)
    moves, previous = [], game_example["seed_commitment"]
    for seq, played in enumerate((move, {"type": "resign"}), start=1):
        game.play(0, played)
        previous = move_hash(previous, seq, 0, played)
        moves.append({"seq": seq, "seat": 0, "move": played,
                      "at": f"2026-11-22T03:26:1{seq}.004Z", "hash": previous})  # fmt: skip
    return {
        "format": RECORD_FORMAT,
        "id": game_example["id"],
        "ruleset": ruleset.id,
        "options": ruleset.validate_options(None),
        "seed_commitment": game_example["seed_commitment"],
        "seed": EXAMPLE_GAME.example_seed,
        "created_at": game_example["created_at"],
        "moves": moves,
        "status": ruleset.status(game.state),
        "outcome": ruleset.outcome(game.state),
    }


def _record_paths(spec: APISpec, game_example: dict[str, Any], move: dict[str, Any]) -> None:
    """Records, verification, step-by-step replay and the finished games' listing."""
    record = _record_example(game_example, move)
    verdict = verify(record).to_json()
    token: dict[str, list[str]] = {"seatToken": []}
    spec.path(
        path="/v1/games/{game_id}/record",
        operations={
            "get": {
                "operationId": "getRecord",
                "summary": "The game's record, to download and verify offline",
                "description": "docs/record-format.md. While the game is played the seed is "
                "left out unless the client chose it; a finished game's record is complete. "
                "Verify it with `court verify FILE` or `POST /v1/records/verify`.",
                "parameters": [GAME_ID],
                "security": [{}, token],
                "responses": {
                    "200": _json(
                        "Record",
                        "The record (served as an attachment).",
                        record,
                        headers={
                            "Content-Disposition": {
                                "schema": {"type": "string"},
                                "description": 'attachment; filename="royal-court-{id}.json"',
                            }
                        },
                    ),
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/records/verify",
        operations={
            "post": {
                "operationId": "verifyRecord",
                "summary": "Verify a record: seed, hash chain, every move, outcome",
                "description": "Any JSON body gets a verdict (200), `valid` true or false with "
                "the first problem found: its seq, what was expected, what was found.",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            # Any JSON at all is answered with a verdict: a record of the wrong
                            # shape is a record that does not verify, not a bad request.
                            "schema": {
                                "description": "A record (the Record schema), or anything "
                                "else, which is then reported as not valid."
                            },
                            "example": record,
                        }
                    },
                },
                "responses": {
                    "200": _json("Verdict", "The verdict.", verdict),
                    "400": MALFORMED,
                    "413": _problem("body-too-large", description="The body is over 1 MiB."),
                    "429": RATE_LIMITED,
                },
            }
        },
    )
    spec.path(
        path="/v1/games/{game_id}/replay",
        operations={
            "get": {
                "operationId": "replayStep",
                "summary": "The view after `at` events, with the event that led there",
                "description": "Finished games: anyone, any step, the spectator's view and the "
                "whole deal. Games in play: a seat's token, its own view, steps up to now.",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "at",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 0},
                        "description": "0: the deal; k: after the k-th event.",
                    },
                ],
                "security": [{}, token],
                "responses": {
                    "200": _json("ReplayStep", "The step."),
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "422": _problem("invalid-request", "invalid-body"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/games",
        operations={
            "get": {
                "operationId": "listFinishedGames",
                "summary": "Finished games, newest first, a page at a time",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "enum": ["finished"]},
                    },
                    {
                        "name": "ruleset",
                        "in": "query",
                        "schema": {"type": "string", "enum": list(GAMES)},
                        "description": "Only this ruleset's games.",
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                    },
                    {
                        "name": "cursor",
                        "in": "query",
                        "schema": {"type": "string"},
                        "description": "The previous page's `cursor`, as it came.",
                    },
                ],
                "responses": {
                    "200": _json("GameList", "A page of finished games."),
                    "422": _problem("invalid-body", "invalid-request", "unknown-ruleset"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )


def _rematch_path(spec: APISpec) -> None:
    """A finished game's rematch: its one new game, same seats, a new deal."""
    entry = next(e for e in GAMES.values() if e.ruleset.max_seats > 1)  # seats to carry over
    dealt = {k: v for k, v in _game_example(entry).items() if k != "seed"}
    dealt |= {"id": "Zb9Q4sWcR4Agq0Vh3lJx8u1kq0Vh3lJx", "seed_known": False,
              "seed_commitment": seed_commitment("a-secret-seed"),
              "seats": [{"seat": 0, "player": "human", "joined": True},
                        {"seat": 1, "player": "human", "joined": False}]}  # fmt: skip
    example = {"game": dealt, "token": "n3w-s3cr3t", "seat": 0, "invites": [],
               "view": entry.view_example()}  # fmt: skip
    spec.path(
        path="/v1/games/{game_id}/rematch",
        operations={
            "post": {
                "operationId": "rematchGame",
                "summary": "A finished game's rematch: the same seats, a new deal",
                "description": "With a seat's token of the finished game (no body). The first "
                "seat to ask deals it: the same ruleset and options, a new secret seed "
                "(committed like any new game's), the same bots, the caller in the same seat "
                "with a new token (once: keep it), and every other human seat open, its "
                "invite carried over: that seat's player takes it with their token of the "
                "finished game as the invite (this operation, or joinSeat). The finished "
                "game then shows `rematch` {game_id, game}. One rematch per game: a seat "
                "asking after it was dealt (or racing the first) is seated in it, or gets "
                "409 seat-taken if its seat there has a token already. Any casual game, a "
                "solitaire too; never a ranked daily attempt or a game in play (409 "
                "no-rematch). A rematch that expired unplayed is dealt again.",
                "parameters": [GAME_ID],
                "security": [{"seatToken": []}],
                "responses": {
                    "201": _json(
                        "CreatedGame",
                        "The rematch, your seat's new token and view (`invites` is empty: the "
                        "other seats' invites are their tokens of the finished game).",
                        example,
                        headers={
                            "Location": {"schema": {"type": "string"},
                                         "description": "/v1/games/{rematch id}"},
                            **ETAG_HEADER,
                        },
                        links=CREATED_LINKS,
                    ),
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "409": _problem("no-rematch", "seat-taken", "game-finished"),
                    "413": TOO_LARGE,
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )  # fmt: skip


def _player_paths(spec: APISpec) -> None:
    """Players: guests and accounts signed in with OpenID Connect (docs/accounts.md)."""
    player: dict[str, list[str]] = {"playerToken": []}
    player_id = {"name": "player_id", "in": "path", "required": True,
                 "schema": {"type": "string", "pattern": f"^{GAME_ID_PATTERN.pattern}$"},
                 "description": "A player's id (`player_id`)."}  # fmt: skip
    spec.path(
        path="/v1/sign-in",
        operations={
            "get": {
                "operationId": "signInProvider",
                "summary": "Whether players sign in here, and where (issuer, client id, page)",
                "responses": {
                    "200": _json("SignInProvider", "The provider this server accepts, if any."),
                    "503": _problem("sign-in-unavailable"),
                },
            }
        },
    )
    spec.path(
        path="/v1/sessions",
        operations={
            "post": {
                "operationId": "signIn",
                "summary": "Sign in with an ID token: the account's player and a session token",
                "description": "The ID token is checked against the issuer's published keys "
                "(`GET /v1/sign-in`) and signs in once. The first sign-in of an account makes "
                "its player; with a guest's token in `Authorization`, the guest becomes the "
                "account's player, its games with it, and its guest token stops working. The "
                "session token works as a guest's token does, everywhere a player's is asked.",
                "security": [{}, player],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": "SignInRequest"}},
                },
                "responses": {
                    "201": _json("CreatedPlayer", "The account's player and a session token."),
                    "400": MALFORMED,
                    "401": _problem("sign-in-refused", "token-required"),
                    "403": _problem("not-a-players-token"),
                    "404": _problem("no-sign-in"),
                    "409": _problem("account-taken"),
                    "413": TOO_LARGE,
                    "422": _problem("invalid-body", "invalid-request"),
                    "429": RATE_LIMITED,
                    "503": _problem("sign-in-unavailable", "store-unavailable"),
                },
            }
        },
    )
    spec.path(
        path="/v1/sessions/current",
        operations={
            "delete": {
                "operationId": "signOut",
                "summary": "Sign out: this session token stops working",
                "security": [player],
                "responses": {
                    "204": {"description": "Signed out: this session token stops working."},
                    "401": _problem("token-required"),
                    "403": _problem("not-a-players-token"),
                    "422": _problem(
                        "invalid-request",
                        description="A guest's token: it is the guest itself, not a session.",
                    ),
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/me",
        operations={
            "get": {
                "operationId": "me",
                "summary": "The player this token is for",
                "security": [player],
                "responses": {
                    "200": _json("Me", "The player, as only its own token shows it."),
                    "401": _problem("token-required"),
                    "403": _problem("not-a-players-token"),
                    "503": UNAVAILABLE,
                },
            },
            "patch": {
                "operationId": "rename",
                "summary": "A new name, the same tag (boards keep the names entries had)",
                "security": [player],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": "PlayerRequest"}},
                },
                "responses": {
                    "200": _json("Me", "The player, renamed."),
                    "400": MALFORMED,
                    "401": _problem("token-required"),
                    "403": _problem("not-a-players-token"),
                    "413": TOO_LARGE,
                    "422": _problem("invalid-request", "invalid-body"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            },
        },
    )
    spec.path(
        path="/v1/players/{player_id}",
        operations={
            "get": {
                "operationId": "playerProfile",
                "summary": "A player's public profile",
                "parameters": [player_id],
                "responses": {
                    "200": _json("PlayerProfile", "What anyone may see of the player."),
                    "404": _problem("player-not-found"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )


def _daily_paths(spec: APISpec) -> None:
    """Daily challenges: the day's deals, players, ranked attempts and leaderboards."""
    date = {"name": "date", "in": "path", "required": True,
            "schema": {"type": "string", "pattern": "^(today|[0-9]{4}-[0-9]{2}-[0-9]{2})$"},
            "description": "YYYY-MM-DD (UTC), or `today`."}  # fmt: skip
    solitaires = [entry.id for entry in GAMES.values() if entry.ruleset.max_seats == 1]
    ruleset = {"name": "ruleset", "in": "path", "required": True,
               "schema": {"type": "string", "enum": solitaires},
               "description": "A solitaire: only solitaires have daily challenges."}  # fmt: skip
    player: dict[str, list[str]] = {"playerToken": []}
    spec.path(
        path="/v1/daily/{date}",
        operations={
            "get": {
                "operationId": "dailyChallenges",
                "summary": "A day's challenges: one deal per solitaire, the same for everyone",
                "parameters": [date],
                "responses": {
                    "200": _json("DailyChallenges", "Each solitaire's deal of the day."),
                    "404": _problem("daily-not-found"),
                    "422": _problem("invalid-request"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/players",
        operations={
            "post": {
                "operationId": "createPlayer",
                "summary": "An anonymous player identity, for ranked daily attempts",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": "PlayerRequest", "example": {"name": "Anne"}}
                    },
                },
                "responses": {
                    "201": _json(
                        "CreatedPlayer", "The player and its token, once.", links=PLAYER_LINKS
                    ),
                    "400": MALFORMED,
                    "413": TOO_LARGE,
                    "422": _problem("invalid-request", "invalid-body"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/daily/{date}/{ruleset}/games",
        operations={
            "post": {
                "operationId": "startDailyGame",
                "summary": "Today: your one ranked attempt. A past day: a practice game",
                "description": "Options are fixed by the server (no undo). A ranked game and "
                "its seed stay private to its player until the day is over (UTC).",
                "parameters": [date, ruleset],
                "security": [{}, player],
                "responses": {
                    "201": _json(
                        "CreatedGame", "The game, its seat token and view.", links=CREATED_LINKS
                    ),
                    "401": _problem("token-required"),
                    "403": _problem("not-a-players-token", "sign-in-required"),
                    "404": _problem("daily-not-found"),
                    "409": _problem("already-played"),
                    "413": TOO_LARGE,
                    "422": _problem("unknown-ruleset", "invalid-request"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/daily/{date}/{ruleset}/leaderboard",
        operations={
            "get": {
                "operationId": "dailyLeaderboard",
                "summary": "The day's board: wins first, then score, fewer moves, earlier",
                "parameters": [
                    date,
                    ruleset,
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                    },
                    {"name": "cursor", "in": "query", "schema": {"type": "string"}},
                ],
                "security": [{}, player],
                "responses": {
                    "200": _json("Leaderboard", "A page of the board (and yours, with a token)."),
                    "401": _problem("token-required"),
                    "403": _problem("not-a-players-token"),
                    "404": _problem("daily-not-found"),
                    "422": _problem("invalid-request", "invalid-body", "unknown-ruleset"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )


def _seat_links(game_id: str, authorization: str) -> dict[str, Any]:
    """OpenAPI links from a response that gives a seat (its game id and token, as runtime
    expressions) to what the seat can do next: read the game, play the first legal move at
    the version it has seen, read the log and the record. They let a stateful tester (and a
    reader) go from dealing a game to playing it without knowing this API beforehand."""
    seat = {"path.game_id": game_id, "header.Authorization": authorization}
    return {
        "ReadGame": {"operationId": "readGame", "parameters": seat,
                     "description": "The game as this seat sees it."},
        "PlayFirstLegalMove": {
            "operationId": "playMove",
            "parameters": seat,
            "requestBody": {"version": "$response.body#/game/version",
                            "move": "$response.body#/view/legal_moves/0"},
            "description": "Play the first of the view's legal moves at the version seen.",
        },
        "ListMoves": {"operationId": "listMoves", "parameters": seat,
                      "description": "The log, as this seat may see it."},
        "GetRecord": {"operationId": "getRecord", "parameters": seat,
                      "description": "The record, as this seat may see it."},
    }  # fmt: skip


CREATED_LINKS = _seat_links("$response.body#/game/id", "Bearer {$response.body#/token}")
"""From a response that hands out a seat's token (create, join, a daily attempt)."""
MOVED_LINKS = _seat_links("$request.path.game_id", "$request.header.Authorization")
"""From a played move: the same seat goes on, its Authorization header carried over."""
PLAYER_LINKS = {
    "StartTodaysAttempt": {
        "operationId": "startDailyGame",
        "parameters": {"path.date": "today", "path.ruleset": EXAMPLE_GAME.id,
                       "header.Authorization": "Bearer {$response.body#/token}"},
        "description": "The player's ranked attempt at today's deal of the example ruleset.",
    },
    "TodaysLeaderboard": {
        "operationId": "dailyLeaderboard",
        "parameters": {"path.date": "today", "path.ruleset": EXAMPLE_GAME.id,
                       "header.Authorization": "Bearer {$response.body#/token}"},
        "description": "Today's board, with the player's own entry.",
    },
}  # fmt: skip
"""From a new player: its daily attempt and its place on the board."""


def _view_schema() -> dict[str, Any]:
    """The one place the views are declared: each ruleset's own view schema (its
    `view_schema`, declared beside its rules), one named component per ruleset, with
    `legal_moves` typed as that ruleset's move union, and `View` any of them."""
    return {
        "title": "View",
        "description": "Everything the seat may see: the view of the game's ruleset "
        "(`<Ruleset>View`).",
        "anyOf": [_ref(_pascal(entry.id) + "View") for entry in GAMES.values()],
    }


def _ruleset_views() -> dict[str, dict[str, Any]]:
    """Each ruleset's view as components: the declaration's `$defs` become components named
    after the view (`RoyalAssassinDuelViewPlayer`), its `Move` the ruleset's move union."""
    components: dict[str, dict[str, Any]] = {}
    for entry in GAMES.values():
        ruleset = entry.ruleset
        name = _pascal(entry.id) + "View"
        document = copy.deepcopy(ruleset.view_schema)
        document.pop("$schema", None)
        defs = document.pop("$defs", {})
        targets = {f"#/$defs/{d}": f"#/components/schemas/{name}{d}" for d in defs}
        targets["#/$defs/Move"] = f"#/components/schemas/{_move_union_name(entry)}"
        sealed = _sealable_cards(ruleset) if ruleset.max_seats == 1 else frozenset()
        for key, schema in [(name, document), *((name + d, defs[d]) for d in defs if d != "Move")]:
            schema = _retargeted(schema, targets)
            # Titled by its component's name: generators name classes by title, and two
            # rulesets' `Columns` would otherwise be one model (openapi-python-client then
            # drops both, and every view with them).
            components[key] = {**(_sealable(schema, sealed) if sealed else schema), "title": key}
    return components


def _retargeted(node: Any, targets: dict[str, str]) -> Any:
    if isinstance(node, dict):
        return {k: targets.get(v, v) if k == "$ref" else _retargeted(v, targets)
                for k, v in node.items()}  # fmt: skip
    if isinstance(node, list):
        return [_retargeted(v, targets) for v in node]
    return node


def _sealable_cards(ruleset: Any) -> frozenset[str]:
    """Every card a solitaire may deal, under any options: the strings a finished ranked
    game's view may show as null until its day is over (docs/daily.md)."""
    flipped = {s.name: True for s in ruleset.option_specs if s.kind == "boolean"}
    return frozenset(
        card
        for options in ({}, flipped)
        for step in ruleset.deal_plan(options)
        for card in step.cards
    )


SEALED_CARD = (
    "Null in a finished ranked game's view until its day is over (UTC): a card its player had "
    "not seen before the last move, kept face down so that the day's deal is not passed on."
)


def _sealable(node: Any, cards: frozenset[str]) -> Any:
    """A solitaire's view schema with every card position also allowing null, as a finished
    ranked game shows it within its day (`Court.sealed_cards`)."""
    if isinstance(node, list):
        return [_sealable(v, cards) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _sealable(v, cards) for k, v in node.items()}
    if any(branch.get("type") == "null" for branch in node.get("oneOf", ())):
        # A nullable card: its card branch now takes null too, so "exactly one" would fail.
        out["anyOf"] = out.pop("oneOf")
    is_card = "pattern" in node or bool(cards & set(node.get("enum") or ()))
    return {"anyOf": [out, {"type": "null", "description": SEALED_CARD}]} if is_card else out


def _hidden_move() -> dict[str, Any]:
    """A move another seat may not see yet, as the log shows it: its `type` alone (a ruleset
    whose moves hide cards says which in its `public_log`; any kind of move with fields may)."""
    hides = sorted(
        {shape.type for entry in GAMES.values() for shape in entry.ruleset.moves_offered
         if shape.fields}
    )  # fmt: skip
    return {
        "title": "HiddenMove",
        "description": "Another seat's move, while the game is played, without what it hides "
        "(a face-down placement's cards, a sealed flip's targets).",
        "type": "object",
        "properties": {"type": {"type": "string", "enum": hides}},
        "required": ["type"],
        "additionalProperties": False,
    }


def _raw_components(spec: APISpec) -> None:
    """Components written as JSON Schema rather than marshmallow: the view, effects, outcome,
    options and logged moves, which the response schemas (handlers/http/schemas.py) reference."""
    score = {
        "title": "Score",
        "description": "A solitaire's score, or each seat's (a duel).",
        "oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}],
    }
    nullable_int = {"type": ["integer", "null"]}
    outcome = {
        "title": "Outcome",
        "type": "object",
        "description": "How the game ended, seen from no seat: `result` and `score` always "
        "(both null where a ruleset tells them only from a seat's side: that seat's own are in "
        "its view's `outcome`), and what the ruleset adds (its `reason`, `winner`, ruler, "
        "totals...).",
        "properties": {
            "result": {"type": ["string", "null"], "x-enum": "results"},
            "score": {"anyOf": [_ref("Score"), {"type": "null"}]},
            "reason": {"type": "string", "x-enum": "reasons"},
            "winner": {**nullable_int, "description": "The winning seat (null: a draw)."},
        },
        "required": ["result", "score"],
        # The fields each ruleset adds (a ruler, totals, treasures...) are its own: a free
        # object until the games' outcome declarations are wired in here, as the views are.
        "additionalProperties": True,
    }
    options = {
        "title": "Options",
        "type": "object",
        "description": "Option name -> value (see the ruleset's `options` in /v1/rulesets).",
        "additionalProperties": {"type": ["boolean", "integer", "string", "null"]},
    }
    effect = {
        "title": "Effect",
        "type": "object",
        "description": "One thing a move set off, named by `type` (its other fields are the "
        "ruleset's).",
        "properties": {"type": {"type": "string"}},
        "required": ["type"],
        "additionalProperties": True,
    }
    logged = {
        "title": "LoggedMoveBody",
        "description": "A logged move: a move of the ruleset, or another seat's move shown "
        "without what it hides.",
        "anyOf": [_ref("Move"), _ref("HiddenMove")],
    }
    components: dict[str, dict[str, Any]] = {
        "Score": score,
        "Outcome": outcome,
        "Result": RESULT,
        "Options": options,
        "View": _view_schema(),
        **_ruleset_views(),
        "Effect": effect,
        "HiddenMove": _hidden_move(),
        "LoggedMoveBody": logged,
        **WORDS_COMPONENTS,
    }
    for name, component in components.items():
        spec.components.schema(name, component=component)


SHARED_MOVES = {
    "resign": "Give up (any ruleset): the game ends as its rules say a resignation ends it.",
    "undo": "Casual solitaires (option undo): take back your last move still in force.",
}
"""Moves every ruleset that offers them means alike: one component each (`Resign`, `Undo`),
shared by every ruleset's union, so that a resignation is one schema, not five that match."""


def _pascal(text: str) -> str:
    """`royal-ace-assin` -> `RoyalAceAssin`, `choose_suit` -> `ChooseSuit`: component names."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_\s]+", text) if part)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _move_union_name(entry: GameEntry) -> str:
    return _pascal(entry.id) + "Move"


def _move_branch(prefix: str, shape: MoveShape) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """One kind of move as a named component, and the nested objects it names (a Royal
    Ace-assin `place`'s `cards`, a Risus Royale `create`'s `cliches`): every object gets a
    name and a title, so that no generator has to invent one (or drops it as a duplicate)."""
    shared = shape.type in SHARED_MOVES
    name = _pascal(shape.type) if shared else prefix + _pascal(shape.type)
    if name == prefix + "Move":  # Risus Royale's `move` would take its union's name
        name += "Move"
    schema = shape.json_schema()
    schema["properties"]["type"] = {"type": "string", "const": shape.type}
    nested: dict[str, Any] = {}
    for field_name, spec in shape.fields.items():
        if spec.kind == "object":
            nested_name = name + _pascal(field_name)
            nested[nested_name] = {"title": nested_name, **schema["properties"][field_name]}
            schema["properties"][field_name] = _ref(nested_name)
    if shared:
        schema["description"] = SHARED_MOVES[shape.type]
    return name, {"title": name, **schema}, nested


def _move_components(spec: APISpec, entry: GameEntry) -> None:
    """Registers a ruleset's moves: a branch per kind, and their union (`_move_union_name`),
    discriminated by `type`. Shared moves are registered once, by the first ruleset that has
    them."""
    prefix = _pascal(entry.id)
    union = _move_union_name(entry)
    mapping: dict[str, str] = {}
    for shape in entry.ruleset.moves_offered:
        name, branch, nested = _move_branch(prefix, shape)
        for component_name, component in [*nested.items(), (name, branch)]:
            if component_name not in spec.components.schemas:
                spec.components.schema(component_name, component=component)
        mapping[shape.type] = _ref(name)["$ref"]
    legal = entry.view_example()["legal_moves"]
    spec.components.schema(
        union,
        component={
            "title": union,
            "description": f"A move of `{entry.id}`, as its views list them in legal_moves: "
            "exactly one branch per kind of move, chosen by `type`.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
            "examples": legal[:3],
        },
    )


def build_spec() -> APISpec:
    spec = APISpec(
        title="Royal Court API",
        version="1.0.0",
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": DESCRIPTION, "license": {"name": "MIT", "identifier": "MIT"}},
        servers=[
            {"url": "/", "description": "The server that serves this document."},
            {"url": "http://127.0.0.1:8000", "description": "`make run`, on this machine."},
        ],
    )
    spec.components.security_scheme(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "A seat's token."}
    )
    spec.components.security_scheme(
        "playerToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "A player's token: a guest's (`POST /v1/players`) or an account's "
            "session token (`POST /v1/sessions`).",
        },
    )
    _raw_components(spec)
    for schema in (
        schemas.Problem,
        schemas.Game,
        schemas.CreatedGame,
        schemas.JoinedSeat,
        schemas.GameWithView,
        schemas.MoveResult,
        schemas.MoveLog,
        schemas.RulesetList,
        schemas.Health,
        schemas.Record,
        schemas.Verdict,
        schemas.ReplayStep,
        schemas.GameList,
        schemas.DailyChallenges,
        schemas.CreatedPlayer,
        schemas.Leaderboard,
        schemas.SignInRequest,
        schemas.SignInProvider,
        schemas.PlayerProfile,
        schemas.Me,
    ):
        spec.components.schema(schema.__name__, schema=schema)
    variants = []
    for entry in GAMES.values():
        variant = schemas.create_game_variant(entry.ruleset)
        spec.components.schema(variant.__name__, schema=variant)
        if entry.ruleset.deals_may_be_chosen:  # a shared deal takes its seed and options
            spec.components.schemas[variant.__name__]["dependentSchemas"] = {
                "from_game": {
                    "not": {"properties": {"seed": True}, "required": ["seed"]},
                    "properties": {"options": {"maxProperties": 0}},
                    "description": "With `from_game`, no `seed` and no options: the deal and "
                    "its options are the finished game's.",
                }
            }
        variants.append(_ref(variant.__name__))
        _move_components(spec, entry)
    ordered = _specific_first(list(GAMES.values()))
    spec.components.schema("Move", component=_any_move([_move_union_name(e) for e in ordered]))
    view_example = EXAMPLE_GAME.view_example()
    game_example = _game_example(EXAMPLE_GAME)
    first_move = next(m for m in view_example["legal_moves"] if m["type"] != "resign")
    after = _after_first_move(EXAMPLE_GAME, first_move)
    spec.components.schema("MoveRequest", component=_move_request())

    spec.path(
        path="/healthz",
        operations={
            "get": {
                "operationId": "health",
                "summary": "Liveness",
                "responses": {"200": _json("Health", "The server is up.", {"status": "ok"})},
            }
        },
    )
    spec.path(
        path="/v1/rulesets",
        operations={
            "get": {
                "operationId": "listRulesets",
                "summary": "The games on offer, with seats and options",
                "responses": {"200": _json("RulesetList", "Every ruleset.")},
            }
        },
    )
    spec.path(
        path="/v1/games",
        operations={
            "post": {
                "operationId": "createGame",
                "summary": "Deal a new game",
                "description": "Returns your seat's token, once: keep it. "
                "A client-chosen seed makes a "
                "shared deal (everyone can see the seed and re-deal it). For a game of "
                "several seats, `seats` lists each one, human or bot: the creator takes the "
                "first human seat, every other human seat gets a one-time `invite` (see "
                "joinSeat), and bot seats play from their own view as soon as they have a "
                "move, within the request that gave them one (their moves are in `effects`).",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "oneOf": variants,
                                "discriminator": {
                                    "propertyName": "ruleset",
                                    "mapping": dict(
                                        zip(GAMES, [v["$ref"] for v in variants], strict=True)
                                    ),
                                },
                            },
                            "example": {"ruleset": EXAMPLE_GAME.id, "seed": "royal"},
                        }
                    },
                },
                "responses": {
                    "201": _json(
                        "CreatedGame",
                        "The game, the token and seat 0's view.",
                        {
                            "game": game_example,
                            "token": "s3cr3t-t0k3n",
                            "seat": 0,
                            "invites": [],
                            "view": view_example,
                        },
                        headers={
                            "Location": {
                                "schema": {"type": "string"},
                                "description": "/v1/games/{id}",
                            },
                            **ETAG_HEADER,
                        },
                        links=CREATED_LINKS,
                    ),
                    "400": MALFORMED,
                    "413": TOO_LARGE,
                    "422": _problem(
                        "invalid-options",
                        "invalid-body",
                        "unknown-ruleset",
                        "invalid-seed",
                        "invalid-request",
                    ),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/games/{game_id}",
        operations={
            "get": {
                "operationId": "readGame",
                "summary": "A game, as the seat whose token is sent sees it (else a spectator)",
                "description": "Long-poll for the other seat: send `If-None-Match` with the "
                "ETag you have (or a list of them) and `?wait=S` (S <= 25): the answer comes as "
                "soon as the version is none of them, or 304 after S seconds. While waiting "
                f"the server checks the game's version every {WAIT_POLL_SECONDS} s (one small "
                "read: on DynamoDB a one-item Query) and reads the game again only once it has "
                "changed. `court serve` lets only so many requests wait at once (docs/api.md, "
                "Limits): past that a long-poll is answered at once, 304 if unchanged, with "
                "`Retry-After: 1`.",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "wait",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "number", "minimum": 0, "maximum": 25},
                        "description": "Seconds to wait for a change (with If-None-Match).",
                    },
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "The ETag you have: 304 while it is still current.",
                    },
                ],
                "security": [{}, {"seatToken": []}],
                "responses": {
                    "200": _json(
                        "GameWithView",
                        "The game and the view.",
                        {"game": game_example, "view": view_example},
                        headers={**ETAG_HEADER, **PUSH_LINK_HEADER},
                    ),
                    "304": {
                        "description": "Not modified (If-None-Match matched the ETag).",
                        "headers": {
                            **ETAG_HEADER,
                            **PUSH_LINK_HEADER,
                            "Retry-After": {
                                "schema": {"type": "integer"},
                                "description": "Only when no place to wait was free: seconds "
                                "before asking again.",
                            },
                        },
                    },
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "422": _problem("invalid-body"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/games/{game_id}/events",
        operations={
            "get": {
                "operationId": "streamGame",
                "summary": "The game as Server-Sent Events, one per version",
                "description": "Each event's `id` is the game's version and its `data` the "
                "game and the view of the seat whose token is sent (a spectator's without), "
                "exactly the body readGame answers at that version. With `Last-Event-ID` an "
                "event is sent at once only if the game is at another version; `: keep-alive` "
                "comments come every 15 s. `court serve` keeps the stream open (at most "
                "`--streams` per worker and `--streams-per-game`: past them 503 "
                "too-many-streams with Retry-After); elsewhere (Lambda) the stream ends after "
                "one event, or after waiting like a long-poll for one, and the client "
                "reconnects with `Last-Event-ID`. Long-polling readGame stays as the fallback "
                "(docs/api.md, Streams).",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "The last event's id (version) the client has.",
                    },
                    {
                        "name": "wait",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "number", "minimum": 0, "maximum": 25},
                        "description": "A bounded stream (not court serve): seconds to wait "
                        "for a new version when there is none to send at once (default 20).",
                    },
                ],
                "security": [{}, {"seatToken": []}],
                "responses": {
                    "200": {
                        "description": "The stream: `id: <version>` and `data: <GameWithView "
                        "as JSON>` per event, blank-line separated (`id: 3\\ndata: {\"game\": "
                        "{...}, \"view\": {...}}\\n\\n`); `: keep-alive` comments.",
                        "headers": {
                            "Cache-Control": {"schema": {"type": "string"},
                                              "description": "no-store"},
                            "Retry-After": {"schema": {"type": "integer"},
                                            "description": "Only a bounded stream that found "
                                            "no place to wait: seconds before reconnecting."},
                        },
                        "content": {"text/event-stream": {
                            # OpenAPI 3.1 has no schema for the events of a stream: a
                            # `schema` is read as one event by some tools (schemathesis checks
                            # each event against it) and as the whole body by others
                            # (openapi-python-client parses the stream as one object, which
                            # fails mypy; a string fails schemathesis). So the event is declared
                            # beside it, as OpenAPI 3.2's `itemSchema` will hold it: `id` the
                            # version, `data` readGame's 200 body (GameWithView) as JSON text.
                            "x-itemSchema": {
                                "title": "GameEvent",
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string", "pattern": "^[0-9]+$",
                                           "description": "The game's version."},
                                    "data": {"type": "string",
                                             "contentMediaType": "application/json",
                                             "contentSchema": {
                                                 "$ref": "#/components/schemas/GameWithView"}},
                                },
                                "required": ["id", "data"],
                            },
                            "example": encode_event(0, {"game": game_example,
                                                        "view": view_example}).decode(),
                        }},
                    },
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "422": _problem("invalid-body"),
                    "503": _problem("store-unavailable", "too-many-streams"),
                },
            }
        },
    )  # fmt: skip
    spec.path(
        path="/v1/games/{game_id}/seats/{seat}",
        operations={
            "post": {
                "operationId": "joinSeat",
                "summary": "Take a seat with its invite",
                "description": "The invite came in the create response (`invites`); it works "
                "once. Two racing joins of one seat: exactly one wins.",
                "parameters": [
                    GAME_ID,
                    {"name": "seat", "in": "path", "required": True,
                     "schema": {"type": "integer", "minimum": 0}},
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {
                        "schema": {"type": "object", "properties": {"invite": {
                            "type": "string", "minLength": 1, "maxLength": 200}},
                            "required": ["invite"], "additionalProperties": False},
                        "example": {"invite": "iNv1t3"}}},
                },
                "responses": {
                    "201": _json("JoinedSeat", "The seat's token (once: keep it) and view.",
                                 links=CREATED_LINKS),
                    "400": MALFORMED,
                    "403": _problem("wrong-token",
                                    description="Not the invite of that seat."),
                    "404": NOT_FOUND,
                    "409": _problem("seat-taken", "game-finished",
                                    description="The seat has been joined already (an invite "
                                    "works once), or the game is over."),
                    "413": TOO_LARGE,
                    "422": _problem("invalid-body", "invalid-request"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )  # fmt: skip
    _rematch_path(spec)
    spec.path(
        path="/v1/games/{game_id}/moves",
        operations={
            "post": {
                "operationId": "playMove",
                "summary": "Play a move",
                "description": "`version` is the number of moves the client has seen. A retry "
                "with the same `Idempotency-Key` and body returns the same response "
                "and appends nothing. In a game of several seats a seat is stale only when a "
                "move since its version changed what it may do (another seat's sealed "
                "submission in the same simultaneous step does not); a seat that may not move "
                "now gets 409 not-your-turn.",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "schema": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": IDEMPOTENCY_KEY_MAX,
                        },
                        "description": "Makes a retry safe: same key and body, same response.",
                    },
                ],
                "security": [{"seatToken": []}],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/MoveRequest"},
                            "example": {"version": 0, "move": first_move},
                        }
                    },
                },
                "responses": {
                    "201": _json(
                        "MoveResult",
                        "The move was appended.",
                        {
                            "game": game_example | {"version": 1},
                            "view": after.view,
                            "effects": after.effects,
                        },
                        headers=ETAG_HEADER,
                        links=MOVED_LINKS,
                    ),
                    "400": _problem("malformed-json", "bad-idempotency-key"),
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "409": PLAY_CONFLICTS,
                    "413": TOO_LARGE,
                    "422": _problem("illegal-move", "invalid-body", "idempotency-key-reused"),
                    "429": RATE_LIMITED,
                    "503": UNAVAILABLE,
                },
            },
            "get": {
                "operationId": "listMoves",
                "summary": "The move log, with its hash chain",
                "description": "As the requester may see it: another seat's hidden cards and "
                "sealed moves are left out of its move (seq, seat and hash stay) until the "
                "game is over.",
                "security": [{}, {"seatToken": []}],
                "parameters": [GAME_ID],
                "responses": {
                    "200": _json(
                        "MoveLog",
                        "Every move, in order.",
                        {
                            "moves": [
                                {
                                    "seq": 1,
                                    "seat": 0,
                                    "move": first_move,
                                    "at": "2026-11-22T03:26:10.004Z",
                                    "hash": move_hash(
                                        game_example["seed_commitment"], 1, 0, first_move
                                    ),
                                }
                            ]
                        },
                    ),
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "503": UNAVAILABLE,
                },
            },
        },
    )
    _record_paths(spec, game_example, first_move)
    _daily_paths(spec)
    _player_paths(spec)
    spec.path(
        path="/openapi.yaml",
        operations={
            "get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1, YAML.",
                        "content": {"application/yaml": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
    )
    return spec


def _plain(node: Any) -> Any:
    """The spec as plain JSON data: a fresh copy of every shared piece (no YAML anchors, which
    some tools refuse), and each `allOf` of a lone `$ref` (all apispec lets a field's metadata
    say) written as the `$ref` itself, beside its description, as OpenAPI 3.1 allows."""
    if isinstance(node, dict):
        out = {key: _plain(value) for key, value in node.items()}
        lone = out.get("allOf")
        if isinstance(lone, list) and len(lone) == 1 and set(lone[0]) == {"$ref"}:
            del out["allOf"]
            out = {"$ref": lone[0]["$ref"], **out}
        return out
    if isinstance(node, list | tuple):
        return [_plain(item) for item in node]
    return node


def _declared(schema: Any) -> list[str]:
    """Every string a declaration allows by `enum` or `const`, wherever it sits in it."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "enum":
                found += [v for v in value if isinstance(v, str)]
            elif key == "const" and isinstance(value, str):
                found.append(value)
            else:
                found += _declared(value)
    elif isinstance(schema, list):
        for item in schema:
            found += _declared(item)
    return found


def _closed_sets() -> dict[str, list[str]]:
    """The closed sets of strings the games declare, each in the order first declared: every
    `status` (their views'), outcome `result` and `reason` (their outcomes')."""
    sets: dict[str, list[str]] = {"statuses": [], "results": [], "reasons": []}
    for entry in GAMES.values():
        outcome = entry.ruleset.outcome_schema["properties"]
        for name, values in (
            ("statuses", _declared(entry.ruleset.view_schema["properties"]["status"])),
            ("results", _declared(outcome.get("result"))),
            ("reasons", _declared(outcome.get("reason"))),
        ):
            sets[name] += [v for v in values if v not in sets[name]]
    return sets


def _fill_enums(node: Any, sets: dict[str, list[str]]) -> Any:
    """Each `x-enum` marker (handlers/http/schemas.py) written out as the `enum` it names, null
    included where the field may be null."""
    if isinstance(node, list):
        return [_fill_enums(item, sets) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _fill_enums(value, sets) for key, value in node.items() if key != "x-enum"}
    if "x-enum" in node:
        types = out.get("type")
        nullable = isinstance(types, list) and "null" in types
        out["enum"] = [*sets[node["x-enum"]], *([None] if nullable else [])]
    return out


def _nullable_enums(node: Any) -> Any:
    """Each nullable enum (`type: [string, null]`, null among its values) written as `anyOf`
    the enum and null: generators read that as "this enum or None", where the type list made
    openapi-python-client invent three models for one field."""
    if isinstance(node, list):
        return [_nullable_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _nullable_enums(value) for key, value in node.items()}
    types, values = out.get("type"), out.get("enum")
    if isinstance(types, list) and "null" in types and isinstance(values, list) and None in values:
        (kind,) = [t for t in types if t != "null"]
        enum = {"type": kind, "enum": [v for v in values if v is not None]}
        rest = {k: v for k, v in out.items() if k not in ("type", "enum")}
        out = {"anyOf": [enum, {"type": "null"}], **rest}
    return out


def render() -> str:
    document = _nullable_enums(_fill_enums(_plain(build_spec().to_dict()), _closed_sets()))
    for operations in document["paths"].values():
        for method, operation in operations.items():
            # An operation that names no security is public: said so, not left to be guessed.
            if method in HTTP_METHODS:
                operation.setdefault("security", [])
    text: str = yaml.dump(document, sort_keys=False, allow_unicode=True, width=100)
    return text


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
