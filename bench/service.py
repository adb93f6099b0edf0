"""The service's figures: in-process request times as a log grows (SQLite, the replay cache
warm or off), DynamoDB requests per move, and a Lambda cold start."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Mapping

from bench.figures import Bench, Figure, pct, timings
from bench.games import LOG_GAME, stalling_log
from domain.errors import Json
from domain.record import move_hash
from domain.registry import get_ruleset
from domain.replay import replay
from domain.replay_cache import ReplayCache
from domain.service import GameService
from domain.stored import MoveEvent
from handlers.config import new_secret, utc_now
from handlers.http.app import create_app
from infra.sqlite_store import SqliteStore

LENGTHS = (0, 50, 150)
"""Moves already in the log when a game is read and moved in."""


def benches() -> list[Bench]:
    return [requests(cache=True), requests(cache=False), dynamodb_requests(), lambda_start()]


def _seed_game(
    service: GameService,
    store: SqliteStore,
    seed: str,
    options: dict[str, object],
    moves: list[Json],
) -> tuple[str, str]:
    """A game whose log already holds `moves`, written straight to the store (hash-chained)."""
    snap = service.create_game(LOG_GAME, options, seed)
    game_id, previous = snap.game["id"], snap.game["seed_commitment"]
    for seq, move in enumerate(moves, start=1):
        digest = move_hash(previous, seq, 0, move)
        store.append(
            game_id, seq - 1, MoveEvent(seq, 0, move, "2026-01-01T00:00:00.000Z", digest), None
        )
        previous = digest
    assert snap.token is not None
    return game_id, snap.token


def request_times(
    cache: bool, games_per_length: int = 200
) -> dict[int, tuple[list[float], list[float], float]]:
    """GET and POST times at each of LENGTHS moves (SQLite, in process), and one replay's time.

    With the cache, each game is read before its move is posted: the cache is warm, as for a
    client that looks before it moves. Without, every request replays the whole log, as a
    fresh process (a Lambda cold start) does. The lengths take turns, request by request, so
    that a shared host's drift falls on all of them alike.
    """
    options: dict[str, object] = {"recycle_reserve": True}
    seed = "bench-0"
    longest = max(LENGTHS)
    log = stalling_log(seed, options, longest + 1)
    assert len(log) == longest + 1, f"the stalling player should reach {longest + 1} moves"
    ruleset = get_ruleset(LOG_GAME)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(f"{tmp}/bench.db")
        service = GameService(
            store, utc_now, new_secret, b"bench", ReplayCache(4096) if cache else None
        )
        client = create_app(service).test_client()
        games = {
            n: [_seed_game(service, store, seed, options, log[:n]) for _ in range(games_per_length)]
            for n in LENGTHS
        }
        gets: dict[int, list[float]] = {n: [] for n in LENGTHS}
        posts: dict[int, list[float]] = {n: [] for n in LENGTHS}
        for i in range(games_per_length):
            for n in LENGTHS:
                game_id, token = games[n][i]
                headers = {"Authorization": f"Bearer {token}"}
                for _ in range(2):
                    started = time.perf_counter()
                    assert client.get(f"/v1/games/{game_id}", headers=headers).status_code == 200
                    gets[n].append(time.perf_counter() - started)
        for i in range(games_per_length):
            for n in LENGTHS:
                game_id, token = games[n][i]
                body = {"version": n, "move": log[n]}
                started = time.perf_counter()
                r = client.post(
                    f"/v1/games/{game_id}/moves",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                )
                posts[n].append(time.perf_counter() - started)
                assert r.status_code == 201, r.json
        out = {}
        for n in LENGTHS:
            prefix = [(0, m) for m in log[:n]]
            replay_s = min(timings(lambda p=prefix: replay(ruleset, seed, options, p), 20))  # type: ignore[misc]
            out[n] = (gets[n], posts[n], replay_s)
    return out


def requests(cache: bool, games_per_length: int = 200) -> Bench:
    """GET a game and POST a move at each of LENGTHS moves, median (p99 and the share of one
    replay in the detail), and a POST at the longest over one at 0 moves."""
    label = "warm" if cache else "off"
    each = [f"service.{kind}.{n}.{label}" for n in LENGTHS for kind in ("get", "post")]
    ids = (*each, f"service.post_{max(LENGTHS)}_over_0.{label}")

    def run() -> list[Figure]:
        times = request_times(cache, games_per_length)
        out = []
        for n, (gets, posts, replay_s) in times.items():
            for kind, samples in (("get", gets), ("post", posts)):
                median = statistics.median(samples)
                what = "GET game" if kind == "get" else "POST move"
                out.append(
                    Figure(
                        f"service.{kind}.{n}.{label}",
                        f"{what}, {n} moves, SQLite, in process, cache {label}, median",
                        median * 1e3,
                        "ms",
                        f"p99 {pct(samples, 0.99) * 1e3:.2f} ms, one replay "
                        f"{replay_s / median:.0%} of it; {len(samples)} requests",
                    )
                )
        longest = max(LENGTHS)
        ratio = statistics.median(times[longest][1]) / statistics.median(times[0][1])
        out.append(
            Figure(
                f"service.post_{longest}_over_0.{label}",
                f"POST move at {longest} moves / at 0 moves, cache {label}",
                ratio,
                "x",
                "medians; it was 3.8x before the replay cache",
            )
        )
        return out

    return Bench(ids, run)


READS = frozenset({"Query", "GetItem", "BatchGetItem", "Scan", "TransactGetItems"})
"""DynamoDB operations that read; every other one counts as a write."""


def dynamodb_calls() -> tuple[Mapping[str, int], Mapping[str, int]]:
    """The DynamoDB operations of a move and of a finishing move (a resignation), counted with
    botocore's event hooks on the real client, against moto."""
    from moto import mock_aws

    from infra.dynamo_store import DynamoStore, make_client

    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(key, "bench")
    with mock_aws():
        client_ = make_client(None, "us-east-1")
        store = DynamoStore(client_, "bench")
        store.create_table()
        service = GameService(store, utc_now, new_secret)
        app = create_app(service).test_client()
        calls: Counter[str] = Counter()
        client_.meta.events.register(
            "before-call.dynamodb", lambda model, **_: calls.update([model.name])
        )
        created = app.post("/v1/games", json={"ruleset": LOG_GAME, "seed": "royal"}).json
        assert created is not None
        headers = {"Authorization": f"Bearer {created['token']}"}
        path = f"/v1/games/{created['game']['id']}/moves"
        first = next(m for m in created["view"]["legal_moves"] if m["type"] != "resign")
        calls.clear()
        move = {"version": 0, "move": first}
        assert app.post(path, json=move, headers=headers).status_code == 201
        plain = dict(calls)
        calls.clear()
        resign = {"version": 1, "move": {"type": "resign"}}
        assert app.post(path, json=resign, headers=headers).status_code == 201
        finishing = dict(calls)
    return plain, finishing


def dynamodb_requests() -> Bench:
    """Reads and writes per move: the most of a move and a finishing move."""
    ids = ("service.dynamodb.reads_per_move", "service.dynamodb.writes_per_move")

    def run() -> list[Figure]:
        plain, finishing = dynamodb_calls()

        def describe(c: Mapping[str, int]) -> str:
            return ", ".join(f"{v} {k}" for k, v in sorted(c.items()))

        def count(c: Mapping[str, int], reads: bool) -> int:
            return sum(v for k, v in c.items() if (k in READS) == reads)

        detail = f"move: {describe(plain)}; finishing move: {describe(finishing)}"
        return [
            Figure(
                ids[0],
                "DynamoDB reads per move (moto, botocore hooks)",
                max(count(plain, True), count(finishing, True)),
                "requests",
                detail,
            ),
            Figure(
                ids[1],
                "DynamoDB writes per move (moto, botocore hooks)",
                max(count(plain, False), count(finishing, False)),
                "requests",
                detail,
            ),
        ]

    return Bench(ids, run)


def lambda_start(runs: int = 9) -> Bench:
    """A fresh process, from the built Lambda artifact (bytecode included), to the handler's
    first response; against importing its dependencies and creating the DynamoDB client alone.
    Best of nine each: a fresh process on a shared host varies by a fifth from run to run."""
    ident = "service.lambda.first_response_over_deps"

    def run() -> list[Figure]:
        first, deps, deps_paused, import_cpu = lambda_times(runs)
        return [
            Figure(
                "service.lambda.import_cpu",
                "Lambda: CPU of importing the entry (handlers.aws.api) from the artifact",
                import_cpu * 1e3,
                "ms",
                f"median of {runs}, a clean Python with only the artifact on its path",
            ),
            Figure(
                ident,
                "Lambda: fresh process to first response / dependencies + client",
                first / deps,
                "x",
                f"{first * 1e3:.0f} ms vs {deps * 1e3:.0f} ms; against the dependencies with GC "
                f"paused too, {first / deps_paused:.2f}x; artifact with bytecode, no Swagger UI, "
                f"GC paused during init; best of {runs}",
            ),
        ]

    return Bench((ident, "service.lambda.import_cpu"), run)


def lambda_times(runs: int) -> tuple[float, float, float, float]:
    """Seconds, best of `runs`: first response, dependencies + client, the same with GC paused;
    and the median CPU seconds of importing the entry."""
    import json as json_module
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    from scripts.build_lambda import build

    event = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": "/healthz",
        "rawQueryString": "",
        "headers": {"host": "api.example"},
        "requestContext": {"http": {"method": "GET", "path": "/healthz", "sourceIp": "1.2.3.4",
                                    "protocol": "HTTP/1.1", "userAgent": "bench"},
                           "stage": "$default", "requestId": "r", "accountId": "1"},
        "isBase64Encoded": False,
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        artifact = build(Path(tmp) / "out")
        tree = Path(tmp) / "tree"
        zipfile.ZipFile(artifact).extractall(tree)
        env = {**os.environ, "PYTHONPATH": str(tree), "AWS_DEFAULT_REGION": "us-east-1",
               "ROYAL_TABLE": "bench", "AWS_ACCESS_KEY_ID": "bench",
               "AWS_SECRET_ACCESS_KEY": "bench", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip

        def best(code: str) -> float:
            timer = "import time; t = time.perf_counter(); "
            return min(
                float(
                    subprocess.run(
                        [sys.executable, "-c", timer + code + "; print(time.perf_counter() - t)"],
                        capture_output=True,
                        text=True,
                        check=True,
                        env=env,
                        cwd=tmp,
                    ).stdout.splitlines()[-1]  # after the handler's own log lines
                )
                for _ in range(runs)
            )

        deps_code = (
            "import flask, marshmallow, boto3, apig_wsgi, flask_cors; "
            "boto3.client('dynamodb', region_name='us-east-1')"
        )
        deps = best(deps_code)
        # The handler pauses garbage collection while it initialises; the same pause given
        # to the dependencies alone shows what our own modules and app cost on top.
        deps_paused = best("import gc; gc.disable(); " + deps_code)
        first = best(
            "import handlers.aws.api as h; "
            f"assert h.handler({json_module.dumps(event)!r} and __import__('json').loads("
            f"{json_module.dumps(event)!r}), None)['statusCode'] == 200"
        )
        # The CPU the entry's import costs (what Lambda's init bills), the interpreter's own
        # start left out: the median of `runs`.
        import_cpu = statistics.median(
            float(
                subprocess.run(
                    [sys.executable, "-c", "import time; t = time.process_time(); "
                     "import handlers.aws.api; print(time.process_time() - t)"],
                    capture_output=True, text=True, check=True, env=env, cwd=tmp,
                ).stdout.splitlines()[-1]
            )
            for _ in range(runs)
        )  # fmt: skip
    return first, deps, deps_paused, import_cpu
