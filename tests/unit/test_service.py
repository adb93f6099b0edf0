"""The game service on the in-memory store: every business rule of the API, without HTTP."""

import pytest

from domain.deal import seed_commitment
from domain.errors import (
    Forbidden,
    GameNotFound,
    GameOver,
    IdempotencyMismatch,
    IllegalMove,
    InvalidOptions,
    InvalidSeed,
    StaleVersion,
    Unauthenticated,
    UnknownRuleset,
)
from domain.record import chain_breaks, move_salt
from domain.service import GameService, token_digest
from tests.api_helpers import counting_secrets, fixed_clock
from tests.fakes import InMemoryStore

ATTACK_HEARTS = {"type": "attack", "column": "hearts"}


@pytest.fixture
def store():
    return InMemoryStore()


@pytest.fixture
def service(store):
    return GameService(store, fixed_clock, counting_secrets())


def test_create_keeps_only_the_token_hash_and_hides_a_secret_seed(service, store):
    snap = service.create_game("royal-assassin", {}, None)
    record = store.load(snap.game["id"]).record
    assert record.token_hashes == {0: token_digest(snap.token)}
    assert snap.token not in str(record)
    assert "seed" not in snap.game and snap.game["seed_commitment"] == seed_commitment(record.seed)
    assert snap.game["options"]["recycle_reserve"] is False  # every default filled in


def test_a_shared_seed_is_shown_from_the_start(service):
    snap = service.create_game("royal-assassin", None, "royal")
    assert snap.game["seed"] == "royal" and snap.game["seed_known"] is True


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("chess", None, None), UnknownRuleset),
        (("royal-assassin", {"nope": 1}, None), InvalidOptions),
        (("royal-assassin", None, "no spaces"), InvalidSeed),
    ],
)
def test_bad_creation_stores_nothing(service, store, args, error):
    with pytest.raises(error):
        service.create_game(*args)
    assert store._records == {}


def test_play_appends_a_chained_move(service, store):
    snap = service.create_game("royal-assassin", None, "royal")
    gid = snap.game["id"]
    after = service.play(gid, snap.token, 0, ATTACK_HEARTS)
    assert after.game["version"] == 1 and after.effects[0]["type"] == "attack"
    stored = store.load(gid)
    log = [(m.seq, m.seat, m.move, m.hash) for m in stored.moves]
    key = stored.record.chain_key
    assert key is not None  # a new game's moves are salted (record format 2)
    salts = [move_salt(key, m.seq) for m in stored.moves]
    assert chain_breaks(stored.record.seed_commitment, log, salts) == []
    assert chain_breaks(stored.record.seed_commitment, log) == [1]  # no salt, no chain


def test_reading_as_seat_and_as_spectator(service):
    snap = service.create_game("royal-assassin", None, "royal")
    seat = service.read_game(snap.game["id"], snap.token)
    spectator = service.read_game(snap.game["id"], None)
    assert seat.view["legal_moves"] and spectator.view["legal_moves"] == []


def test_every_refusal_appends_nothing(service, store):
    snap = service.create_game("royal-assassin", None, "royal")
    gid, token = snap.game["id"], snap.token
    other = service.create_game("royal-assassin", None, "royal").token
    refusals = [
        (lambda: service.play(gid, None, 0, ATTACK_HEARTS), Unauthenticated),
        (lambda: service.play(gid, other, 0, ATTACK_HEARTS), Forbidden),
        (lambda: service.play("nope", token, 0, ATTACK_HEARTS), GameNotFound),
        (lambda: service.play("x" * 3000, token, 0, ATTACK_HEARTS), GameNotFound),
        (lambda: service.play(gid, token, 3, ATTACK_HEARTS), StaleVersion),
        (lambda: service.play(gid, token, 0, {"type": "draw"}), IllegalMove),
        (lambda: service.play(gid, token, 0, {"type": ["draw"]}), IllegalMove),
    ]
    for call, error in refusals:
        with pytest.raises(error):
            call()
        assert store.load(gid).version == 0


def test_idempotent_retries_agree_and_a_reused_key_is_refused(service, store):
    snap = service.create_game("royal-assassin", None, "royal")
    gid, token = snap.game["id"], snap.token
    first = service.play(gid, token, 0, ATTACK_HEARTS, "k1")
    again = service.play(gid, token, 0, ATTACK_HEARTS, "k1")
    assert (first.game, first.view, first.effects) == (again.game, again.view, again.effects)
    with pytest.raises(IdempotencyMismatch):
        service.play(gid, token, 0, {"type": "reserve"}, "k1")
    assert store.load(gid).version == 1


def test_a_finished_game_takes_no_move_and_reveals_its_seed(service):
    snap = service.create_game("royal-assassin", None, None)
    gid, token = snap.game["id"], snap.token
    over = service.play(gid, token, 0, {"type": "resign"})
    assert over.game["status"] == "lost" and over.game["seed"]
    assert seed_commitment(over.game["seed"]) == over.game["seed_commitment"]
    with pytest.raises(GameOver):
        service.play(gid, token, 1, {"type": "resign"})


def test_a_deal_over_before_any_move_is_finished_at_its_creation(service, store):
    """Adaman deals some hands lost at once: such a game is finished (and listed) as dealt."""
    from domain.registry import GAMES

    ruleset = GAMES["adaman"].ruleset
    seed = next(f"over-{i}" for i in range(10_000) if ruleset.is_over(ruleset.start(f"over-{i}")))
    snap = service.create_game("adaman", None, seed)
    assert snap.game["status"] != "playing" and snap.view["legal_moves"] == []
    record = store.load(snap.game["id"]).record
    assert record.finished_at == record.created_at and record.expires_at is None
    listed = service.list_finished("adaman", 10, None)["games"]
    assert [g["id"] for g in listed] == [snap.game["id"]] and listed[0]["seed"] == seed
