"""One contract, every store: SQLite, moto and DynamoDB Local must behave identically."""

import threading

import pytest

from domain.errors import VersionConflict
from domain.store import Finish, GameRecord, MoveEvent


def record(game_id="g1", **changes):
    base = dict(
        id=game_id,
        ruleset="royal-assassin",
        options={"recycle_reserve": True, "setup_royals": None},
        seed="royal",
        seed_commitment="c0ffee",
        seed_known=True,
        created_at="2026-11-22T00:00:00.000Z",
        token_hashes={"0": "ab" * 32},
    )
    base.update(changes)
    return GameRecord(**base)


def event(seq, key=None, move=None):
    return MoveEvent(
        seq,
        0,
        move or {"type": "draw"},
        f"2026-11-22T00:00:{seq % 60:02d}.000Z",
        f"{seq:064x}",
        key,
    )


def test_create_then_load_round_trips(store):
    store.create(record(outcome=None))
    loaded = store.load("g1")
    assert loaded.record == record()
    assert loaded.moves == () and loaded.version == 0


def test_unknown_game_loads_as_none(store):
    assert store.load("nope") is None


def test_moves_come_back_in_order_with_every_field(store):
    store.create(record())
    moves = [event(1, "k-1"), event(2), event(3, move={"type": "attack", "column": "hearts"})]
    for i, e in enumerate(moves):
        store.append("g1", i, e, None)
    loaded = store.load("g1")
    assert loaded.moves == tuple(moves) and loaded.version == 3


def test_a_stale_expected_version_conflicts_and_changes_nothing(store):
    store.create(record())
    store.append("g1", 0, event(1), None)
    with pytest.raises(VersionConflict):
        store.append("g1", 0, event(1, move={"type": "resign"}), None)
    loaded = store.load("g1")
    assert loaded.moves == (event(1),)


def test_finishing_move_updates_the_record_atomically(store):
    store.create(record())
    store.append("g1", 0, event(1), None)
    outcome = {"result": "lost", "ruler": "KS", "score": 12}
    store.append("g1", 1, event(2, move={"type": "resign"}), Finish("lost", outcome))
    loaded = store.load("g1")
    assert loaded.record.status == "lost" and loaded.record.outcome == outcome
    assert loaded.record.version == 2 and loaded.version == 2


def test_a_conflicting_finish_leaves_the_record_alone(store):
    store.create(record())
    store.append("g1", 0, event(1), None)
    with pytest.raises(VersionConflict):
        store.append("g1", 0, event(1, move={"type": "resign"}), Finish("lost", {"score": 0}))
    loaded = store.load("g1")
    assert loaded.record.status == "playing" and loaded.record.outcome is None


def test_games_are_isolated(store):
    store.create(record("a"))
    store.create(record("b"))
    store.append("a", 0, event(1), None)
    assert store.load("b").moves == ()


def test_unicode_survives(store):
    store.create(record(options={"name": "Königin ♛"}))
    store.append("g1", 0, event(1, move={"type": "say", "text": "Long live the King! 👑"}), None)
    loaded = store.load("g1")
    assert loaded.record.options == {"name": "Königin ♛"}
    assert loaded.moves[0].move["text"] == "Long live the King! 👑"


def test_racing_writers_exactly_one_wins(store):
    store.create(record())
    results = []
    barrier = threading.Barrier(8)

    def writer(i):
        barrier.wait()
        try:
            store.append("g1", 0, event(1, key=f"w{i}"), None)
            results.append("ok")
        except VersionConflict:
            results.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 7 + ["ok"]
    assert store.load("g1").version == 1


def test_a_long_log_loads_whole(store):
    """Past DynamoDB's 1 MB page: the load must follow LastEvaluatedKey."""
    store.create(record())
    padding = "x" * 4000
    for i in range(280):
        store.append("g1", i, event(i + 1, move={"type": "draw", "pad": padding}), None)
    loaded = store.load("g1")
    assert [m.seq for m in loaded.moves] == list(range(1, 281))
