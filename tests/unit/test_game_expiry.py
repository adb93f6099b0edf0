"""Casual games expire, on the in-memory store with an injected clock. An unfinished one
(`game_ttl`): the expiry is set at creation, pushed back by a move only once less than half
of it is left (one small write), and replaced by the finish. A finished one (`finished_ttl`):
kept that long after its end, pushed back the same way by each deal of it from a shared link.
Ranked daily attempts are kept for good; an expired game is gone at once (its listing row
too), and deleted by the cleanup."""

import pytest

from domain.daily import candidate_seed
from domain.deal import seed_commitment
from domain.errors import GameNotFound
from domain.service import GameService, epoch
from domain.stored import DailyDeal
from tests.api_helpers import counting_secrets
from tests.fakes import InMemoryStore

DAY = 86_400
TTL = 30 * DAY
START = "2026-11-22T08:00:00.000Z"
ATTACK = {"type": "attack", "column": "hearts"}


class Clock:
    def __init__(self, now):
        self.now = epoch(now)

    def __call__(self):
        from datetime import UTC, datetime

        moment = datetime.fromtimestamp(self.now, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def advance(self, seconds):
        self.now += seconds


class CountingStore(InMemoryStore):
    def __init__(self):
        super().__init__()
        self.touches = []

    def touch(self, game_id, expires_at):
        self.touches.append((game_id, expires_at))
        super().touch(game_id, expires_at)


@pytest.fixture
def clock():
    return Clock(START)


@pytest.fixture
def store():
    return CountingStore()


@pytest.fixture
def service(store, clock):
    return GameService(store, clock, counting_secrets(), b"secret", game_ttl=TTL)


def expires(store, game_id):
    return store.load(game_id).record.expires_at


def test_a_casual_game_expires_ttl_after_creation(service, store):
    snap = service.create_game("royal-assassin", None, "royal")
    assert expires(store, snap.game["id"]) == epoch(START) + TTL
    assert "expires_at" not in snap.game  # nothing about it is shown


def test_a_move_pushes_it_back_only_when_less_than_half_is_left(service, store, clock):
    snap = service.create_game("royal-assassin", None, "royal")
    gid, token = snap.game["id"], snap.token
    clock.advance(14 * DAY)  # 16 days left: more than half
    service.play(gid, token, 0, ATTACK)
    assert store.touches == [] and expires(store, gid) == epoch(START) + TTL
    clock.advance(2 * DAY)  # 14 days left: less than half
    legal = service.read_game(gid, token).view["legal_moves"]
    service.play(gid, token, 1, next(m for m in legal if m["type"] != "resign"))
    assert store.touches == [(gid, clock.now + TTL)] and expires(store, gid) == clock.now + TTL
    clock.advance(DAY)  # freshly pushed back: no write for a while
    legal = service.read_game(gid, token).view["legal_moves"]
    service.play(gid, token, 2, next(m for m in legal if m["type"] != "resign"))
    assert len(store.touches) == 1


def test_the_finish_removes_it_and_a_finished_game_is_kept(service, store, clock):
    snap = service.create_game("royal-assassin", None, "royal")
    gid = snap.game["id"]
    clock.advance(20 * DAY)
    service.play(gid, snap.token, 0, {"type": "resign"})
    assert expires(store, gid) is None and store.touches == []  # no write beyond the finish
    clock.advance(10 * 365 * DAY)
    assert service.delete_expired() == 0
    assert service.read_game(gid, None).game["status"] != "playing"


def test_an_untouched_game_is_gone_at_its_time_and_deleted_by_the_cleanup(service, store, clock):
    idle = service.create_game("royal-assassin", None, "royal")
    clock.advance(DAY)
    alive = service.create_game("royal-assassin", None, "royal")
    clock.advance(TTL - DAY - 1)
    service.read_game(idle.game["id"], idle.token)  # one second left: still there
    clock.advance(1)
    # Gone for every request from its expiry on, whether or not the store has deleted it yet
    # (DynamoDB's TTL takes up to days): no read, move or shared deal reaches it.
    with pytest.raises(GameNotFound):
        service.read_game(idle.game["id"], idle.token)
    with pytest.raises(GameNotFound):
        service.play(idle.game["id"], idle.token, 0, ATTACK)
    assert store.load(idle.game["id"]) is not None
    assert service.delete_expired() == 1
    assert store.load(idle.game["id"]) is None
    assert service.read_game(alive.game["id"], alive.token).game["status"] == "playing"


def test_a_ranked_daily_attempt_never_expires_but_practice_does(service, store, clock):
    for day in ("2026-11-21", "2026-11-22"):
        seed = candidate_seed(b"secret", day, "royal-assassin", 0)
        store.save_daily(DailyDeal(day, "royal-assassin", seed, seed_commitment(seed), 0, 3, 1,
                                   10, {"winnable": None}))  # fmt: skip
    player = service.create_player("Anne")["token"]
    ranked = service.start_daily("today", "royal-assassin", player)
    practice = service.start_daily("2026-11-21", "royal-assassin", player)
    assert expires(store, ranked.game["id"]) is None
    assert expires(store, practice.game["id"]) == epoch(START) + TTL
    clock.advance(15 * 3600)  # 23:00, the same day
    legal = service.read_game(ranked.game["id"], ranked.token).view["legal_moves"]
    service.play(
        ranked.game["id"], ranked.token, 0, next(m for m in legal if m != {"type": "resign"})
    )
    assert expires(store, ranked.game["id"]) is None and store.touches == []
    clock.advance(2 * TTL)  # closed with its day, never finished: kept all the same
    assert service.delete_expired() == 1  # the practice game only
    assert service.read_game(ranked.game["id"], ranked.token).game["version"] == 1
    assert store.load(practice.game["id"]) is None


def test_a_two_seat_game_waiting_for_its_second_player_expires_too(service, store, clock):
    snap = service.create_game("royal-ace-assin", None, None)
    assert expires(store, snap.game["id"]) == epoch(START) + TTL
    clock.advance(TTL)
    with pytest.raises(GameNotFound):
        service.join(snap.game["id"], 1, snap.invites[0]["invite"])


def test_bot_replies_are_moves_like_any_other(service, store, clock):
    seats = [{"player": "human"}, {"player": "bot", "policy": "random"}]
    snap = service.create_game("royal-ace-assin", None, None, seats=seats)
    gid = snap.game["id"]
    clock.advance(20 * DAY)
    view = service.read_game(gid, snap.token).view
    version = service.read_game(gid, snap.token).game["version"]
    move = next(m for m in view["legal_moves"] if m["type"] != "resign")
    service.play(gid, snap.token, version, move)
    assert len(store.touches) == 1  # the human's move pushed it back; the bot's needed nothing
    assert expires(store, gid) == clock.now + TTL


FINISHED_TTL = 90 * DAY


def test_a_finished_casual_game_is_kept_its_retention_then_gone(store, clock):
    service = GameService(store, clock, counting_secrets(), b"secret", game_ttl=TTL,
                          finished_ttl=FINISHED_TTL)  # fmt: skip
    snap = service.create_game("royal-assassin", None, "royal")
    gid = snap.game["id"]
    clock.advance(20 * DAY)
    service.play(gid, snap.token, 0, {"type": "resign"})
    assert expires(store, gid) == clock.now + FINISHED_TTL and store.touches == []  # one write
    clock.advance(FINISHED_TTL - 1)  # its record is still there, and verifiable
    assert service.record(gid, None)["id"] == gid
    assert [g["id"] for g in service.list_finished(None, 10, None)["games"]] == [gid]
    clock.advance(1)
    with pytest.raises(GameNotFound, match="its time is up"):
        service.record(gid, None)
    assert service.list_finished(None, 10, None)["games"] == []  # before the store deletes it
    assert service.delete_expired() == 1 and store.load(gid) is None


def test_each_deal_from_a_shared_link_keeps_its_game(store, clock):
    service = GameService(store, clock, counting_secrets(), b"secret", game_ttl=TTL,
                          finished_ttl=FINISHED_TTL)  # fmt: skip
    snap = service.create_game("royal-assassin", None, "royal")
    gid = snap.game["id"]
    service.play(gid, snap.token, 0, {"type": "resign"})
    clock.advance(30 * DAY)  # 60 days left: more than half, no write
    service.create_game("royal-assassin", None, None, from_game=gid)
    assert store.touches == []
    clock.advance(20 * DAY)  # 40 days left: the link's game is kept 90 days from now
    for _ in range(3):  # however popular the link: one write
        service.create_game("royal-assassin", None, None, from_game=gid)
    assert store.touches == [(gid, clock.now + FINISHED_TTL)]
    clock.advance(FINISHED_TTL - 1)
    assert service.read_game(gid, None).game["id"] == gid


def test_a_finished_ranked_attempt_is_kept_for_good(store, clock):
    service = GameService(store, clock, counting_secrets(), b"secret", game_ttl=TTL,
                          finished_ttl=FINISHED_TTL)  # fmt: skip
    seed = candidate_seed(b"secret", "2026-11-22", "royal-assassin", 0)
    store.save_daily(DailyDeal("2026-11-22", "royal-assassin", seed, seed_commitment(seed), 0, 3,
                               1, 10, {"winnable": None}))  # fmt: skip
    player = service.create_player("Anne")["token"]
    ranked = service.start_daily("today", "royal-assassin", player)
    service.play(ranked.game["id"], ranked.token, 0, {"type": "resign"})
    assert expires(store, ranked.game["id"]) is None


def test_without_a_ttl_nothing_expires(store, clock):
    service = GameService(store, clock, counting_secrets(), b"secret")
    snap = service.create_game("royal-assassin", None, "royal")
    clock.advance(10 * 365 * DAY)
    assert expires(store, snap.game["id"]) is None and service.delete_expired() == 0
    service.play(snap.game["id"], snap.token, 0, ATTACK)
    assert store.touches == []
