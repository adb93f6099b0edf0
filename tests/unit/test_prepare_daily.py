"""A day's deals chosen ahead of its first request (GameService.prepare_daily), on the
in-memory store with an injected clock: today's and tomorrow's are kept, the lazy path is
then never taken, a deal kept early is shown to nobody before its day, and a missing secret
stores nothing."""

import pytest

import domain.usecases.daily
from domain.daily import candidate_seed
from domain.deal import seed_commitment
from domain.errors import DailyNotFound, StoreUnavailable
from domain.registry import GAMES
from domain.service import GameService
from domain.stored import DailyDeal
from tests.api_helpers import counting_secrets
from tests.fakes import InMemoryStore

SECRET = b"test-daily-secret"
SOLITAIRES = sorted(g.id for g in GAMES.values() if g.ruleset.max_seats == 1)


def quick_select(game, secret, day):
    """`domain.daily.select` without the solver and the bot playouts (seconds each): what
    these tests check is when a deal is chosen and kept, not how."""
    seed = candidate_seed(secret, day, game.id, 0)
    solver = {"winnable": None, "complete": False, "nodes": 0}
    return DailyDeal(day, game.id, seed, seed_commitment(seed), 0, 3, 1, 10, solver)


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def chosen(monkeypatch):
    """Every deal the service chooses (the solver's work), in order."""
    calls = []

    def counting(game, secret, day):
        calls.append(f"{day}/{game.id}")
        return quick_select(game, secret, day)

    monkeypatch.setattr(domain.usecases.daily, "select", counting)
    return calls


def test_today_and_tomorrow_are_chosen_and_kept(chosen):
    store, clock = InMemoryStore(), Clock("2026-11-22T23:50:00.000Z")
    service = GameService(store, clock, counting_secrets(), SECRET)
    done = service.prepare_daily()
    expected = [f"{d}/{r}" for d in ("2026-11-22", "2026-11-23") for r in SOLITAIRES]
    assert sorted(done) == sorted(chosen) == expected
    for entry in expected:
        day, ruleset = entry.split("/")
        deal = store.load_daily(day, ruleset)
        assert deal.seed == candidate_seed(SECRET, day, ruleset, 0)
    assert service.prepare_daily() == [] and len(chosen) == len(expected)  # kept: no new work


def test_after_midnight_the_first_request_finds_the_deals_ready(chosen):
    store, clock = InMemoryStore(), Clock("2026-11-22T22:00:00.000Z")
    service = GameService(store, clock, counting_secrets(), SECRET)
    service.prepare_daily()
    before = len(chosen)
    clock.now = "2026-11-23T00:00:00.000Z"  # the day boundary
    day = service.daily("today")
    assert day["date"] == "2026-11-23" and len(chosen) == before  # the lazy path never ran
    kept = {c["ruleset"]: c["seed_commitment"] for c in day["challenges"]}
    assert kept == {r: store.load_daily("2026-11-23", r).seed_commitment for r in SOLITAIRES}
    # The next run chooses only the day after.
    assert sorted(service.prepare_daily()) == [f"2026-11-24/{r}" for r in SOLITAIRES]


def test_a_deal_kept_early_is_shown_to_nobody_before_its_day(chosen):
    store = InMemoryStore()
    service = GameService(store, Clock("2026-11-22T12:00:00.000Z"), counting_secrets(), SECRET)
    service.prepare_daily()
    assert store.load_daily("2026-11-23", "royal-assassin") is not None
    player = service.create_player("Anne")["token"]
    with pytest.raises(DailyNotFound):
        service.daily("2026-11-23")
    with pytest.raises(DailyNotFound):
        service.start_daily("2026-11-23", "royal-assassin", player)
    with pytest.raises(DailyNotFound):
        service.leaderboard("2026-11-23", "royal-assassin", 10, None, player)
    seed = store.load_daily("2026-11-23", "royal-assassin").seed
    assert seed not in str(service.daily("today")) and seed not in str(service.list_finished(
        None, 100, None))  # fmt: skip


def test_the_lazy_path_remains_the_fallback(chosen):
    service = GameService(
        InMemoryStore(), Clock("2026-11-22T08:00:00.000Z"), counting_secrets(), SECRET
    )
    assert len(service.daily("today")["challenges"]) == len(SOLITAIRES)
    assert sorted(chosen) == [f"2026-11-22/{r}" for r in SOLITAIRES]
    assert sorted(service.prepare_daily()) == [f"2026-11-23/{r}" for r in SOLITAIRES]


def test_without_a_secret_nothing_is_stored(chosen):
    store = InMemoryStore()
    service = GameService(store, Clock("2026-11-22T08:00:00.000Z"), counting_secrets(), b"")
    with pytest.raises(StoreUnavailable):
        service.prepare_daily()
    assert store.load_daily("2026-11-22", "royal-assassin") is None and chosen == []


def test_a_secret_read_on_first_need_is_read_once(chosen):
    reads = []

    def secret():
        reads.append(1)
        return SECRET

    service = GameService(InMemoryStore(), Clock("2026-11-22T08:00:00.000Z"),
                          counting_secrets(), secret)  # fmt: skip
    service.prepare_daily()
    service.prepare_daily(3)
    assert reads == [1] and len(chosen) == 3 * len(SOLITAIRES)
