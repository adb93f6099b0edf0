from hypothesis import settings

# Derandomized so that `make test` is reproducible run to run and on CI; no deadline because
# the machine may be busy, and speed is measured by `make bench`, never by tests.
settings.register_profile("repo", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("repo")


import fcntl  # noqa: E402
import hashlib  # noqa: E402
import os  # noqa: E402
import pickle  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from tests.stores import (  # noqa: E402
    FAKE_CREDENTIALS,
    ROOT,
    dynamo_client,
    dynamodb_local,
    fresh_table_name,
)

STORE_KINDS = ["memory", "sqlite", "moto", "dynamodb-local"]
FIRST = ("browser", "slow", "long")
"""The marks of the tests that take half a minute or more."""


NEEDS_TOOLS = ("tests/clients/",)
"""Long tests that need the npm tools, which `make test` installs beside the tests: handed
out after the other long ones, so that no worker sits waiting for npm at the start."""


def pytest_collection_modifyitems(items):
    """The long tests first, the rest in their order: pytest-xdist hands tests out in this
    order as workers free up, so the many short ones fill in at the end, and no worker is left
    alone with a minute-long test while the other core idles.

    The long tests that mostly wait (a browser and a server: tests/e2e/) are then dealt in
    among all the others, evenly by the time each is expected to take, so that about one
    worker of three waits on a browser at any time while the other two keep both cores busy.
    Handed out all at once, three workers waited on three browsers for four minutes of a run
    with a core half idle."""

    def is_long(item: pytest.Item) -> bool:
        return any(item.get_closest_marker(m) for m in FIRST)

    def order(item: pytest.Item) -> tuple[bool, bool]:
        return not is_long(item), item.nodeid.startswith(NEEDS_TOOLS)

    items.sort(key=order)
    waiting = [item for item in items if is_long(item) and item.nodeid.startswith(WAITING)]
    busy = [item for item in items if not (is_long(item) and item.nodeid.startswith(WAITING))]
    items[:] = _dealt_in(waiting, busy, [LONG_SECONDS if is_long(i) else 0.4 for i in busy])


WAITING = ("tests/e2e/",)
"""The tests that spend most of their time waiting on a browser or a server, not on a core."""

LONG_SECONDS = 15
"""About what a long test takes, against the 0.4 s of the others (pytest's durations)."""


def _dealt_in(few: list, many: list, seconds: list[float]) -> list:
    """`few` spread through `many` evenly by the time the items of `many` take (`seconds`):
    a worker that takes the next item meets one of `few` as often early in the run as late.
    Each list keeps its order."""
    total = sum(seconds) or 1.0
    dealt: list = []
    placed, elapsed = 0, 0.0
    for item, took in zip(many, seconds, strict=True):
        while placed < len(few) and (placed + 0.5) / len(few) <= elapsed / total:
            dealt.append(few[placed])
            placed += 1
        dealt.append(item)
        elapsed += took
    return dealt + few[placed:]


@pytest.fixture(scope="session")
def dynamodb_local_endpoint():
    with pytest.MonkeyPatch.context() as mp:
        for key, value in FAKE_CREDENTIALS.items():
            mp.setenv(key, value)
        with dynamodb_local() as endpoint:
            yield endpoint


_chosen_deals: dict[tuple[str, bytes, str], object] = {}


@pytest.fixture(autouse=True)
def _each_daily_deal_chosen_once(monkeypatch, tmp_path_factory):
    """`domain.daily.select` is pure: the day's deal of a game is a function of the secret and
    the date, chosen by the solver and rated by bot playouts (seconds of CPU: five for a day of
    Risus Royale). The tests ask for the same few days under the same few secrets dozens of
    times, on every store and in every worker: each is chosen once per run here (a file in the
    run's folder, which the workers share), then handed out as chosen. A test that counts or
    replaces the choosing patches `domain.usecases.daily.select` over this one; the servers
    and Lambda runtimes the tests start choose for themselves."""
    import domain.daily
    import domain.usecases.daily
    from domain.registry import GAMES

    real, rating = domain.usecases.daily.select, domain.daily.bot_wins
    folder = run_folder(tmp_path_factory) / "daily-deals"

    def once(game, secret, day):
        if domain.daily.bot_wins is not rating or GAMES.get(game.id) is not game:
            return real(game, secret, day)  # rated or solved otherwise by this test: not kept
        key = (game.id, bytes(secret), day)
        if key not in _chosen_deals:
            _chosen_deals[key] = _chosen_in_this_run(folder, key, lambda: real(game, secret, day))
        return _chosen_deals[key]

    monkeypatch.setattr(domain.usecases.daily, "select", once)


@pytest.fixture
def quick_deals(monkeypatch):
    """Days' deals chosen as a game without a solver would (candidate 0), rated by one bot
    game: for the tests that need some day's deal under a secret of their own and test
    something else (secrecy, a missing secret), where the solver's search and 200 playouts
    would be seconds of every day they cross and would tell nothing."""
    from dataclasses import replace

    import domain.daily
    import domain.usecases.daily

    rate = domain.daily.bot_wins
    monkeypatch.setattr(domain.daily, "bot_wins", lambda game, seed: rate(game, seed, 1))
    monkeypatch.setattr(
        domain.usecases.daily,
        "select",
        lambda game, secret, date: domain.daily.select(replace(game, solver=None), secret, date),
    )


def _chosen_in_this_run(folder: Path, key: tuple[str, bytes, str], choose):
    """The deal kept for `key` by whichever worker chose it first in this run, or chosen now
    and kept (a file lock per key: a worker asking meanwhile waits instead of choosing too)."""
    folder.mkdir(exist_ok=True)
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:32]
    kept = folder / f"{name}.pickle"
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        deal = choose()
        partial = kept.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(deal))
        partial.rename(kept)
        return deal


@pytest.fixture(autouse=True)
def _logging_as_it_was():
    """A test that imports the Lambda entry configures the app's loggers as Lambda would
    (JSON on stdout, not propagated): undone after it, so that later tests' caplog still
    sees them."""
    import logging

    loggers = [logging.getLogger(n) for n in ("royal_court", "royal_court.access")]
    saved = [(lg, list(lg.handlers), lg.level, lg.propagate) for lg in loggers]
    yield
    for lg, handlers, level, propagate in saved:
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate


@pytest.fixture
def aws_credentials(monkeypatch):
    for key, value in FAKE_CREDENTIALS.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(params=STORE_KINDS)
def store(request, tmp_path, aws_credentials):
    """Each store kind, fresh: the contract suite and the API suite run on all of them (the
    in-memory fake too, so that service tests on it can be trusted)."""
    kind = request.param
    if kind == "memory":
        from tests.fakes import InMemoryStore

        yield InMemoryStore()
    elif kind == "sqlite":
        from infra.sqlite_store import SqliteStore

        yield SqliteStore(str(tmp_path / "court.db"))
    elif kind == "moto":
        from moto import mock_aws

        from infra.dynamo_store import DynamoStore

        with mock_aws():
            store = DynamoStore(dynamo_client(None), fresh_table_name())
            store.create_table()
            yield store
    else:
        from infra.dynamo_store import DynamoStore

        endpoint = request.getfixturevalue("dynamodb_local_endpoint")
        store = DynamoStore(dynamo_client(endpoint), fresh_table_name())
        store.create_table()
        yield store


def run_folder(tmp_path_factory) -> Path:
    """A folder every pytest-xdist worker of this run shares (each worker's basetemp is a
    child of it), so that slow setup is done once per run, not once per worker."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def lambda_artifact(tmp_path_factory):
    """The artifact `make lambda` builds (build/lambda/function.zip), from this checkout, built
    once per run whichever worker asks first (a file lock keeps the others waiting), and
    shared read-only by the emulated Lambda and `serverless package`."""
    shared = run_folder(tmp_path_factory)
    out = shared / "lambda-artifact"
    with open(shared / "lambda-artifact.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "function.zip").exists():
            subprocess.run(
                [sys.executable, "scripts/build_lambda.py", "--out", str(out / "partial")],
                cwd=ROOT, check=True, capture_output=True, timeout=600,
            )  # fmt: skip
            (out / "partial" / "function.zip").rename(out / "function.zip")
    return out / "function.zip"
