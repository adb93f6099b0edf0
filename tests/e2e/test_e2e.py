"""End to end: a real `court serve` (waitress) process, spoken to over loopback HTTP."""

import contextlib
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

from tests.stores import FAKE_CREDENTIALS, ROOT, _free_port, fresh_table_name, running


@contextlib.contextmanager
def server(
    *args,
    env=None,
    stderr=subprocess.PIPE,
    preexec_fn=None,
    module="handlers.cli",
    prepare_daily=False,
):
    """A real `court serve` on a free port: yields its base URL and process.

    Pass a file as `stderr` when the server will log more than a pipe holds (64 KiB), and
    `module="tests.games.serve"` for a server that also offers the test-only games.

    The daily deals are chosen on first need (the fallback), not at start, unless
    `prepare_daily`: choosing today's and tomorrow's for every solitaire takes some 16 s of a
    core (worker 0's, beside its requests), at each of the dozens of servers the tests start;
    tests/e2e/test_prepare_daily.py is the step's own test.

    Moves and costly reads are not paced unless the test passes `--moves-per-minute` (the
    tests play whole games, and finish them from "another device", as fast as a script can;
    tests/e2e/test_e2e_trust.py tests the pacing).
    """
    if not prepare_daily:
        args = (*args, "--no-prepare-daily")
    if "--moves-per-minute" not in args:
        args = (*args, "--moves-per-minute", "0", "--costly-reads-per-minute", "0")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"

    def healthy():
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                return True
        except OSError:
            return False

    command = [sys.executable, "-m", module, "serve", "--port", str(port), *args]
    with running(
        command,
        healthy,
        30,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
        preexec_fn=preexec_fn,
    ) as proc:
        yield base, proc


def call(base, method, path, body=None, token=None, raw=None, headers=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read() or b"null")


def play_through(base):
    status, headers, created = call(
        base, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"}
    )
    assert status == 201 and headers["Location"].startswith("/v1/games/")
    gid, token = created["game"]["id"], created["token"]
    status, _, body = call(base, "GET", f"/v1/games/{gid}", token=token)
    assert status == 200 and body["view"]["current"] == "6C"
    move = {"version": 0, "move": {"type": "attack", "column": "hearts"}}
    assert call(base, "POST", f"/v1/games/{gid}/moves", move, token)[0] == 201
    status, _, problem = call(base, "POST", f"/v1/games/{gid}/moves", move, token)
    assert status == 409 and problem["current_version"] == 1
    status, _, problem = call(
        base, "POST", f"/v1/games/{gid}/moves", {"version": 1, "move": {"type": "reserve"}}, token
    )
    assert status == 422 and problem["legal_moves"]
    return gid, token


def test_sqlite_server(tmp_path):
    with server("--db", str(tmp_path / "court.db")) as (base, proc):
        gid, token = play_through(base)
        big = b'{"version": 1, "move": {"type": "draw", "pad": "' + b"x" * 20000 + b'"}}'
        status, _, problem = call(base, "POST", f"/v1/games/{gid}/moves", raw=big, token=token)
        assert status == 413 and problem["status"] == 413
        # Racing clients on one version: exactly one wins.
        results = []
        barrier = threading.Barrier(10)

        def racer():
            barrier.wait()
            results.append(
                call(
                    base,
                    "POST",
                    f"/v1/games/{gid}/moves",
                    {"version": 1, "move": {"type": "draw"}},
                    token,
                )[0]
            )

        threads = [threading.Thread(target=racer) for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [201] + [409] * 9
        status, _, log = call(base, "GET", f"/v1/games/{gid}/moves")
        assert [m["seq"] for m in log["moves"]] == [1, 2]
        status, headers, _ = call(
            base,
            "OPTIONS",
            "/v1/games",
            headers={"Origin": "https://play.example", "Access-Control-Request-Method": "POST"},
        )
        assert headers.get("Access-Control-Allow-Origin") in ("*", "https://play.example")
    stderr = proc.stderr.read()
    lines = [json.loads(x) for x in stderr.splitlines() if x.startswith("{")]
    assert any(x["path"] == f"/v1/games/{gid}/moves" and x["status"] == 409 for x in lines)
    assert all({"method", "path", "status", "ms", "game_id"} <= set(x) for x in lines)


def test_dynamodb_local_server(dynamodb_local_endpoint):
    table = fresh_table_name()
    args = (
        "--store",
        "dynamodb",
        "--endpoint-url",
        dynamodb_local_endpoint,
        "--table",
        table,
        "--create-table",
    )
    with server(*args, env=FAKE_CREDENTIALS) as (base, _):
        play_through(base)


@pytest.mark.parametrize("path", ["/openapi.yaml", "/docs/"])
def test_docs_are_served(tmp_path, path):
    with (
        server("--db", str(tmp_path / "court.db")) as (base, _),
        urllib.request.urlopen(base + path, timeout=5) as response,
    ):
        assert response.status == 200


def test_a_newcomer_downloads_a_record_and_verifies_it_offline(tmp_path):
    """Done when of the records issue: finish a game, `court record --url`, `court verify`."""
    with server("--db", str(tmp_path / "court.db")) as (base, _):
        status, _, created = call(base, "POST", "/v1/games", {"ruleset": "royal-assassin"})
        gid, token = created["game"]["id"], created["token"]
        status, _, _ = call(
            base, "POST", f"/v1/games/{gid}/moves", {"version": 0, "move": {"type": "resign"}},
            token,
        )  # fmt: skip
        assert status == 201
        record = subprocess.run(
            [sys.executable, "-m", "handlers.cli", "record", gid, "--url", base],
            capture_output=True, text=True, timeout=30, cwd=ROOT,
        )  # fmt: skip
    assert record.returncode == 0, record.stderr
    path = tmp_path / "game.json"
    path.write_text(record.stdout)
    verified = subprocess.run(
        [sys.executable, "-m", "handlers.cli", "verify", str(path)],
        capture_output=True, text=True, timeout=30, cwd=ROOT,
    )  # fmt: skip
    assert verified.returncode == 0 and verified.stdout.startswith("OK royal-assassin lost ")
