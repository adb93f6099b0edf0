"""The court: the one way a request opens a game (load, authorize, guard, replay)."""

import pytest

from domain.errors import Forbidden, GameNotFound
from domain.replay_cache import ReplayCache
from domain.usecases import games
from domain.usecases.court import Court
from domain.usecases.shown import masked
from tests.api_helpers import counting_secrets
from tests.unit.usecases.conftest import keep_deal


class CountingStore:
    """The in-memory store, counting the loads that reach it."""

    def __init__(self, store):
        self.store, self.loads = store, 0

    def __getattr__(self, name):
        return getattr(self.store, name)

    def load(self, game_id):
        self.loads += 1
        return self.store.load(game_id)


def test_an_id_never_issued_is_not_found_without_asking_the_store(store, clock):
    counting = CountingStore(store)
    court = Court(counting, clock, counting_secrets())
    for game_id in ("../etc", "x" * 65, "", "a b"):
        with pytest.raises(GameNotFound):
            court.open(game_id, None)
    assert counting.loads == 0
    with pytest.raises(GameNotFound):
        court.open("well-formed-but-unknown", None)
    assert counting.loads == 1


def test_a_token_opens_its_own_seat_and_no_other(court):
    created = games.create_game(court, "royal-ace-assin", None, None)
    gid = created.game["id"]
    assert court.open(gid, created.token).seat == 0
    assert court.open(gid, None).seat is None
    with pytest.raises(Forbidden):
        court.open(gid, "not-a-token-of-this-game")


def test_an_expired_game_is_gone_before_the_store_deletes_it(store, clock):
    court = Court(store, clock, counting_secrets(), game_ttl=3600)
    gid = games.create_game(court, "royal-assassin", None, None).game["id"]
    clock.now = "2026-11-22T10:59:59.000Z"
    assert court.open(gid, None).stored.record.id == gid
    clock.now = "2026-11-22T11:00:00.000Z"
    with pytest.raises(GameNotFound, match="expired"):
        court.open(gid, None)
    assert store.load(gid) is not None  # still stored: reads treat it as gone all the same


def test_a_ranked_game_is_its_players_alone_until_midnight(court, store, clock):
    from domain.usecases import daily, players

    keep_deal(store, "2026-11-22", "royal-assassin")
    player = players.create_player(court, "Anne")
    ranked = daily.start_daily(court, "2026-11-22", "royal-assassin", player["token"])
    gid = ranked.game["id"]
    assert court.open(gid, ranked.token).seat == 0
    with pytest.raises(Forbidden, match="private"):
        court.open(gid, None)
    clock.now = "2026-11-23T00:00:00.000Z"
    assert court.open(gid, None).seat is None
    assert court.seed_public(store.load(gid).record, over=False)


def test_replay_from_the_cache_is_replay_from_the_deal(store, clock):
    plain = Court(store, clock, counting_secrets())
    cached = Court(store, clock, counting_secrets(), replay_cache=ReplayCache())
    created = games.create_game(plain, "royal-assassin", None, "court-7")
    gid = created.game["id"]
    from domain.usecases import playing

    for _ in range(6):
        view = plain.open(gid, created.token).game.view(0)
        move = next(m for m in view["legal_moves"] if m["type"] not in ("resign", "undo"))
        version = plain.load(gid).version
        playing.play(plain, gid, created.token, version, move)
        assert cached.open(gid, None).game.view(None) == plain.open(gid, None).game.view(None)
        stored = plain.load(gid)
        for upto in range(stored.version + 1):
            assert cached.replay(stored, upto).view(0) == plain.replay(stored, upto).view(0)


def test_a_casual_seed_is_public_once_over_a_chosen_one_at_once(court):
    secret = games.create_game(court, "royal-assassin", None, None)
    chosen = games.create_game(court, "royal-assassin", None, "court-1")
    record = court.load(secret.game["id"]).record
    assert not court.seed_public(record, over=False) and court.seed_public(record, over=True)
    assert court.seed_public(court.load(chosen.game["id"]).record, over=False)
    assert "seed" not in secret.game and chosen.game["seed"] == "court-1"


def test_masked_blanks_exactly_the_named_strings():
    value = {"hand": ["KH", "2C"], "n": 2, "nested": [{"card": "KH"}], "KH": "key kept"}
    assert masked(value, frozenset({"KH"})) == {
        "hand": [None, "2C"],
        "n": 2,
        "nested": [{"card": None}],
        "KH": "key kept",
    }
    assert masked(value, frozenset()) is value
