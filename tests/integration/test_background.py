"""`court serve`'s background step (handlers/serve/background.py): it runs at once and then on its
interval, a failing run is logged and the next one still comes, and it stops when told."""

import logging
import threading
import time

from domain.errors import StoreUnavailable
from handlers.serve.background import delete_expired, prepare_daily, repeat
from tests.api_helpers import make_service


def wait_for(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_failures_are_logged_and_the_step_runs_on(caplog):
    outcomes = [RuntimeError("boom"), StoreUnavailable("the table is down"), "done", None]
    calls = []

    def step():
        outcome = outcomes[min(len(calls), len(outcomes) - 1)]
        calls.append(outcome)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    stop = threading.Event()
    with caplog.at_level(logging.INFO, logger="royal_court.background"):
        thread = repeat(step, 0.01, "a step", stop)
        wait_for(lambda: len(calls) >= 5)
        stop.set()
        thread.join(5)
    assert not thread.is_alive() and thread.daemon
    text = caplog.text
    assert "a step failed (will retry)" in text and "RuntimeError: boom" in text  # traceback
    assert "a step failed (will retry): the table is down" in text
    assert "a step: done" in text and text.count("a step: done") == 1  # None says nothing


def test_the_first_run_is_at_once_and_the_next_waits_its_interval():
    calls = []
    stop = threading.Event()
    thread = repeat(lambda: calls.append(time.monotonic()), 0.5, "slow", stop)
    wait_for(lambda: calls)
    time.sleep(0.2)
    assert len(calls) == 1
    stop.set()
    thread.join(5)
    assert not thread.is_alive()


def test_prepare_daily_keeps_todays_and_tomorrows_deals(tmp_path, monkeypatch):
    from tests.unit.test_prepare_daily import quick_select

    monkeypatch.setattr("domain.usecases.daily.select", quick_select)
    service = make_service(str(tmp_path / "court.db"))
    stop = threading.Event()
    thread = prepare_daily(lambda: service, every=60, stop=stop)
    wait_for(lambda: service.store.load_daily("2026-11-23", "royal-assassin") is not None)
    assert service.store.load_daily("2026-11-22", "royal-assassin") is not None  # fixed clock
    stop.set()
    thread.join(5)


def test_expired_games_are_deleted_in_the_background(tmp_path):
    from domain.service import GameService
    from infra.sqlite_store import SqliteStore
    from tests.api_helpers import counting_secrets

    now = ["2026-11-22T00:00:00.000Z"]
    store = SqliteStore(str(tmp_path / "court.db"), game_ttl=60)
    service = GameService(store, lambda: now[0], counting_secrets(), game_ttl=60)
    gid = service.create_game("royal-assassin", None, "royal").game["id"]
    now[0] = "2026-11-22T00:01:00.000Z"
    stop = threading.Event()
    thread = delete_expired(lambda: service, every=60, stop=stop)
    wait_for(lambda: store.load(gid) is None)
    stop.set()
    thread.join(5)


def test_the_ttl_is_configured_in_days(monkeypatch, tmp_path):
    from handlers.config import Settings, build_service

    monkeypatch.delenv("ROYAL_GAME_TTL_DAYS", raising=False)
    assert Settings.from_env().game_ttl == 30 * 86_400
    monkeypatch.setenv("ROYAL_GAME_TTL_DAYS", "0.5")
    assert Settings.from_env().game_ttl == 43_200
    monkeypatch.setenv("ROYAL_GAME_TTL_DAYS", "0")
    settings = Settings.from_env()
    assert settings.game_ttl is None
    db = str(tmp_path / "court.db")
    from dataclasses import replace

    service = build_service(replace(settings, db=db, game_ttl_days=2))
    assert service.game_ttl == 2 * 86_400
    game = service.create_game("royal-assassin", None, "royal").game
    assert service.store.load(game["id"]).record.expires_at is not None
