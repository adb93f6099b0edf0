"""The HTTP API (version 1): thin Flask views over the game service.

Each view parses and validates with marshmallow, calls the service, and shapes the response.
Every error is an RFC 9457 problem (`application/problem+json`) and appends nothing.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, request
from flask_cors import CORS
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.deal import InvalidSeed
from domain.options import InvalidOptions
from domain.registry import UnknownRuleset
from domain.ruleset import IllegalMove
from domain.service import (
    Forbidden,
    GameFinished,
    GameNotFound,
    GameService,
    IdempotencyMismatch,
    StaleVersion,
    Unauthenticated,
)
from domain.store import StoreUnavailable
from handlers.schemas import CreateGameRequest, MoveRequest

MAX_BODY_BYTES = 16 * 1024
PROBLEM_TYPE = "urn:royal-court:problem:"
OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
access_log = logging.getLogger("royal_court.access")

_create_schema = CreateGameRequest()
_move_schema = MoveRequest()


class Problem(Exception):
    """An error response: status, a short slug for the `type` URI, and extension members."""

    def __init__(
        self,
        status: int,
        slug: str,
        title: str,
        detail: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail or title)
        self.status, self.slug, self.title, self.detail = status, slug, title, detail
        self.headers = headers or {}
        self.extra = extra

    def response(self) -> Response:
        body: dict[str, Any] = {
            "type": PROBLEM_TYPE + self.slug,
            "title": self.title,
            "status": self.status,
        }
        if self.detail:
            body["detail"] = self.detail
        body.update(self.extra)
        resp = Response(json.dumps(body), status=self.status, mimetype="application/problem+json")
        for name, value in self.headers.items():
            resp.headers[name] = value
        return resp


def _problem_for(error: Exception) -> Problem:
    """The one mapping from service and domain errors to HTTP."""
    if isinstance(error, Problem):
        return error
    if isinstance(error, ValidationError):
        messages = error.messages if isinstance(error.messages, dict) else {"_": error.messages}
        return Problem(
            422,
            "invalid-body",
            "The request body is not valid",
            "see `errors` for each field",
            errors=messages,
        )
    if isinstance(error, InvalidOptions):
        return Problem(422, "invalid-options", "Invalid options", str(error), errors=error.errors)
    if isinstance(error, InvalidSeed):
        return Problem(422, "invalid-seed", "Invalid seed", str(error))
    if isinstance(error, UnknownRuleset):
        return Problem(422, "unknown-ruleset", "Unknown ruleset", str(error))
    if isinstance(error, IllegalMove):
        return Problem(
            422,
            "illegal-move",
            "Illegal move",
            error.reason,
            reason=error.reason,
            legal_moves=error.legal_moves,
        )
    if isinstance(error, IdempotencyMismatch):
        return Problem(422, "idempotency-key-reused", "Idempotency-Key reused", str(error))
    if isinstance(error, GameNotFound):
        return Problem(404, "game-not-found", "No such game", str(error))
    if isinstance(error, Unauthenticated):
        return Problem(
            401,
            "token-required",
            "Token required",
            str(error),
            headers={"WWW-Authenticate": 'Bearer realm="royal-court"'},
        )
    if isinstance(error, Forbidden):
        return Problem(403, "wrong-token", "Not a token of this game", str(error))
    if isinstance(error, StaleVersion):
        return Problem(
            409,
            "stale-version",
            "Stale version",
            f"the game is at version {error.current_version}; reload and retry",
            current_version=error.current_version,
        )
    if isinstance(error, GameFinished):
        return Problem(409, "game-finished", "The game is over", str(error))
    if isinstance(error, StoreUnavailable):
        # The cause (error code and message) is for the operator's log; the client is told
        # only to come back, which is all it can act on.
        logging.getLogger("royal_court").warning("store unavailable: %s", error)
        return Problem(
            503,
            "store-unavailable",
            "Temporarily unavailable",
            "the game store is busy; retry shortly",
            headers={"Retry-After": str(error.retry_after)},
        )
    if isinstance(error, HTTPException):
        code = error.code or 500
        slug = {
            400: "malformed-request",
            404: "not-found",
            405: "method-not-allowed",
            413: "body-too-large",
        }.get(code, "http-error")
        problem = Problem(code, slug, error.name, error.description)
        if code == 405 and error.get_headers():
            problem.headers.update({k: v for k, v in error.get_headers() if k == "Allow"})
        return problem
    logging.getLogger("royal_court").exception("unhandled error")
    return Problem(500, "internal-error", "Internal error", "the error has been logged")


def _json_body() -> Any:
    data = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH
    if len(data) > MAX_BODY_BYTES:
        raise Problem(
            413,
            "body-too-large",
            "Request body too large",
            f"bodies are limited to {MAX_BODY_BYTES} bytes",
        )
    if not data.strip():
        raise Problem(400, "malformed-json", "Malformed JSON", "a JSON body is required")
    try:
        return json.loads(data, parse_constant=_not_json)
    except RecursionError:
        raise Problem(400, "malformed-json", "Malformed JSON", "nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise Problem(400, "malformed-json", "Malformed JSON", str(e)) from None


def _not_json(name: str) -> Any:
    """NaN and Infinity are not JSON (RFC 8259), though Python's parser takes them."""
    raise ValueError(f"{name} is not valid JSON")


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("use Authorization: Bearer <token>")
    return token.strip()


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 255 and key.isprintable()):
        raise Problem(
            400,
            "bad-idempotency-key",
            "Bad Idempotency-Key",
            "an Idempotency-Key is 1 to 255 printable characters",
        )
    return key


def _json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    resp = Response(json.dumps(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def _etag(version: int) -> str:
    return f'"{version}"'


def create_app(
    service: GameService,
    *,
    cors_origins: Sequence[str] | str = "*",
    docs_enabled: bool = True,
) -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    CORS(
        app,
        origins=cors_origins,
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-None-Match"],
        expose_headers=["ETag", "Location", "Retry-After"],
        max_age=600,
    )

    @app.errorhandler(Exception)
    def handle_error(error: Exception) -> Response:
        return _problem_for(error).response()

    @app.before_request
    def start_timer() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def log_request(response: Response) -> Response:
        started = g.get("started")
        elapsed = (time.perf_counter() - started) * 1000 if started else 0.0
        game_id = (request.view_args or {}).get("game_id") or g.get("created_game_id")
        access_log.info(
            json.dumps(
                {
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "ms": round(elapsed, 2),
                    "game_id": game_id,
                }
            )
        )
        return response

    @app.get("/healthz")
    def healthz() -> Response:
        return _json({"status": "ok"})

    @app.get("/v1/rulesets")
    def rulesets() -> Response:
        return _json({"rulesets": service.rulesets()})

    @app.post("/v1/games")
    def create_game() -> Response:
        body = _create_schema.load(_json_body())
        snap = service.create_game(body["ruleset"], body["options"], body.get("seed"))
        game_id = g.created_game_id = snap.game["id"]
        return _json(
            {"game": snap.game, "token": snap.token, "view": snap.view},
            201,
            {"Location": f"/v1/games/{game_id}", "ETag": _etag(snap.game["version"])},
        )

    @app.get("/v1/games/<game_id>")
    def read_game(game_id: str) -> Response:
        snap = service.read_game(game_id, _bearer_token())
        etag = _etag(snap.game["version"])
        headers = {"ETag": etag, "Vary": "Authorization", "Cache-Control": "no-cache"}
        if request.headers.get("If-None-Match") == etag:
            resp = Response(status=304)
            resp.headers.update(headers)
            return resp
        return _json({"game": snap.game, "view": snap.view}, 200, headers)

    @app.post("/v1/games/<game_id>/moves")
    def play(game_id: str) -> Response:
        token = _bearer_token()
        key = _idempotency_key()
        body = _move_schema.load(_json_body())
        snap = service.play(game_id, token, body["version"], body["move"], key)
        headers = {"ETag": _etag(snap.game["version"])}
        return _json({"game": snap.game, "view": snap.view, "effects": snap.effects}, 201, headers)

    @app.get("/v1/games/<game_id>/moves")
    def moves(game_id: str) -> Response:
        return _json({"moves": service.moves(game_id)})

    @app.get("/openapi.yaml")
    def openapi() -> Response:
        return Response(_openapi_text(), mimetype="application/yaml")

    if docs_enabled:
        _add_docs(app)
    return app


_openapi_cache: list[bytes] = []


def _openapi_text() -> bytes:
    """The committed spec, read once: no YAML parsing and no apispec on the request path."""
    if not _openapi_cache:
        _openapi_cache.append(OPENAPI_PATH.read_bytes())
    return _openapi_cache[0]


def _add_docs(app: Flask) -> None:
    """Swagger UI from the flask-swagger-ui package's own files: no CDN."""
    from flask_swagger_ui import get_swaggerui_blueprint

    blueprint = get_swaggerui_blueprint(
        "/docs", "/openapi.yaml", config={"app_name": "Royal Court API"}
    )
    app.register_blueprint(blueprint)
