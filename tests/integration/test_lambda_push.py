"""Moves pushed through API Gateway's WebSocket API, end to end on this machine
(handlers/aws/push.py; docs/api.md "Streams", docs/deploy.md "Pushes").

Nothing stands in for a part: DynamoDB Local holds the games (with the table's stream on, as
serverless.yml declares it) and the connections; moves are made through the API's own Lambda
entry with API Gateway HTTP API events; the socket entry gets the `$connect`, `$default` and
`$disconnect` events API Gateway sends (recorded shapes, tests/integration/events/); the push
entry gets the stream's records as DynamoDB Local emits them, handed over as Lambda does (in
shard order, filtered by the event source mapping's own pattern, read from serverless.yml);
and API Gateway's Management API is a local HTTP server that boto3's
`apigatewaymanagementapi` client posts to, recording what each connection receives and
answering 410 for a connection that is gone, as API Gateway does.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

import boto3
import pytest

from domain.registry import GAMES
from domain.replay import replay
from infra.dynamo_store import DynamoStore
from infra.push_connections import PushConnections
from tests.helpers import strings_in
from tests.integration.test_lambda import body_of
from tests.integration.test_lambda import event as http_event
from tests.stores import ROOT, _free_port, dynamo_client, fresh_table_name, load_yaml

EVENTS = Path(__file__).parent / "events"
CONNECT = json.loads((EVENTS / "websocket_connect.json").read_text())
MESSAGE = json.loads((EVENTS / "websocket_message.json").read_text())
DISCONNECT = json.loads((EVENTS / "websocket_disconnect.json").read_text())
STAGE = CONNECT["requestContext"]["stage"]
RULESET = "royal-ace-assin"


def connect_event(connection_id: str, game_id: str | None) -> dict[str, Any]:
    e = copy.deepcopy(CONNECT)
    e["requestContext"]["connectionId"] = connection_id
    if game_id is None:
        del e["queryStringParameters"], e["multiValueQueryStringParameters"]
    else:
        e["queryStringParameters"] = {"game": game_id}
        e["multiValueQueryStringParameters"] = {"game": [game_id]}
    return e


def message_event(connection_id: str, body: Any) -> dict[str, Any]:
    e = copy.deepcopy(MESSAGE)
    e["requestContext"]["connectionId"] = connection_id
    e["body"] = body if isinstance(body, str) else json.dumps(body)
    return e


def disconnect_event(connection_id: str) -> dict[str, Any]:
    e = copy.deepcopy(DISCONNECT)
    e["requestContext"]["connectionId"] = connection_id
    return e


class ManagementApi:
    """API Gateway's Management API as boto3 calls it: `POST /<stage>/@connections/<id>`
    (the body is the message) and `DELETE` (close the connection). A connection marked gone,
    or closed, answers 410 GoneException, as API Gateway does."""

    def __init__(self) -> None:
        self.received: dict[str, list[bytes]] = defaultdict(list)
        self.closed: list[str] = []
        self.gone: set[str] = set()
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _connection(self) -> str:
                prefix = f"/{STAGE}/@connections/"
                assert self.path.startswith(prefix), self.path
                return unquote(self.path[len(prefix) :])

            def _answer(self, connection_id: str, closing: bool, data: bytes = b"") -> None:
                with outer.lock:
                    gone = connection_id in outer.gone
                    if not gone and closing:
                        outer.closed.append(connection_id)
                        outer.gone.add(connection_id)
                    elif not gone:
                        outer.received[connection_id].append(data)
                body = b'{"message":null}' if gone else b""
                self.send_response(410 if gone else 200)
                if gone:
                    self.send_header("x-amzn-ErrorType", "GoneException")
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self._answer(self._connection(), False, data)

            def do_DELETE(self) -> None:
                self._answer(self._connection(), True)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", _free_port()), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{STAGE}"

    def messages(self, connection_id: str) -> list[Any]:
        with self.lock:
            return [json.loads(m) for m in self.received[connection_id]]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def matches(pattern: Any, value: Any) -> bool:
    """Lambda's event filtering, the part serverless.yml's pattern uses: a dict of fields, each
    a list of literal values or `{"prefix": …}`."""
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            k in value and matches(p, value[k]) for k, p in pattern.items()
        )
    return any(
        isinstance(value, str) and value.startswith(p["prefix"])
        if isinstance(p, dict)
        else value == p
        for p in pattern
    )


class TableStream:
    """The games table's stream as DynamoDB Local emits it, handed over as Lambda does: each
    shard's new records in order, `ApproximateCreationDateTime` in epoch seconds, the
    stream's ARN as `eventSourceARN`, and only the records the PushStream mapping's filter
    in serverless.yml lets through."""

    def __init__(self, endpoint: str, table: str) -> None:
        self.client = boto3.client(
            "dynamodbstreams", endpoint_url=endpoint, region_name="us-east-1"
        )
        described = dynamo_client(endpoint).describe_table(TableName=table)["Table"]
        self.arn = described["LatestStreamArn"]
        self.iterators: dict[str, str | None] = {}
        template = load_yaml((ROOT / "serverless.yml").read_text())
        mapping = template["resources"]["Resources"]["PushStream"]["Properties"]
        self.filters = [json.loads(f["Pattern"]) for f in mapping["FilterCriteria"]["Filters"]]

    def take(self) -> dict[str, Any]:
        """The event of the records written since the last take."""
        shards = self.client.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]
        for shard in shards:
            if shard["ShardId"] not in self.iterators:
                self.iterators[shard["ShardId"]] = self.client.get_shard_iterator(
                    StreamArn=self.arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
                )["ShardIterator"]
        records = []
        for shard_id, iterator in list(self.iterators.items()):
            if iterator is None:
                continue
            page = self.client.get_records(ShardIterator=iterator)
            self.iterators[shard_id] = page.get("NextShardIterator")
            for record in page["Records"]:
                change = record["dynamodb"]
                change["ApproximateCreationDateTime"] = int(
                    change["ApproximateCreationDateTime"].timestamp()
                )
                record["eventSourceARN"] = self.arn
                if any(matches(f, record) for f in self.filters):
                    records.append(record)
        return {"Records": records}


class Units:
    """Read and write request units as DynamoDB Local reports them: every call of the watched
    clients asks for ReturnConsumedCapacity=TOTAL where the operation takes it."""

    READS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"})

    def __init__(self, *clients: Any) -> None:
        self.reads = self.writes = 0.0
        self.calls: Counter[str] = Counter()
        for client in clients:
            client.meta.events.register("before-parameter-build.dynamodb", self._ask)
            client.meta.events.register("after-call.dynamodb", self._count)

    def _ask(self, params: dict[str, Any], model: Any, **kwargs: Any) -> None:
        if "ReturnConsumedCapacity" in model.input_shape.members:
            params["ReturnConsumedCapacity"] = "TOTAL"

    def _count(self, parsed: dict[str, Any], model: Any, **kwargs: Any) -> None:
        consumed = parsed.get("ConsumedCapacity") or []
        each = consumed if isinstance(consumed, list) else [consumed]
        units = sum(c.get("CapacityUnits", 0.0) for c in each)
        self.calls[model.name] += 1
        if model.name in self.READS:
            self.reads += units
        else:
            self.writes += units

    def take(self) -> tuple[float, float]:
        taken = (self.reads, self.writes)
        self.reads = self.writes = 0.0
        return taken


def push_tables(endpoint: str) -> tuple[Any, str, str]:
    """The games table with its stream (serverless.yml's StreamSpecification: keys only) and
    the WebSocket connections' table, fresh on DynamoDB Local: (client, games, connections)."""
    table, connections_table = fresh_table_name(), fresh_table_name()
    client = dynamo_client(endpoint)
    DynamoStore(client, table).create_table()
    client.update_table(
        TableName=table, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    )
    PushConnections(client, connections_table).create_table()
    return client, table, connections_table


@pytest.fixture
def aws(monkeypatch, dynamodb_local_endpoint) -> Iterator[SimpleNamespace]:
    client, table, connections_table = push_tables(dynamodb_local_endpoint)
    gateway = ManagementApi()
    for name, value in {
        "ROYAL_STORE": "dynamodb",
        "ROYAL_TABLE": table,
        "ROYAL_DYNAMODB_ENDPOINT": dynamodb_local_endpoint,
        "ROYAL_CONNECTIONS_TABLE": connections_table,
        "ROYAL_WEBSOCKET_ENDPOINT": gateway.endpoint,
    }.items():
        monkeypatch.setenv(name, value)
    api = importlib.reload(importlib.import_module("handlers.aws.api"))
    push = importlib.reload(importlib.import_module("handlers.aws.push"))
    try:
        yield SimpleNamespace(
            api=api.handler,
            push=push,
            gateway=gateway,
            stream=TableStream(dynamodb_local_endpoint, table),
            connections=PushConnections(client, connections_table),
            store=DynamoStore(client, table),
            units=Units(push.connections.client, push.events.service.store.client),
            api_units=Units(api.service.store.client),
        )
    finally:
        gateway.stop()


def new_game(aws: SimpleNamespace) -> tuple[str, dict[int, str]]:
    """A two-seat game through the API: its id and each seat's token."""
    created = aws.api(http_event("POST", "/v1/games", {"ruleset": RULESET}), None)
    assert created["statusCode"] == 201
    body = body_of(created)
    gid, invite = body["game"]["id"], body["invites"][0]["invite"]
    joined = aws.api(http_event("POST", f"/v1/games/{gid}/seats/1", {"invite": invite}), None)
    assert joined["statusCode"] == 201, body_of(joined)
    return gid, {0: body["token"], 1: body_of(joined)["token"]}


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"authorization": f"Bearer {token}"}


def read(aws: SimpleNamespace, gid: str, token: str | None) -> Any:
    """What `GET /v1/games/{id}` answers for the token (None: a spectator)."""
    response = aws.api(http_event("GET", f"/v1/games/{gid}", headers=auth(token)), None)
    assert response["statusCode"] == 200
    return body_of(response)


def watch(aws: SimpleNamespace, connection_id: str, gid: str, token: str | None) -> None:
    assert aws.push.socket(connect_event(connection_id, gid), None) == {"statusCode": 200}
    message = {"action": "watch", "last_event_id": None} | ({"token": token} if token else {})
    assert aws.push.socket(message_event(connection_id, message), None) == {"statusCode": 200}


def play_one(
    aws: SimpleNamespace,
    gid: str,
    tokens: dict[int, str],
    rng: random.Random,
    meter: Meter | None = None,
) -> bool:
    """One move by a seat that may move (a random legal move, never resigning), its request
    measured by `meter`; False once the game is over."""
    for seat in rng.sample([0, 1], 2):
        now = read(aws, gid, tokens[seat])
        if now["game"]["status"] != "playing":
            return False
        if seat in now["view"]["to_move"]:
            moves = [m for m in now["view"]["legal_moves"] if m["type"] != "resign"]
            body = {"version": now["game"]["version"], "move": rng.choice(moves)}
            move = http_event("POST", f"/v1/games/{gid}/moves", body, auth(tokens[seat]))
            played = aws.api(move, None) if meter is None else meter(aws.api, move)
            assert played["statusCode"] == 201, body_of(played)
            return True
    raise AssertionError("nobody may move in a game that is not over")


def hidden_from(aws: SimpleNamespace, gid: str, version: int, seat: int | None) -> set[str]:
    """The cards `seat` may not know of at `version` (replayed from the stored log)."""
    stored = aws.store.load(gid)
    ruleset = GAMES[RULESET].ruleset
    game = replay(ruleset, stored.record.seed, stored.record.options, [])
    for event in stored.moves[:version]:
        game.play(event.seat, event.move)
    return set(ruleset.hidden(game.state, seat))


def test_every_move_reaches_each_seat_and_a_spectator_in_its_own_view(aws, capsys):
    gid, tokens = new_game(aws)
    capsys.readouterr()
    seats: dict[str, int | None] = {
        "B3vL2dwNoAMCFjw=": 0,
        "B3vMZ1jLIAMCJvA=": 1,
        "B3vNa7sRoAMCKzg=": None,  # a spectator
    }
    for connection_id, seat in seats.items():
        watch(aws, connection_id, gid, None if seat is None else tokens[seat])
    # Stored: each connection's seat, never its token.
    watchers = {w.connection_id: w.seat for w in aws.connections.watchers(gid)}
    assert watchers == seats
    # Logged: an access line per route, and never a token (it came in a message).
    logged = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    routes = [line.get("route_key") for line in logged if line.get("message") == "request"]
    assert routes == ["$connect", "$default"] * 3
    assert not any(
        tokens[0] in json.dumps(line) or tokens[1] in json.dumps(line) for line in logged
    )
    dump = json.dumps(aws.connections.client.scan(TableName=aws.connections.table)["Items"])
    assert tokens[0] not in dump and tokens[1] not in dump
    # The game's creation and the join wrote no move: the mapping's filter lets nothing through.
    assert aws.stream.take() == {"Records": []}

    rng, moves = random.Random(30), 0
    while play_one(aws, gid, tokens, rng):
        moves += 1
        event = aws.stream.take()
        assert [r["dynamodb"]["Keys"]["sk"]["S"] for r in event["Records"]] == [f"MOVE#{moves:08d}"]
        assert aws.push.push(event, None) == {"games": 1, "sent": 3, "gone": 0, "failed": 0}
        for connection_id, seat in seats.items():
            pushed = aws.gateway.messages(connection_id)[-1]
            # The very body a read answers that seat (its view, its secrecy)...
            assert pushed == read(aws, gid, None if seat is None else tokens[seat])
            assert pushed["game"]["version"] == moves
            # ... and no card hidden from it, while the game goes on.
            assert not set(strings_in(pushed)) & hidden_from(aws, gid, moves, seat)
            if seat is not None and pushed["game"]["status"] == "playing":
                assert pushed["view"]["sides"][1 - seat]["hand"] is None
        # A seat's sealed submission is in its own event only (the others' legal moves may
        # list the same move: what it may do is no secret, what it chose is).
        own = {s: aws.gateway.messages(c)[-1]["view"]["sealed"] for c, s in seats.items()}
        for seat in (0, 1):
            if own[seat] is None:
                continue
            sealed = json.dumps(own[seat], sort_keys=True)
            for c, s in seats.items():
                if s != seat:
                    event_body = aws.gateway.messages(c)[-1]
                    del event_body["view"]["legal_moves"]
                    assert sealed not in json.dumps(event_body, sort_keys=True)
    assert moves >= 4 and read(aws, gid, None)["game"]["status"] != "playing"
    # Each connection got the state at watching (version 0), then every version once, in order.
    for connection_id in seats:
        versions = [m["game"]["version"] for m in aws.gateway.messages(connection_id)]
        assert versions == list(range(moves + 1))


def test_connections_are_refused_closed_and_forgotten(aws):
    gid, tokens = new_game(aws)
    socket = aws.push.socket
    # $connect: the game id is required, and must be a game's.
    assert socket(connect_event("NoGame0AMCFjw=", None), None)["statusCode"] == 400
    assert socket(connect_event("NoGame0AMCFjw=", "x" * 16), None)["statusCode"] == 404
    # A wrong token: the problem a read answers, then the connection is closed and forgotten.
    assert socket(connect_event("WrongTokAMCFjw=", gid), None) == {"statusCode": 200}
    socket(message_event("WrongTokAMCFjw=", {"action": "watch", "token": "not-a-token"}), None)
    (refused,) = aws.gateway.messages("WrongTokAMCFjw=")
    assert refused["status"] == 403 and refused["type"].endswith("wrong-token")
    assert aws.gateway.closed == ["WrongTokAMCFjw="]
    assert aws.connections.game_of("WrongTokAMCFjw=") is None
    # A message that is not one of ours: a problem, the connection stays.
    assert socket(connect_event("Chatty00AMCFjw=", gid), None) == {"statusCode": 200}
    socket(message_event("Chatty00AMCFjw=", "not json"), None)
    assert aws.gateway.messages("Chatty00AMCFjw=")[0]["status"] == 422
    # A ping is answered by nothing but the route (no read, no write, no message).
    before = sum(aws.units.calls.values())
    assert socket(message_event("Chatty00AMCFjw=", {"action": "ping"}), None)["statusCode"] == 200
    assert sum(aws.units.calls.values()) == before
    assert len(aws.gateway.messages("Chatty00AMCFjw=")) == 1
    # Resuming with the version the client has: nothing is sent until the game moves.
    watch_message = {"action": "watch", "token": tokens[0], "last_event_id": 0}
    assert socket(message_event("Chatty00AMCFjw=", watch_message), None)["statusCode"] == 200
    assert len(aws.gateway.messages("Chatty00AMCFjw=")) == 1
    # A spectator whose connection is gone (410) is deleted at the next push.
    watch(aws, "Gone0000AMCFjw=", gid, None)
    aws.gateway.gone.add("Gone0000AMCFjw=")
    assert play_one(aws, gid, tokens, random.Random(1))
    assert aws.push.push(aws.stream.take(), None) == {"games": 1, "sent": 1, "gone": 1, "failed": 0}
    assert aws.gateway.messages("Chatty00AMCFjw=")[-1]["game"]["version"] == 1
    assert {w.connection_id for w in aws.connections.watchers(gid)} == {"Chatty00AMCFjw="}
    assert aws.connections.game_of("Gone0000AMCFjw=") is None
    # $disconnect forgets the connection.
    assert socket(disconnect_event("Chatty00AMCFjw="), None) == {"statusCode": 200}
    assert list(aws.connections.watchers(gid)) == []
    assert aws.connections.game_of("Chatty00AMCFjw=") is None


def test_a_move_written_while_a_seat_starts_watching_still_reaches_it(aws, monkeypatch):
    """The other seat moves after the watch's read and before its connection is stored: that
    move's push found nobody to send to, so the watch itself sends it."""
    gid, tokens = new_game(aws)
    read_then_moved = aws.push.events.watch

    def moved_meanwhile(game_id: str, token: str | None) -> Any:
        seen = read_then_moved(game_id, token)
        assert play_one(aws, gid, tokens, random.Random(3))
        assert aws.push.push(aws.stream.take(), None)["sent"] == 0  # not stored yet
        return seen

    monkeypatch.setattr(aws.push.events, "watch", moved_meanwhile)
    watch(aws, "Racer000AMCFjw=", gid, tokens[0])
    (sent,) = aws.gateway.messages("Racer000AMCFjw=")
    assert sent == read(aws, gid, tokens[0]) and sent["game"]["version"] == 1


# On-demand prices, us-east-1 (docs/deploy.md, "What pushes cost").
DYNAMODB_WRITE = 1.25e-6  # per write request unit
DYNAMODB_READ = 0.25e-6  # per read request unit
WEBSOCKET_MESSAGE = 1.00e-6  # per message (each 32 KB), in or out
WEBSOCKET_MINUTE = 0.25e-6  # per connection-minute
LAMBDA_REQUEST = 0.20e-6
LAMBDA_GB_SECOND = 0.0000166667
MEMORY_GB = 0.5  # serverless.yml's memorySize: 512
PING_MINUTES = 9  # a client's ping, inside API Gateway's 10-minute idle timeout
CONNECTION_HOURS = 2  # API Gateway closes a connection after 2 hours: the client reconnects


class Meter:
    """What one kind of invocation costs: its read and write units and its duration, summed
    over the calls measured."""

    def __init__(self, units: Units) -> None:
        self.units, self.calls, self.reads, self.writes, self.seconds = units, 0, 0.0, 0.0, 0.0

    def __call__(self, handler: Any, event: Any) -> Any:
        self.units.take()
        started = time.perf_counter()
        result = handler(event, None)
        self.seconds += time.perf_counter() - started
        reads, writes = self.units.take()
        self.calls, self.reads, self.writes = (
            self.calls + 1,
            self.reads + reads,
            self.writes + writes,
        )
        return result

    def dollars(self) -> float:
        """Per call: the table's units, and the Lambda run (billed by the millisecond)."""
        store = (self.reads * DYNAMODB_READ + self.writes * DYNAMODB_WRITE) / self.calls
        billed = math.ceil(self.seconds / self.calls * 1000) / 1000  # whole milliseconds
        return store + LAMBDA_REQUEST + MEMORY_GB * billed * LAMBDA_GB_SECOND

    def row(self, name: str) -> str:
        c = self.calls
        return (f"| {name} | {self.reads / c:.2f} / {self.writes / c:.2f} | "
                f"{self.seconds / c * 1000:.1f} ms | ${self.dollars() * 1e6:.2f} |")  # fmt: skip


def test_a_waiting_seat_costs_less_than_a_tenth_of_a_move(aws, capsys):
    """The figures of docs/deploy.md, "What pushes cost", measured: read and write units as
    DynamoDB Local reports them, the handlers' durations on this machine, priced on demand.
    A waiting seat runs nothing: it costs its connection's minutes, a ping every 9 minutes
    and, every 2 hours, a reconnection; each move costs its push."""
    connect, watching, leave, ping = (Meter(aws.units) for _ in range(4))
    pushed, moved = Meter(aws.units), Meter(aws.api_units)
    socket, rng = aws.push.socket, random.Random(25)
    for game in range(3):
        gid, tokens = new_game(aws)
        for seat in (0, 1):
            cid = f"Cost{game}{seat}AMCFjw="
            assert connect(socket, connect_event(cid, gid)) == {"statusCode": 200}
            watched = {"action": "watch", "token": tokens[seat], "last_event_id": None}
            watching(socket, message_event(cid, watched))
            ping(socket, message_event(cid, {"action": "ping"}))
        aws.stream.take()
        # Each move's request through the API (what a push is compared with), then its push.
        while play_one(aws, gid, tokens, rng, moved):
            pushed(aws.push.push, aws.stream.take())
        for seat in (0, 1):
            leave(socket, disconnect_event(f"Cost{game}{seat}AMCFjw="))
    per_push = pushed.dollars() + 2 * WEBSOCKET_MESSAGE  # a message to each of two seats
    # A reconnection: its three runs, the watch message in and its event out.
    reconnect = connect.dollars() + watching.dollars() + leave.dollars() + 2 * WEBSOCKET_MESSAGE
    per_hour = (
        60 * WEBSOCKET_MINUTE
        + 60 / PING_MINUTES * (ping.dollars() + WEBSOCKET_MESSAGE)
        + reconnect / CONNECTION_HOURS
    )
    long_poll = 216e-6  # the measured long-poll of 25 s (short game)
    move = moved.dollars()
    with capsys.disabled():
        print("\n| per call | reads / writes | duration here | $ per million |")
        print("|---|---|---|---|")
        for name, meter in (
            ("$connect", connect),
            ("watch", watching),
            ("ping", ping),
            ("$disconnect", leave),
            ("push (a move, 2 seats)", pushed),
            ("the move's request (API)", moved),
        ):
            print(meter.row(name))
        print(f"pushed move, with its 2 messages: ${per_push * 1e6:.2f} per million")
        print(f"reconnection every {CONNECTION_HOURS} h: ${reconnect * 1e6:.2f} per million")
        print(f"waiting seat: ${per_hour * 1e6:.2f} per million hours, "
              f"${per_hour / 3600 * 25 * 1e6:.3f} per million 25 s (long-poll: $216)")  # fmt: skip
        print(f"moves measured: {pushed.calls}")
    # The target: waiting costs less than a tenth of a move for as long as a
    # long-poll waits, and far less than the long-poll itself.
    assert per_hour / 3600 * 25 < move / 10
    assert per_hour / 3600 * 25 < long_poll / 500
    # A push costs about what the move that caused it did, not more.
    assert per_push < 2 * move
