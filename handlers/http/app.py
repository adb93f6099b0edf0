"""The HTTP API (version 1): thin Flask views over the game service.

Each view parses and validates with marshmallow, calls the service, and shapes the response.
Every error is an RFC 9457 problem (`application/problem+json`) and appends nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, g, request, send_from_directory
from flask_cors import CORS

from domain.errors import Json, Unauthenticated
from domain.service import GameService, Snapshot
from domain.stored import IDEMPOTENCY_KEY_MAX
from domain.verify import nested_too_deeply, verify
from handlers.http import presenter as present
from handlers.http.events import (
    CONTENT_TYPE,
    HEARTBEAT,
    HUB_KEY,
    TICKET_KEY,
    GameEvents,
    Ticket,
    encode_event,
    last_event_id,
    news,
)
from handlers.http.limits import RateLimiter
from handlers.http.problems import IDEMPOTENCY_KEY_RULE, Problem, problem_for
from handlers.http.schemas import (
    CreateGameRequest,
    JoinRequest,
    LeaderboardQuery,
    ListGamesQuery,
    MoveRequest,
    PlayerRequest,
    ReadGameQuery,
    ReplayQuery,
    SignInRequest,
)

MAX_BODY_BYTES = 16 * 1024
MAX_RECORD_BYTES = 1024 * 1024  # a record to verify: thousands of moves
TOP = Path(__file__).resolve().parents[2]
"""What holds the packages (the checkout, the Lambda artifact's root, site-packages): the spec
and the web client are read beside them."""
OPENAPI_PATH = TOP / "openapi.yaml"
WEB_ROOT = TOP / "web"
"""The web client as served: its page, style and bundle (pyproject.toml's package data)."""
WEB_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The web client's pages: only its own files, no inline script, no framing."""
DOCS_CSP = (
    "default-src 'self'; script-src 'self'{scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Swagger UI (`/docs`): its own files, its one inline script by hash, no framing. Its
components set inline styles, which is all 'unsafe-inline' allows here."""
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)
access_log = logging.getLogger("royal_court.access")

_create_schema = CreateGameRequest()
_move_schema = MoveRequest()
_list_schema = ListGamesQuery()
_replay_schema = ReplayQuery()
_player_schema = PlayerRequest()
_sign_in_schema = SignInRequest()
_leaderboard_schema = LeaderboardQuery()
_join_schema = JoinRequest()
_read_schema = ReadGameQuery()
WAIT_POLL_SECONDS = 0.5
"""How often a long-poll (`?wait=`) checks the game's version while it waits: one small store
read each time (`GameStore.version`); the game is read whole only once it has changed."""
FINISHED_POLL_SECONDS = 2.0
"""How often a long-poll of a finished game reads it (whole) for a rematch dealt meanwhile:
the only change a finished game may still see, and one that is no new version."""
WAIT_RETRY_SECONDS = 1
"""`Retry-After` of a long-poll answered at once because every waiting place was taken."""
STREAM_WAIT_SECONDS = 20.0
"""How long the Flask route's bounded stream waits for the next version when it has nothing
new to send at once (`?wait=` sets it, at most 25 like a long-poll), before it ends."""
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""An event stream is never cached, nor buffered by a proxy (nginx reads X-Accel-Buffering)."""


def _no_body_past_limit() -> None:
    """For a POST that reads no body: one past the limit is still a 413, as everywhere."""
    if len(request.get_data(cache=True)) > MAX_BODY_BYTES:
        raise Problem("body-too-large", f"bodies here are limited to {MAX_BODY_BYTES} bytes")


def _json_body(limit: int = MAX_BODY_BYTES, *, record: bool = False) -> Any:
    """The body as JSON: a 413 past `limit`, a 400 problem for anything that is not JSON.

    For a `record` to verify, any JSON at all is taken: a number Python cannot hold (1e999,
    an integer of thousands of digits) becomes a string saying so, which the verdict then
    names; JSON nested past what can be parsed raises RecursionError, for a verdict too."""
    data = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH
    if len(data) > limit:
        raise Problem("body-too-large", f"bodies here are limited to {limit} bytes")
    if not data.strip():
        raise Problem("malformed-json", "a JSON body is required")
    try:
        if record:
            return json.loads(
                data, parse_constant=_not_json, parse_float=_kept_float, parse_int=_kept_int
            )
        return json.loads(data, parse_constant=_not_json, parse_float=_finite_float)
    except RecursionError:
        if record:  # the caller answers it: a verdict
            raise
        raise Problem("malformed-json", "nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise Problem("malformed-json", str(e)) from None


def _not_json(name: str) -> Any:
    """NaN and Infinity are not JSON (RFC 8259), though Python's parser takes them."""
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    """A number too large for a float (1e999) would come back as Infinity, which is no JSON."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _kept_float(text: str) -> float | str:
    value = float(text)
    return value if math.isfinite(value) else f"<a number out of range: {text[:40]}>"


def _kept_int(text: str) -> int | str:
    return int(text) if len(text) <= 4000 else f"<an integer of {len(text)} digits>"


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
    if key is not None and not (1 <= len(key) <= IDEMPOTENCY_KEY_MAX and key.isprintable()):
        raise Problem("bad-idempotency-key", f"an Idempotency-Key is {IDEMPOTENCY_KEY_RULE}")
    return key


def _json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(body), status, headers, mimetype="application/json")


def _etag(version: int | str) -> str:
    return f'"{version}"'


def _game_tag(game: Any) -> str:
    """What a read's ETag says of a game: its version, and `r` once it has its rematch (the
    one change to a game that is no move: a read with the version alone must not be 304)."""
    return f"{game['version']}r" if "rematch" in game else str(game["version"])


def _if_none_match(version: int | str) -> bool:
    """Whether the request's If-None-Match matches this version's ETag: one of a list, or `*`
    (RFC 9110: weak comparison)."""
    return request.if_none_match.contains_weak(str(version))


def _client_gone() -> bool:
    """Whether the client has hung up (waitress tells; the test client never does)."""
    gone = request.environ.get("waitress.client_disconnected")
    return bool(gone is not None and gone())


def _limited(limiter: RateLimiter | None, what: str) -> None:
    """429 if this client has created too many `what` lately (docs/api.md, "Limits")."""
    if limiter is None:
        return
    wait = limiter.take(request.remote_addr)
    if wait:
        raise Problem(
            "too-many-requests",
            f"at most {limiter.per_minute:g} {what} a minute from one address; retry in {wait} s",
            {"Retry-After": str(wait)},
        )


def _api_headers(response: Response) -> Response:
    """Every /v1 answer may carry a token or a seat's private view, or depends on the
    Authorization header: no cache may keep it, and any cache must key it by that header.
    `Vary` values (flask-cors adds `Origin`) are merged into one header."""
    if request.path.startswith("/v1/"):
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers.add("Vary", "Authorization")
    values = response.headers.getlist("Vary")
    if len(values) > 1 or request.path.startswith("/v1/"):
        merged: dict[str, str] = {}
        for value in values:
            for name in value.split(","):
                if name.strip():
                    merged.setdefault(name.strip().lower(), name.strip())
        response.headers["Vary"] = ", ".join(merged.values())
    return response


class CourtFlask(Flask):
    """Flask, less the check of every view and hook for a coroutine at every request (five
    `inspect` calls a request, a tenth of its routing's time): none is async here."""

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return func


def create_app(
    service: GameService,
    *,
    cors_origins: Sequence[str] | str = "*",
    docs_enabled: bool = True,
    long_polls: int | None = None,
    games_per_minute: float = 0,
    players_per_minute: float = 0,
    moves_per_minute: float = 0,
    costly_reads_per_minute: float = 0,
    push_url: str | None = None,
) -> Flask:
    """The API over `service`.

    `long_polls`: at most this many requests wait at once (`?wait=`); another is answered at
    once, with `Retry-After` (None: no bound; `court serve` passes its `--long-polls`).
    `games_per_minute`, `players_per_minute`, `moves_per_minute`, `costly_reads_per_minute`:
    per-client rate limits on creating games and players, on moves (each a stored row), and
    on the reads that replay a game or read a whole body (records, replay steps,
    verifications) (0: none; `court serve` turns them on).
    """
    app = CourtFlask(__name__)
    # `/v1//games` is no route: a 404 problem, not werkzeug's HTML redirect to the client's
    # own Host header.
    app.url_map.merge_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_RECORD_BYTES  # each route sets its own, lower
    app.config.update(
        LONG_POLLS=long_polls,
        GAMES_PER_MINUTE=games_per_minute,
        PLAYERS_PER_MINUTE=players_per_minute,
        MOVES_PER_MINUTE=moves_per_minute,
        COSTLY_READS_PER_MINUTE=costly_reads_per_minute,
    )
    waiting = None if long_polls is None else threading.BoundedSemaphore(max(0, long_polls))
    web_csp = WEB_CSP
    if push_url:
        push_origin = "/".join(push_url.split("/", 3)[:3])  # wss://host[:port]
        web_csp = WEB_CSP.replace("connect-src 'self'", f"connect-src 'self' {push_origin}")
    events = app.extensions["royal_court.events"] = GameEvents(service)
    games_limit = RateLimiter(games_per_minute) if games_per_minute > 0 else None
    players_limit = RateLimiter(players_per_minute) if players_per_minute > 0 else None
    moves_limit = RateLimiter(moves_per_minute) if moves_per_minute > 0 else None
    costly_limit = RateLimiter(costly_reads_per_minute) if costly_reads_per_minute > 0 else None
    costly = "records, replay steps, verifications and profiles"
    # Registered before flask-cors's own hook, so it runs after it (Flask runs them in
    # reverse) and sees its `Vary: Origin`.
    app.after_request(_api_headers)
    CORS(
        app,
        origins=cors_origins,
        allow_headers=[
            "Authorization",
            "Content-Type",
            "Idempotency-Key",
            "If-None-Match",
            "Last-Event-ID",
        ],
        expose_headers=["ETag", "Location", "Retry-After", "Content-Disposition", "Link"],
        max_age=600,
    )

    @app.errorhandler(Exception)
    def handle_error(error: Exception) -> Response:
        return problem_for(error).response()

    @app.before_request
    def start_timer() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def log_request(response: Response) -> Response:
        if not access_log.isEnabledFor(logging.INFO):
            return response  # (a line nobody keeps is not written)
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

    def _created(snap: Snapshot) -> Response:
        """A new game and the seat's token (create, rematch): 201, where it is, its version."""
        game_id = g.created_game_id = snap.game["id"]
        out = {"game": present.game(snap.game), "token": snap.token, "seat": snap.seat,
               "invites": present.invites(game_id, snap.invites), "view": snap.view}  # fmt: skip
        if snap.effects:
            out["effects"] = snap.effects
        return _json(
            out, 201, {"Location": f"/v1/games/{game_id}", "ETag": _etag(snap.game["version"])}
        )

    @app.post("/v1/games")
    def create_game() -> Response:
        _limited(games_limit, "games")
        body = _create_schema.load(_json_body())
        snap = service.create_game(
            body["ruleset"], body["options"], body.get("seed"), body.get("from_game"),
            body.get("seats"),
        )  # fmt: skip
        return _created(snap)

    @app.post("/v1/games/<game_id>/rematch")
    def rematch(game_id: str) -> Response:
        _no_body_past_limit()
        _limited(games_limit, "games")
        return _created(service.rematch(game_id, _bearer_token()))

    @app.post("/v1/games/<game_id>/seats/<int:seat>")
    def join(game_id: str, seat: int) -> Response:
        body = _join_schema.load(_json_body())
        snap = service.join(game_id, seat, body["invite"])
        return _json(
            {
                "seat": snap.seat,
                "token": snap.token,
                "game": present.game(snap.game),
                "view": snap.view,
            },
            201,
            {"Location": f"/v1/games/{game_id}", "ETag": _etag(snap.game["version"])},
        )

    @app.get("/v1/games/<game_id>")
    def read_game(game_id: str) -> Response:
        query = _read_schema.load(request.args.to_dict())
        token = _bearer_token()
        snap = service.read_game(game_id, token)
        headers = {}
        wait = query.get("wait", 0.0)
        # `*` matches every version: waiting could never end in anything but 304.
        if wait > 0 and _if_none_match(_game_tag(snap.game)) and not request.if_none_match.star_tag:
            if waiting is None or waiting.acquire(blocking=False):
                try:
                    snap = _wait_for_change(game_id, token, snap, time.monotonic() + wait)
                finally:
                    if waiting is not None:
                        waiting.release()
            else:  # every waiting place is taken: the state now, and when to ask again
                headers["Retry-After"] = str(WAIT_RETRY_SECONDS)
        headers["ETag"] = _etag(_game_tag(snap.game))
        if push_url:  # the id is a stored game's: URL-safe
            headers["Link"] = f'<{push_url}?game={snap.game["id"]}>; rel="push"'
        if _if_none_match(_game_tag(snap.game)):
            resp = Response(status=304)
            resp.headers.update(headers)
            return resp
        return _json(present.game_with_view(snap.game, snap.view), 200, headers)

    def _wait_for_change(
        game_id: str,
        token: str | None,
        snap: Any,
        deadline: float,
        same: Callable[[Json], bool] = lambda game: _if_none_match(_game_tag(game)),
    ) -> Any:
        """The game once `same(game)` no longer holds (by default: once its ETag no longer
        matches If-None-Match), or as it is at the deadline. While it is played, waiting reads
        only the version (one small read) and the game whole only when that has changed. A
        finished game has no new version, but may get its rematch pointer: it is read whole,
        every FINISHED_POLL_SECONDS."""
        seen = snap.game["version"]
        while (left := deadline - time.monotonic()) > 0 and not _client_gone():
            over = snap.game["status"] != "playing"
            time.sleep(min(FINISHED_POLL_SECONDS if over else WAIT_POLL_SECONDS, left))
            if over or service.game_version(game_id) != seen:
                snap = service.read_game(game_id, token)
                seen = snap.game["version"]
                if not same(snap.game):
                    break
        return snap

    @app.get("/v1/games/<game_id>/events")
    def game_events(game_id: str) -> Response:
        """Server-Sent Events of the game (handlers/http/events.py). Under `court serve`'s hub
        (HUB_KEY in the environ) this answers the head and the first event only, and the hub
        keeps the connection; elsewhere it is a bounded stream: one event at once if the game
        is newer than Last-Event-ID, else the next version within the wait, then the end."""
        query = _read_schema.load(request.args.to_dict())
        token = _bearer_token()
        seen = last_event_id(request.headers.get("Last-Event-ID"))
        seat, snap = service.watch_game(game_id, token)  # the read route's checks and secrecy
        version = snap.game["version"]
        headers = dict(STREAM_HEADERS)
        hub = request.environ.get(HUB_KEY)
        if hub is not None:
            place = hub.reserve(game_id, seat, request.remote_addr)  # or 503 too-many-streams
            request.environ[TICKET_KEY] = Ticket(game_id, token, version, place)
        elif not news(version, seen):
            if waiting is None or waiting.acquire(blocking=False):
                try:
                    deadline = time.monotonic() + query.get("wait", STREAM_WAIT_SECONDS)
                    snap = _wait_for_change(
                        game_id, token, snap, deadline, lambda game: game["version"] == seen
                    )
                finally:
                    if waiting is not None:
                        waiting.release()
            else:  # every waiting place is taken: end at once, and say when to come back
                headers["Retry-After"] = str(WAIT_RETRY_SECONDS)
            version = snap.game["version"]
        # Nothing new: the hub keeps the stream open, a bounded stream ends with a heartbeat.
        body = b"" if hub is not None else HEARTBEAT
        if news(version, seen):
            body = encode_event(version, present.game_with_view(snap.game, snap.view))
        return Response(body, 200, headers, content_type=CONTENT_TYPE)

    @app.post("/v1/games/<game_id>/moves")
    def play(game_id: str) -> Response:
        _limited(moves_limit, "moves")
        token = _bearer_token()
        key = _idempotency_key()
        body = _move_schema.load(_json_body())
        snap = service.play(game_id, token, body["version"], body["move"], key)
        events.moved(game_id)  # this process's streams of the game: at once, not at a poll
        headers = {"ETag": _etag(snap.game["version"])}
        body = {"game": present.game(snap.game), "view": snap.view, "effects": snap.effects}
        return _json(body, 201, headers)

    @app.get("/v1/games/<game_id>/moves")
    def moves(game_id: str) -> Response:
        return _json({"moves": service.moves(game_id, _bearer_token())})

    @app.get("/v1/games")
    def list_games() -> Response:
        query = _list_schema.load(request.args.to_dict())
        return _json(
            present.finished_games(
                service.list_finished(query.get("ruleset"), query["limit"], query.get("cursor"))
            )
        )

    @app.get("/v1/games/<game_id>/record")
    def record(game_id: str) -> Response:
        _limited(costly_limit, costly)
        body = service.record(game_id, _bearer_token())
        disposition = f'attachment; filename="royal-court-{body["id"]}.json"'
        return _json(body, 200, {"Content-Disposition": disposition})

    @app.get("/v1/games/<game_id>/replay")
    def replay_step(game_id: str) -> Response:
        _limited(costly_limit, costly)
        query = _replay_schema.load(request.args.to_dict())
        step = service.replay_step(game_id, _bearer_token(), query["at"])
        return _json(step, 200)

    @app.get("/v1/daily/<date>")
    def daily(date: str) -> Response:
        return _json(present.daily(service.daily(date)))

    @app.post("/v1/players")
    def create_player() -> Response:
        _limited(players_limit, "players")
        body = _player_schema.load(_json_body())
        return _json(service.create_player(body["name"]), 201)

    @app.get("/v1/sign-in")
    def sign_in_provider() -> Response:
        return _json(service.sign_in_provider())

    @app.post("/v1/sessions")
    def sign_in() -> Response:
        _limited(players_limit, "players")
        body = _sign_in_schema.load(_json_body())
        guest = _bearer_token()  # a guest's token: the guest becomes the account's player
        if "code" in body:
            return _json(service.sign_in_with_code(body["code"], body["code_verifier"],
                         body["redirect_uri"], body.get("name"), guest), 201)  # fmt: skip
        return _json(service.sign_in(body["id_token"], body.get("name"), guest), 201)

    @app.delete("/v1/sessions/current")
    def sign_out() -> Response:
        service.sign_out(_bearer_token())
        return Response(status=204)

    @app.get("/v1/me")
    def me() -> Response:
        return _json(service.me(_bearer_token()))

    @app.patch("/v1/me")
    def rename() -> Response:
        _limited(players_limit, "players")
        body = _player_schema.load(_json_body())
        return _json(service.rename(_bearer_token(), body["name"]))

    @app.get("/v1/players/<player_id>")
    def player_profile(player_id: str) -> Response:
        _limited(costly_limit, costly)  # a year of the player's attempts read
        return _json(service.profile(player_id))

    @app.post("/v1/daily/<date>/<ruleset>/games")
    def start_daily(date: str, ruleset: str) -> Response:
        _no_body_past_limit()
        _limited(games_limit, "games")
        snap = service.start_daily(date, ruleset, _bearer_token())
        game_id = g.created_game_id = snap.game["id"]
        # The same CreatedGame as POST /v1/games (a daily game is a solitaire: seat 0, no
        # invites), so a client built from the spec reads both alike and never loses the token
        # of a ranked attempt it cannot make again.
        out = {"game": present.game(snap.game), "token": snap.token, "seat": snap.seat or 0,
               "invites": present.invites(game_id, snap.invites), "view": snap.view}  # fmt: skip
        return _json(
            out,
            201,
            {"Location": f"/v1/games/{game_id}", "ETag": _etag(snap.game["version"])},
        )

    @app.get("/v1/daily/<date>/<ruleset>/leaderboard")
    def leaderboard(date: str, ruleset: str) -> Response:
        query = _leaderboard_schema.load(request.args.to_dict())
        board = service.leaderboard(
            date, ruleset, query["limit"], query.get("cursor"), _bearer_token()
        )
        return _json(present.leaderboard(board), 200)

    @app.post("/v1/records/verify")
    def verify_record() -> Response:
        # Any JSON at all: a hostile record is a verdict (valid: false), never an error;
        # JSON too deep to parse here is one too.
        _limited(costly_limit, costly)
        try:
            record = _json_body(MAX_RECORD_BYTES, record=True)
        except RecursionError:
            return _json(nested_too_deeply().to_json())
        return _json(verify(record).to_json())

    @app.get("/openapi.yaml")
    def openapi() -> Response:
        return Response(_openapi_text(), mimetype="application/yaml")

    _add_web_client(app, docs_enabled, web_csp)
    if docs_enabled:
        _add_docs(app)
    return app


def _add_web_client(app: Flask, docs_enabled: bool = True, web_csp: str = WEB_CSP) -> None:
    """The first-party web client (docs/web-client.md): static files that use only the public
    API above, served from package data on the same origin (locally and on Lambda alike).

    Every client path answers the same page; the page's router reads the path. A seat's token
    travels in the URL fragment, which a browser never sends, so it never reaches a log.
    Without Swagger UI (on Lambda) the page's "API" links go to the spec itself, not to a
    `/docs` that would be a 404 there.
    """

    def page() -> Response:
        resp = send_from_directory(WEB_ROOT, "index.html", max_age=0)
        if not docs_enabled and resp.status_code == 200:
            resp.direct_passthrough = False
            html = resp.get_data().replace(b'href="/docs"', b'href="/openapi.yaml"')
            resp.set_data(html.replace(b">/docs</a>", b">/openapi.yaml</a>"))
        resp.headers["Content-Security-Policy"] = web_csp
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp

    for rule in ("/", "/play", "/play/<game_id>", "/daily", "/players/<player_id>", "/signed-in"):
        app.add_url_rule(rule, f"web_page_{rule}", lambda **_: page())

    @app.get("/web/<path:name>")
    def web_asset(name: str) -> Response:
        resp = send_from_directory(WEB_ROOT, name, max_age=300)
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp


_openapi_cache: list[bytes] = []


def _openapi_text() -> bytes:
    """The committed spec, read once: no YAML parsing and no apispec on the request path."""
    if not _openapi_cache:
        _openapi_cache.append(OPENAPI_PATH.read_bytes())
    return _openapi_cache[0]


def _add_docs(app: Flask) -> None:
    """Swagger UI from the flask-swagger-ui package's own files: no CDN."""
    from flask_swagger_ui import get_swaggerui_blueprint

    blueprint: Blueprint = get_swaggerui_blueprint(
        "/docs", "/openapi.yaml", config={"app_name": "Royal Court API"}
    )

    @blueprint.after_request
    def no_framing(response: Response) -> Response:
        """Swagger UI may not be framed (clickjacking), nor run any script but its own."""
        scripts = ""
        if response.mimetype == "text/html" and not response.direct_passthrough:
            scripts = "".join(
                " 'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
                for body in _INLINE_SCRIPT.findall(response.get_data())
            )
        response.headers["Content-Security-Policy"] = DOCS_CSP.format(scripts=scripts)
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    app.register_blueprint(blueprint)
