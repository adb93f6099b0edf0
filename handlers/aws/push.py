"""AWS Lambda entries that push each move to the game's WebSocket connections (docs/api.md,
"Streams": "On AWS").

On Lambda a stream cannot stay open (API Gateway's HTTP API buffers whole responses), and a
long-poll holds a function for up to 25 s. Here nothing runs while a seat waits: API Gateway's
WebSocket API holds the connection, DynamoDB holds who watches what, and a function runs only
when a connection opens, closes or says who it is, and when a move is written.

- `socket`, the WebSocket API's routes:
  - `$connect` (`wss://…?game=<id>`): the game must exist; the connection and its game are
    stored (`infra/push_connections.py`). No token in the URL: URLs end up in logs.
  - `$default`, the client's messages: `{"action": "watch", "token": "…", "last_event_id": N}`
    (no token: a spectator) checks the token exactly as `GET /v1/games/{id}` does, stores the
    connection's seat (never the token) and sends the current event unless the client has
    it; `{"action": "ping"}` only keeps the connection from API Gateway's 10-minute idle
    timeout. A refusal is sent as the problem document a read would answer, and the
    connection is then closed.
  - `$disconnect`: the connection's items are deleted.
- `push`, on the games table's stream (each new move item): for each game moved in the
  batch, one load of the game, each watching connection sent its seat's event
  (`post_to_connection`, POST_THREADS at once), a connection API Gateway says is gone (410)
  deleted.

Every event is the JSON of an SSE event's `data:`: `presenter.game_with_view` of the read use
case, through `GameEvents` (handlers/http/events.py), the one code path of reads and streams.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from domain.errors import GameNotFound, InvalidRequest, Json, StoreUnavailable
from domain.usecases.court import GAME_ID
from handlers.aws import logs
from handlers.config import Settings, build_connections, build_service
from handlers.http import presenter as present
from handlers.http.events import GameEvents, last_event_id, news
from handlers.http.problems import Problem, problem_for

MAX_MESSAGE_BYTES = 128 * 1024
"""API Gateway's limit on one WebSocket message (`post_to_connection` refuses more)."""
POST_THREADS = 16
"""Posts to a batch's connections made at once: each is a round trip to API Gateway (~1.6 ms
measured) spent waiting, so 2,500 watchers of one game took 4 s one after another, a
sixteenth of that now (boto3's clients are thread-safe; the pool is as large)."""
_posting = ThreadPoolExecutor(max_workers=POST_THREADS, thread_name_prefix="push")

settings = Settings.from_env(default_store="dynamodb")
logs.configure(settings.service_name)
events = GameEvents(build_service(settings))
connections = build_connections(settings)
log = logging.getLogger("royal_court.push")
_management: dict[str, Any] = {}


def management(endpoint: str) -> Any:
    """API Gateway's Management API client for `endpoint`, one per process and endpoint."""
    client = _management.get(endpoint)
    if client is None:
        config = Config(
            connect_timeout=2,
            read_timeout=5,
            retries={"max_attempts": 2},
            max_pool_connections=POST_THREADS,
        )
        client = _management[endpoint] = boto3.client(
            "apigatewaymanagementapi",
            endpoint_url=endpoint,
            region_name=settings.region or "us-east-1",
            config=config,
        )
    return client


def _endpoint(request_context: dict[str, Any]) -> str:
    """Where to post to a connection: the configured endpoint, else the one the event came
    through (its domain and stage)."""
    if settings.websocket_endpoint:
        return settings.websocket_endpoint
    return f"https://{request_context['domainName']}/{request_context['stage']}"


def problem_body(error: Exception) -> Json:
    """The problem document an HTTP request failing with `error` would have as its body."""
    problem = problem_for(error)
    body: Json = problem.kind.body(problem.detail, **problem.extra) | {"status": problem.status}
    return body


def _gone(error: ClientError) -> bool:
    return bool(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 410)


def send(endpoint: str, connection_id: str, body: Json) -> bool:
    """Post one message; False if the connection is gone (410), which the caller forgets."""
    data = present.json_bytes(body)
    if len(data) > MAX_MESSAGE_BYTES:  # never seen (a game is a few KB): the client reads it
        log.warning("event too large to push", extra={"bytes": len(data)})
        data = present.json_bytes(problem_body(Problem(
            "internal-error", "the event is too large to push: read the game")))  # fmt: skip
    try:
        management(endpoint).post_to_connection(ConnectionId=connection_id, Data=data)
    except ClientError as e:
        if _gone(e):
            return False
        raise
    return True


def close(endpoint: str, connection_id: str) -> None:
    """Close a connection (API Gateway then runs `$disconnect`); one already gone is fine."""
    try:
        management(endpoint).delete_connection(ConnectionId=connection_id)
    except ClientError as e:
        if not _gone(e):
            raise


def _refuse(endpoint: str, connection_id: str, game_id: str | None, error: Exception) -> None:
    """Send the problem a read would answer, close the connection and forget it."""
    try:
        if send(endpoint, connection_id, problem_body(error)):
            close(endpoint, connection_id)
    except (ClientError, BotoCoreError):
        log.warning("could not refuse a connection", exc_info=True)
    connections.forget(connection_id, game_id)


def _watch(request_context: dict[str, Any], message: Any) -> None:
    """The first message: check the token as a read does, keep the seat, send the event."""
    endpoint, connection_id = _endpoint(request_context), request_context["connectionId"]
    game_id = connections.game_of(connection_id)
    try:
        if game_id is None:
            raise GameNotFound("this connection was not opened on a game (?game=<id>)")
        token = message.get("token")
        if token is not None and (not isinstance(token, str) or not token):
            raise InvalidRequest("token", "a seat's token (a string), or none for a spectator")
        seen = message.get("last_event_id")
        seen = last_event_id(str(seen)) if isinstance(seen, int | str) else None
        seat, version, body = events.watch(game_id, token)
    except Exception as e:
        _refuse(endpoint, connection_id, game_id, e)
        return
    now = int(time.time())
    connections.watch(connection_id, game_id, seat, now)
    # A move written between the read above and the connection's item was pushed to the
    # others only: one small read tells, and this connection then gets it here.
    latest = events.service.game_version(game_id)
    if latest != version:
        version, body = latest, events.bodies(game_id, [seat]).get(seat, body)
    if news(version, seen):
        send(endpoint, connection_id, body)


def _socket(event: dict[str, Any], context: object) -> dict[str, Any]:
    """The WebSocket API's `$connect`, `$default` and `$disconnect` routes."""
    request_context = event["requestContext"]
    route, connection_id = request_context["routeKey"], request_context["connectionId"]
    if route == "$connect":
        game_id = (event.get("queryStringParameters") or {}).get("game") or ""
        if GAME_ID.fullmatch(game_id) is None:
            return {"statusCode": 400, "body": "connect with ?game=<game id>"}
        try:
            events.service.game_version(game_id)
        except GameNotFound:
            return {"statusCode": 404, "body": "no such game"}
        except StoreUnavailable as e:  # the handshake fails; the client tries again later
            log.warning("store unavailable: %s", e)
            return {"statusCode": 503, "body": "retry shortly"}
        connections.connect(connection_id, game_id, int(time.time()))
        return {"statusCode": 200}
    if route == "$disconnect":
        connections.forget(connection_id, connections.game_of(connection_id))
        return {"statusCode": 200}
    try:
        message = json.loads(event.get("body") or "")
    except ValueError:
        message = None
    action = message.get("action") if isinstance(message, dict) else None
    if action == "ping":
        return {"statusCode": 200}
    if action == "watch":
        _watch(request_context, message)
        return {"statusCode": 200}
    error = InvalidRequest("action", 'a message is {"action": "watch", …} or {"action": "ping"}')
    send(_endpoint(request_context), connection_id, problem_body(error))
    return {"statusCode": 200}


socket = logs.instrument(_socket, settings.service_name, settings.metrics_namespace)
"""The routes' entry, with an access line per invocation (the route, the status, the
duration; never the message, which carries the token)."""


def moved_games(event: dict[str, Any]) -> dict[str, int]:
    """Each game a batch of stream records wrote a move of, and its newest move's seq."""
    games: dict[str, int] = {}
    for record in event.get("Records", []):
        keys = record.get("dynamodb", {}).get("Keys", {})
        pk, sk = str(keys.get("pk", {}).get("S", "")), str(keys.get("sk", {}).get("S", ""))
        if record.get("eventName") != "INSERT" or not pk.startswith("GAME#"):
            continue
        if not sk.startswith("MOVE#") or not sk[5:].isdigit():
            continue
        game_id = pk.removeprefix("GAME#")
        games[game_id] = max(games.get(game_id, 0), int(sk[5:]))
    return games


@logs.scheduled
def push(event: dict[str, Any], context: object) -> dict[str, Any]:
    """The stream's entry: each game moved in the batch, its newest state to each watching
    connection, in that connection's seat's view. Several moves of one game in a batch (a
    move and a bot's replies) are one message, as in an SSE stream. A store failure raises
    (Lambda retries the batch: a client keeps the newest version, so a repeat is harmless);
    a connection that cannot be posted to for any other reason is skipped and logged."""
    endpoint = settings.websocket_endpoint
    assert endpoint, "ROYAL_WEBSOCKET_ENDPOINT: the WebSocket API's Management API endpoint"
    sent = gone = failed = 0
    moved = moved_games(event)
    for game_id in moved:
        watchers = list(connections.watchers(game_id))
        if not watchers:
            continue
        try:
            bodies = events.bodies(game_id, [w.seat for w in watchers])
        except GameNotFound:  # expired under its connections: nothing more will come
            bodies = {}

        def deliver(connection_id: str, body: Json | None, game_id: str = game_id) -> str:
            try:
                if body is None:  # the game is gone, or this seat may no longer read it
                    close(endpoint, connection_id)
                    return "gone"
                return "sent" if send(endpoint, connection_id, body) else "gone"
            except (ClientError, BotoCoreError):
                log.warning("a push failed", exc_info=True, extra={"game_id": game_id})
                return "failed"

        # At once (POST_THREADS), each in a copy of this invocation's context: its log lines
        # carry the invocation's keys.
        run = [contextvars.copy_context().run for _ in watchers]
        outcomes = [
            _posting.submit(r, deliver, w.connection_id, bodies.get(w.seat))
            for r, w in zip(run, watchers, strict=True)
        ]
        for watcher, outcome in zip(watchers, (o.result() for o in outcomes), strict=True):
            sent += outcome == "sent"
            failed += outcome == "failed"
            if outcome == "gone":
                gone += 1
                connections.forget(watcher.connection_id, game_id)
    counts: dict[str, float] = {"PushesSent": sent, "PushesGone": gone, "PushesFailed": failed}
    function_name = getattr(context, "function_name", None)
    emf = logs.metrics(settings.metrics_namespace, settings.service_name, function_name, counts)
    log.info("pushed", extra={"games": len(moved), "sent": sent, "gone": gone, "failed": failed,
                              **emf})  # fmt: skip
    return {"games": len(moved), "sent": sent, "gone": gone, "failed": failed}
