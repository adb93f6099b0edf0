"""A real `court serve` against idle sockets, load, a taken port and a misconfigured store."""

import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from tests.e2e.test_e2e import call, server
from tests.stores import FAKE_CREDENTIALS, ROOT, _free_port, fresh_table_name, listening


def test_150_idle_sockets_do_not_lock_anyone_out(tmp_path):
    with server("--db", str(tmp_path / "court.db")) as (base, _):
        port = int(base.rsplit(":", 1)[1])
        idle = []
        try:
            for _ in range(150):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                idle.append(s)
            # A slow-loris: half a request line on some of them, then nothing.
            for s in idle[::3]:
                s.sendall(b"GET /healthz HT")
            started = time.monotonic()
            status, _, body = call(base, "GET", "/healthz")
            assert status == 200 and body == {"status": "ok"}
            status, _, created = call(
                base, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"}
            )
            assert status == 201
            status, _, _ = call(
                base,
                "POST",
                f"/v1/games/{created['game']['id']}/moves",
                {"version": 0, "move": {"type": "reserve"}},
                created["token"],
            )
            assert status == 201
            # Generous for a busy CI host; before the fix these waited for the sockets to close.
            assert time.monotonic() - started < 5
        finally:
            for s in idle:
                s.close()


def test_load_does_not_flood_the_log_with_queue_depth(tmp_path):
    log = tmp_path / "server.log"
    with (
        open(log, "w") as err,
        server("--db", str(tmp_path / "court.db"), "--threads", "1", stderr=err) as (base, _),
    ):

        def client():
            for _ in range(15):
                call(base, "GET", "/v1/rulesets")

        threads = [threading.Thread(target=client) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    text = log.read_text()
    assert text.count('"path": "/v1/rulesets"') == 180  # every request was served and logged
    assert "Task queue depth" not in text


def court(*args, env=None, unset=(), timeout=60):
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "-m", "handlers.cli", *args],
        cwd=ROOT,
        env={**environment, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_port_in_use_is_one_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = court("serve", "--port", str(port), "--db", str(tmp_path / "court.db"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"court: cannot listen on 127.0.0.1:{port}: ")
    assert "in use" in last


CREDENTIAL_VARIABLES = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
)
NO_CREDENTIALS = {
    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
    "AWS_CONFIG_FILE": "/nonexistent",
    "AWS_EC2_METADATA_DISABLED": "true",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def _refusal(result) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_dynamodb_without_credentials_refuses_to_start(dynamodb_local_endpoint):
    result = court(
        "serve", "--store", "dynamodb", "--endpoint-url", dynamodb_local_endpoint,
        env=NO_CREDENTIALS, unset=CREDENTIAL_VARIABLES,
    )  # fmt: skip
    assert "no AWS credentials" in _refusal(result)


def test_a_wrong_aws_profile_refuses_to_start(dynamodb_local_endpoint):
    result = court(
        "serve", "--store", "dynamodb", "--endpoint-url", dynamodb_local_endpoint,
        env={**NO_CREDENTIALS, "AWS_PROFILE": "nope"}, unset=CREDENTIAL_VARIABLES,
    )  # fmt: skip
    assert "nope" in _refusal(result)


def test_dynamodb_unreachable_refuses_to_start():
    port = _free_port()
    assert not listening(port)
    result = court(
        "serve", "--store", "dynamodb", "--endpoint-url", f"http://127.0.0.1:{port}",
        env=FAKE_CREDENTIALS,
    )  # fmt: skip
    assert f"cannot reach DynamoDB at http://127.0.0.1:{port}" in _refusal(result)


def test_dynamodb_missing_table_refuses_to_start_and_says_how_to_fix(dynamodb_local_endpoint):
    table = fresh_table_name()
    result = court(
        "serve", "--store", "dynamodb", "--endpoint-url", dynamodb_local_endpoint,
        "--table", table, env=FAKE_CREDENTIALS,
    )  # fmt: skip
    line = _refusal(result)
    assert f"no table '{table}'" in line and "--create-table" in line


def test_store_errors_at_run_time_are_logged_with_their_cause(dynamodb_local_endpoint, caplog):
    """Clients get a generic 503; the operator's log says which error, never a secret."""
    from domain.service import GameService
    from handlers.http.app import create_app
    from infra.dynamo_store import DynamoStore, make_client
    from tests.api_helpers import counting_secrets, fixed_clock

    with pytest.MonkeyPatch.context() as mp:
        for key, value in FAKE_CREDENTIALS.items():
            mp.setenv(key, value)
        store = DynamoStore(make_client(dynamodb_local_endpoint, "us-east-1"), "no-such-table")
        app = create_app(GameService(store, fixed_clock, counting_secrets()))
        with caplog.at_level("WARNING", logger="royal_court"):
            r = app.test_client().post("/v1/games", json={"ruleset": "royal-assassin"})
    assert r.status_code == 503 and r.headers["Retry-After"]
    assert r.json["detail"] == "the game store is busy; retry shortly"
    assert "ResourceNotFoundException" not in r.get_data(as_text=True)
    logged = [rec.getMessage() for rec in caplog.records if rec.name == "royal_court"]
    assert any("ResourceNotFoundException" in m and "put_item" in m for m in logged), logged
    assert not any(FAKE_CREDENTIALS["AWS_SECRET_ACCESS_KEY"] in m for m in logged)
