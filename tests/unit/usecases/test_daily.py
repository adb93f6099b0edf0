"""Daily challenges: the day's deals, players, one ranked attempt, practice, leaderboards."""

import pytest

from domain.errors import AttemptExists, DailyNotFound, Forbidden, InvalidRequest, Unauthenticated
from domain.usecases import daily, players, playing
from domain.usecases.court import Court
from tests.api_helpers import counting_secrets
from tests.unit.usecases.conftest import keep_deal

SOLITAIRES = ("royal-assassin", "adaman", "risus-royale")
TODAY = "2026-11-22"


@pytest.fixture
def dealt(store):
    for ruleset in SOLITAIRES:
        keep_deal(store, TODAY, ruleset, seed=f"daily-{ruleset}")


def test_today_lists_every_solitaire_without_its_seed(court, dealt):
    day = daily.daily(court, TODAY)
    assert sorted(c["ruleset"] for c in day["challenges"]) == sorted(SOLITAIRES)
    assert not day["over"] and all("seed" not in c and c["ranked"] for c in day["challenges"])


def test_a_day_never_dealt_is_not_found_and_never_chosen_on_demand(court, store):
    with pytest.raises(DailyNotFound):
        daily.daily(court, "2026-11-21")
    assert store.load_daily("2026-11-21", "royal-assassin") is None
    with pytest.raises(DailyNotFound, match="yet"):
        daily.daily(court, "2026-11-23")  # tomorrow has not begun
    with pytest.raises(InvalidRequest):
        daily.daily(court, "2026-02-30")


def test_one_ranked_attempt_per_player_and_a_seed_only_after_midnight(court, dealt, clock):
    with pytest.raises(Unauthenticated):
        daily.start_daily(court, TODAY, "royal-assassin", None)
    with pytest.raises(Forbidden):
        daily.start_daily(court, TODAY, "royal-assassin", "nobody.secret")
    player = players.create_player(court, "Anne")
    ranked = daily.start_daily(court, TODAY, "royal-assassin", player["token"])
    assert ranked.game["daily"] == {"date": TODAY, "name": player["name"]}
    assert "seed" not in ranked.game and "undo" not in str(ranked.view["legal_moves"])
    with pytest.raises(AttemptExists):
        daily.start_daily(court, TODAY, "royal-assassin", player["token"])
    clock.now = "2026-11-23T08:00:00.000Z"
    practice = daily.start_daily(court, TODAY, "royal-assassin", None)
    assert practice.game["seed"] == "daily-royal-assassin" and "daily" not in practice.game


def test_the_leaderboard_ranks_finished_attempts_and_shows_your_place(court, dealt):
    entrants = [players.create_player(court, name) for name in ("Anne", "Bo")]
    for player in entrants:
        ranked = daily.start_daily(court, TODAY, "royal-assassin", player["token"])
        playing.play(court, ranked.game["id"], ranked.token, 0, {"type": "resign"})
    late = players.create_player(court, "Cy")
    board = daily.leaderboard(court, TODAY, "royal-assassin", 1, None, late["token"])
    assert [e["rank"] for e in board["entries"]] == [1] and board["cursor"]
    assert board["you"] == {"name": late["name"], "played": False}
    rest = daily.leaderboard(
        court, TODAY, "royal-assassin", 1, board["cursor"], entrants[1]["token"]
    )
    # Both resigned at once: tied, they share first place, across the page break too.
    assert [e["rank"] for e in rest["entries"]] == [1] and rest["cursor"] is None
    assert rest["you"]["played"] and rest["you"]["finished"] and rest["you"]["rank"] == 1
    with pytest.raises(InvalidRequest):
        daily.leaderboard(court, TODAY, "royal-assassin", 1, "forged", None)


def test_prepare_keeps_what_is_kept_and_names_what_it_chose(court, dealt, store, monkeypatch):
    chosen = []

    def choose(game, secret, day):  # the solver's choice, stood in by a fixed kept deal
        chosen.append((day, game.id))
        keep_deal(store, day, game.id, seed=f"chosen-{day}")
        return store.load_daily(day, game.id)

    monkeypatch.setattr(daily, "select", choose)
    assert daily.prepare_daily(court, days=2) == [f"2026-11-23/{r}" for r in SOLITAIRES]
    assert sorted(chosen) == sorted(("2026-11-23", r) for r in SOLITAIRES)
    assert daily.prepare_daily(court, days=2) == []


def test_a_process_reads_a_deal_once_and_todays_count_every_few_seconds(court, dealt, store, clock):
    """A viral day's daily pages would all read one partition (issue 39): a process keeps
    what it read, today's count for DEAL_FRESH_SECONDS, a finished day's for good; its own
    starts add to the count it holds."""
    reads = []
    real = store.load_daily
    store.load_daily = lambda day, ruleset: reads.append((day, ruleset)) or real(day, ruleset)
    count = lambda: next(c["players"] for c in daily.daily(court, TODAY)["challenges"]  # noqa: E731
                         if c["ruleset"] == "royal-assassin")  # fmt: skip
    assert count() == 0 and len(reads) == 3  # one read per solitaire
    player = players.create_player(court, "Anne")
    daily.start_daily(court, TODAY, "royal-assassin", player["token"])
    assert count() == 1 and len(reads) == 3  # its own start: counted, nothing read again
    elsewhere = Court(store, clock, counting_secrets(), b"use-case-daily-secret")  # a process
    daily.start_daily(
        elsewhere, TODAY, "royal-assassin", players.create_player(elsewhere, "Bo")["token"]
    )
    before = len(reads)
    assert count() == 1 and len(reads) == before  # not seen here yet
    clock.now = "2026-11-22T10:00:11.000Z"
    assert count() == 2 and len(reads) == before + 3  # read again past DEAL_FRESH_SECONDS
    clock.now = "2026-11-23T00:00:05.000Z"
    daily.daily(court, TODAY)
    clock.now = "2026-11-23T10:00:00.000Z"
    before = len(reads)
    daily.daily(court, TODAY)
    assert len(reads) == before  # read after its day was over: final, kept
