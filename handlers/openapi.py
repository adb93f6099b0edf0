"""Generates openapi.yaml (OpenAPI 3.1) from the marshmallow schemas with apispec.

Run `make openapi` after changing the API; a test fails while the committed file is stale.
This module is never imported on the request path: the server serves the committed file.
"""

from __future__ import annotations

import sys
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from domain.registry import RULESETS
from handlers import schemas
from handlers.app import MAX_BODY_BYTES, PROBLEM_TYPE

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


def _problem(description: str, slug: str, title: str, status: int, **extra: Any) -> dict[str, Any]:
    example = {"type": PROBLEM_TYPE + slug, "title": title, "status": status, **extra}
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": "Problem", "example": example}},
    }


def _json(schema: str, description: str, example: Any = None, **extra: Any) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}, **extra}


UNAVAILABLE = _problem(
    "The store is throttling or failing: retry after `Retry-After` seconds.",
    "store-unavailable",
    "Temporarily unavailable",
    503,
    detail="the game store is busy; retry shortly",
) | {"headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds."}}}
NOT_FOUND = _problem(
    "No game has this id.", "game-not-found", "No such game", 404, detail="no game 'nope'"
)
MALFORMED = _problem(
    "The body is not JSON (or is empty).",
    "malformed-json",
    "Malformed JSON",
    400,
    detail="Expecting value: line 1 column 1 (char 0)",
)
TOO_LARGE = _problem(
    f"The body is over {MAX_BODY_BYTES} bytes.", "body-too-large", "Request body too large", 413
)
FORBIDDEN = _problem(
    "The token is not a token of a seat of this game.",
    "wrong-token",
    "Not a token of this game",
    403,
)

CHAIN_EXAMPLE = "f432386221aaa486b529c46bb5423362f4c1a02fad4c38dfe8f3b0a62d61cd62"
GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "The id returned when the game was created.",
}
ETAG_HEADER = {"ETag": {"schema": {"type": "string"}, "description": 'The version, e.g. "3".'}}

VIEW_EXAMPLE = {
    "status": "playing",
    "current": "6C",
    "reserve": ["4S", "2C", "4H", "4D", "7C", "6H", "4C", "5D", "TS", "2D"],
    "stock_count": 37,
    "columns": {
        "clubs": [{"card": "JC", "role": "royal"}],
        "diamonds": [],
        "hearts": [{"card": "JH", "role": "royal"}, {"card": "QH", "role": "royal"}],
        "spades": [{"card": "KS", "role": "royal"}],
    },
    "jokers": {"in_hand": ["X1"], "above": {}},
    "discard_count": 0,
    "legal_moves": [
        {"type": "attack", "column": "hearts"},
        {"type": "reserve"},
        {"type": "resign"},
    ],
    "outcome": None,
}
GAME_EXAMPLE = {
    "id": "q0Vh3lJx8u1kZbH9sWcR4Agq0Vh3lJx8",
    "ruleset": "royal-assassin",
    "options": {
        "jokers_in_deck": False,
        "setup_royals": None,
        "new_royal_beneath": False,
        "joker_discarded": False,
        "exact_cancel_only": False,
        "ace_low_after_play": False,
        "recycle_reserve": False,
    },
    "version": 0,
    "status": "playing",
    "seed_commitment": "aa43038afb6314a3b24c02613eb13eb4821b24187af19c86431563f46f11ce6f",
    "seed_known": True,
    "created_at": "2026-11-22T03:25:59.123Z",
    "outcome": None,
    "seed": "royal",
}


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
    for schema in (
        schemas.Problem,
        schemas.Game,
        schemas.CreatedGame,
        schemas.GameWithView,
        schemas.MoveResult,
        schemas.MoveLog,
        schemas.RulesetList,
        schemas.Health,
        schemas.MoveRequest,
    ):
        spec.components.schema(schema.__name__, schema=schema)
    variants = []
    for ruleset in RULESETS.values():
        variant = schemas.create_game_variant(ruleset)
        spec.components.schema(variant.__name__, schema=variant)
        variants.append({"$ref": f"#/components/schemas/{variant.__name__}"})

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
                "description": "Returns seat 0's token, once: keep it. "
                "A client-chosen seed makes a "
                "shared deal (everyone can see the seed and re-deal it).",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"oneOf": variants},
                            "example": {
                                "ruleset": "royal-assassin",
                                "seed": "royal",
                                "options": {"recycle_reserve": True},
                            },
                        }
                    },
                },
                "responses": {
                    "201": _json(
                        "CreatedGame",
                        "The game, the token and seat 0's view.",
                        {"game": GAME_EXAMPLE, "token": "s3cr3t-t0k3n", "view": VIEW_EXAMPLE},
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
                        "Unknown or mistyped fields, an unknown ruleset, bad options or a "
                        "bad seed.",
                        "invalid-options",
                        "Invalid options",
                        422,
                        detail="setup_royals: must be at most 12",
                        errors={"setup_royals": "must be at most 12"},
                    ),
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
                "parameters": [GAME_ID],
                "security": [{}, {"seatToken": []}],
                "responses": {
                    "200": _json(
                        "GameWithView",
                        "The game and the view.",
                        {"game": GAME_EXAMPLE, "view": VIEW_EXAMPLE},
                        headers=ETAG_HEADER,
                    ),
                    "304": {
                        "description": "Not modified (If-None-Match matched the ETag).",
                        "headers": ETAG_HEADER,
                    },
                    "401": _problem(
                        "The Authorization header is not `Bearer <token>`.",
                        "token-required",
                        "Token required",
                        401,
                    ),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "503": UNAVAILABLE,
                },
            }
        },
    )
    spec.path(
        path="/v1/games/{game_id}/moves",
        operations={
            "post": {
                "operationId": "playMove",
                "summary": "Play a move",
                "description": "`version` is the number of moves the client has seen. A retry "
                "with the same `Idempotency-Key` and body returns the same response "
                "and appends nothing.",
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
                            "schema": "MoveRequest",
                            "example": {
                                "version": 0,
                                "move": {"type": "attack", "column": "hearts"},
                            },
                        }
                    },
                },
                "responses": {
                    "201": _json(
                        "MoveResult",
                        "The move was appended.",
                        {
                            "game": GAME_EXAMPLE | {"version": 1},
                            "view": VIEW_EXAMPLE,
                            "effects": [
                                {"type": "reserve", "card": "3C"},
                                {"type": "forced", "seat": 0, "move": {"type": "draw"}},
                                {"type": "draw", "card": "KH"},
                                {"type": "royal", "card": "KH", "column": "hearts"},
                                {"type": "forced", "seat": 0, "move": {"type": "draw"}},
                                {"type": "draw", "card": "7D"},
                            ],
                        },
                        headers=ETAG_HEADER,
                    ),
                    "400": MALFORMED,
                    "401": _problem(
                        "No token was sent.",
                        "token-required",
                        "Token required",
                        401,
                        detail="a move needs the seat's token",
                    ),
                    "403": FORBIDDEN,
                    "404": NOT_FOUND,
                    "409": _problem(
                        "The version is stale (another move came first), or the game is over.",
                        "stale-version",
                        "Stale version",
                        409,
                        detail="the game is at version 3; reload and retry",
                        current_version=3,
                    ),
                    "413": TOO_LARGE,
                    "422": _problem(
                        "An invalid body, a reused Idempotency-Key, or an illegal "
                        "move (with the reason and the legal moves).",
                        "illegal-move",
                        "Illegal move",
                        422,
                        detail="there is no current card to put on the reserve",
                        reason="there is no current card to put on the reserve",
                        legal_moves=[{"type": "draw"}, {"type": "resign"}],
                    ),
                    "503": UNAVAILABLE,
                },
            },
            "get": {
                "operationId": "listMoves",
                "summary": "The move log, with its hash chain",
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
                                    "move": {"type": "attack", "column": "hearts"},
                                    "at": "2026-11-22T03:26:10.004Z",
                                    "hash": CHAIN_EXAMPLE,
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
