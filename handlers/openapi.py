"""Generates openapi.yaml (OpenAPI 3.1) from the marshmallow schemas with apispec.

Run `make openapi` after changing the API; a test fails while the committed file is stale.
This module is never imported on the request path: the server serves the committed file.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from domain.capabilities import GameEntry
from domain.deal import seed_commitment
from domain.playthrough import Playthrough
from domain.record import RECORD_FORMAT, move_hash
from domain.registry import GAMES
from domain.verify import verify
from handlers import schemas
from handlers.app import MAX_BODY_BYTES, WAIT_POLL_SECONDS
from handlers.problems import KINDS

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
    if "store-unavailable" in slugs or "too-many-requests" in slugs:
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
    description="`court serve` only: this client address created too many games or players "
    "lately (per-client limits, docs/api.md). Retry after `Retry-After` seconds.",
)
NOT_FOUND = _problem("game-not-found")
MALFORMED = _problem("malformed-json")
TOO_LARGE = _problem("body-too-large", description=f"The body is over {MAX_BODY_BYTES} bytes.")
FORBIDDEN = _problem("wrong-token")

GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "The id returned when the game was created.",
}
ETAG_HEADER = {"ETag": {"schema": {"type": "string"}, "description": 'The version, e.g. "3".'}}

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


def _move_request(move_variants: list[dict[str, str]]) -> dict[str, Any]:
    """The move body: `version`, and a move of one of the rulesets (each declared by its
    game), so that any client can build and check its moves from this document alone."""
    return {
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
                "oneOf": move_variants,
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
                    {"name": "ruleset", "in": "query", "schema": {"type": "string"}},
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


def _daily_paths(spec: APISpec) -> None:
    """Daily challenges: the day's deals, players, ranked attempts and leaderboards."""
    date = {"name": "date", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "YYYY-MM-DD (UTC), or `today`."}  # fmt: skip
    ruleset = {"name": "ruleset", "in": "path", "required": True, "schema": {"type": "string"}}
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
                    "201": _json("CreatedPlayer", "The player and its token, once."),
                    "400": MALFORMED,
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
                "security": [player, {}],
                "responses": {
                    "201": _json("CreatedGame", "The game, its seat token and view."),
                    "401": _problem("token-required"),
                    "403": _problem("wrong-token"),
                    "404": _problem("daily-not-found"),
                    "409": _problem("already-played"),
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
                    "403": _problem("wrong-token"),
                    "404": _problem("daily-not-found"),
                    "422": _problem("invalid-request", "invalid-body", "unknown-ruleset"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )


def _move_variant_name(entry: GameEntry) -> str:
    return "".join(part.title() for part in entry.id.split("-")) + "Move"


def build_spec() -> APISpec:
    spec = APISpec(
        title="Royal Court API",
        version="1.0.0",
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": DESCRIPTION, "license": {"name": "MIT"}},
    )
    spec.components.security_scheme(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "A seat's token."}
    )
    spec.components.security_scheme(
        "playerToken",
        {"type": "http", "scheme": "bearer", "description": "A player's token (daily games)."},
    )
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
    ):
        spec.components.schema(schema.__name__, schema=schema)
    variants = []
    move_variants = []
    for entry in GAMES.values():
        variant = schemas.create_game_variant(entry.ruleset)
        spec.components.schema(variant.__name__, schema=variant)
        variants.append({"$ref": f"#/components/schemas/{variant.__name__}"})
        legal = entry.view_example()["legal_moves"]
        spec.components.schema(
            _move_variant_name(entry),
            component=entry.move_schema()
            | {
                "description": f"A move of `{entry.id}`, as its views list them in legal_moves.",
                "examples": legal[:3],
            },
        )
        move_variants.append({"$ref": f"#/components/schemas/{_move_variant_name(entry)}"})
    view_example = EXAMPLE_GAME.view_example()
    game_example = _game_example(EXAMPLE_GAME)
    first_move = next(m for m in view_example["legal_moves"] if m["type"] != "resign")
    after = _after_first_move(EXAMPLE_GAME, first_move)
    spec.components.schema("MoveRequest", component=_move_request(move_variants))

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
                            "schema": {"oneOf": variants},
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
                        headers=ETAG_HEADER,
                    ),
                    "304": {
                        "description": "Not modified (If-None-Match matched the ETag).",
                        "headers": {
                            **ETAG_HEADER,
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
                    "201": _json("JoinedSeat", "The seat's token (once: keep it) and view."),
                    "400": MALFORMED,
                    "403": _problem("wrong-token",
                                    description="Not the invite of that seat."),
                    "404": NOT_FOUND,
                    "409": _problem("seat-taken"),
                    "413": TOO_LARGE,
                    "422": _problem("invalid-body", "invalid-request"),
                    "503": UNAVAILABLE,
                },
            }
        },
    )  # fmt: skip
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
                        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
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
                    ),
                    "400": MALFORMED,
                    "401": _problem("token-required"),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "409": _problem("stale-version", "game-finished", "not-your-turn"),
                    "413": TOO_LARGE,
                    "422": _problem("illegal-move", "invalid-body", "idempotency-key-reused"),
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
                    "404": NOT_FOUND,
                    "503": UNAVAILABLE,
                },
            },
        },
    )
    _record_paths(spec, game_example, first_move)
    _daily_paths(spec)
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


def render() -> str:
    return build_spec().to_yaml({"sort_keys": False, "allow_unicode": True, "width": 100})


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
