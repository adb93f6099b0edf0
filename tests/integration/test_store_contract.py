"""One contract, every store: SQLite, moto and DynamoDB Local must behave identically."""

import threading

import pytest

from domain.errors import VersionConflict
from domain.store import Finish, GameRecord, MoveEvent

FINISHED_AT = "2026-11-22T00:00:02.000Z"


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
    store.append(
        "g1",
        1,
        event(2, move={"type": "resign"}),
        Finish("lost", outcome, FINISHED_AT, "royal-assassin"),
    )
    loaded = store.load("g1")
    assert loaded.record.status == "lost" and loaded.record.outcome == outcome
    assert loaded.record.version == 2 and loaded.version == 2
    assert loaded.record.finished_at == FINISHED_AT


def test_a_conflicting_finish_leaves_the_record_alone(store):
    store.create(record())
    store.append("g1", 0, event(1), None)
    with pytest.raises(VersionConflict):
        store.append(
            "g1",
            0,
            event(1, move={"type": "resign"}),
            Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin"),
        )
    loaded = store.load("g1")
    assert loaded.record.status == "playing" and loaded.record.outcome is None
    assert loaded.record.finished_at is None
    assert store.list_finished(None, 10, None).records == ()


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


def finish_game(store, game_id, ruleset, at):
    store.create(record(game_id, ruleset=ruleset))
    outcome = {"result": "lost", "score": 1}
    store.append(
        game_id, 0, event(1, move={"type": "resign"}), Finish("lost", outcome, at, ruleset)
    )


def test_a_shared_deal_names_its_source(store):
    store.create(record("g2", from_game="g1"))
    assert store.load("g2").record.from_game == "g1"
    store.create(record("g3"))
    assert store.load("g3").record.from_game is None


def test_finished_games_are_listed_newest_first_and_paged(store):
    store.create(record("still-playing"))
    for i in range(7):
        ruleset = "adaman" if i % 3 == 0 else "royal-assassin"
        finish_game(store, f"g{i}", ruleset, f"2026-11-22T00:00:{i:02d}.000Z")
    seen, cursor = [], None
    while True:
        page = store.list_finished(None, 3, cursor)
        assert len(page.records) <= 3
        seen += [r.id for r in page.records]
        cursor = page.cursor
        if cursor is None:
            break
    assert seen == [f"g{i}" for i in range(6, -1, -1)]  # newest finish first, none twice
    listed = store.list_finished("adaman", 10, None)
    assert [r.id for r in listed.records] == ["g6", "g3", "g0"]
    assert listed.records[0].finished_at == "2026-11-22T00:00:06.000Z"
    assert listed.records[0].status == "lost" and listed.records[0].outcome["score"] == 1
    assert store.list_finished("chess", 10, None).records == ()


def _cursor(**fields):
    from domain.store import encode_cursor

    return encode_cursor(fields)


@pytest.mark.parametrize(
    "cursor",
    [
        "nope",
        "e30",
        "!!!",
        "eyJhIjoxfQ",
        "x" * 500,
        _cursor(pk="", sk="", fin_sk=""),
        _cursor(finished_at="", id=""),
        _cursor(pk="x" * 200, sk="\u0000", fin_sk="z"),
    ],
)
def test_a_forged_cursor_is_refused(store, cursor):
    from domain.errors import InvalidRequest

    finish_game(store, "g1", "royal-assassin", FINISHED_AT)
    try:
        page = store.list_finished(None, 10, cursor)
    except InvalidRequest:
        return
    # A well-formed cursor of another store's shape may still be taken: it only moves the
    # starting point, and never reaches past the finished games.
    assert all(r.finished_at is not None for r in page.records)
