"""One contract, every store: SQLite, moto and DynamoDB Local must behave identically."""

import threading
from dataclasses import replace

import pytest

from domain.errors import VersionConflict
from domain.stored import DailyAttempt, Finish, GameRecord, MoveEvent, Seat

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
        token_hashes={0: "ab" * 32},
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


def test_version_is_the_number_of_moves_without_reading_the_log(store):
    assert store.version("nope") is None
    store.create(record("a"))
    store.create(record("b"))
    assert store.version("a") == 0
    for i in range(12):  # past 9 and 10: the count is a number, never a string's order
        store.append("a", i, event(i + 1), None)
        assert store.version("a") == i + 1
    store.append("a", 12, event(13, move={"type": "resign"}),
                 Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin"))  # fmt: skip
    assert store.version("a") == 13 == store.load("a").version
    assert store.version("b") == 0  # another game's moves are not counted
    assert store.version("a-") is None and store.version("") is None


def test_unicode_survives(store):
    store.create(record(options={"name": "Königin ♛"}))
    store.append("g1", 0, event(1, move={"type": "say", "text": "Long live the King! 👑"}), None)
    loaded = store.load("g1")
    assert loaded.record.options == {"name": "Königin ♛"}
    assert loaded.moves[0].move["text"] == "Long live the King! 👑"


def test_racing_writers_exactly_one_wins(store, request):
    if request.node.callspec.params["store"] == "moto":
        # As below (getmoto/moto#7166): moto checks a condition and writes in separate steps,
        # and two racing writers both won once on a loaded machine.
        pytest.skip("moto is not thread-safe: the race runs on DynamoDB Local")
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


# ---- daily challenges ---------------------------------------------------------------------------


def deal(date="2026-11-22", ruleset="royal-assassin", seed="s1"):
    from domain.stored import DailyDeal

    return DailyDeal(date, ruleset, seed, "c" * 64, 0, 3, 40, 200, {"winnable": True})


def test_players_round_trip(store):
    from domain.stored import PlayerRecord

    anne = PlayerRecord("p1", "Anne#1a2b", "ab" * 32, "2026-11-22T00:00:00.000Z")
    store.create_player(anne)
    assert store.load_player("p1") == anne and store.load_player("p2") is None


def test_an_accounts_player_is_one_per_account_and_a_guest_attaches_once(store):
    from domain.errors import AccountTaken
    from domain.stored import PlayerRecord

    at = "2026-11-22T00:00:00.000Z"
    made = PlayerRecord("p1", "Anne#1a2b", "", at, "acct-a", ("s1",))
    store.create_player(made)
    assert store.load_player("p1") == made and store.load_account("acct-a") == "p1"
    with pytest.raises(AccountTaken):  # a second first sign-in of the account: one player
        store.create_player(PlayerRecord("p2", "Anne#3c4d", "", at, "acct-a"))
    assert store.load_player("p2") is None and store.load_account("acct-b") is None
    guest = PlayerRecord("p3", "Bob#5e6f", "ab" * 32, at)
    store.create_player(guest)
    with pytest.raises(AccountTaken):  # that account has its player
        store.attach_account("p3", "acct-a")
    assert store.load_player("p3") == guest
    store.attach_account("p3", "acct-b")  # the guest's token goes: sessions stand for it
    assert store.load_player("p3") == replace(guest, account="acct-b", token_hash="")
    assert store.load_account("acct-b") == "p3"
    with pytest.raises(AccountTaken):  # an account's player already
        store.attach_account("p3", "acct-c")
    assert store.load_account("acct-c") is None


def test_sessions_are_replaced_only_as_they_were_read(store):
    from domain.stored import PlayerRecord

    store.create_player(PlayerRecord("p1", "Anne#1a2b", "", "2026-11-22T00:00:00.000Z", "a"))
    assert store.save_sessions("p1", (), ("s1",))
    assert not store.save_sessions("p1", (), ("s2",))  # another sign-in came first
    assert store.save_sessions("p1", ("s1",), ("s2", "s1"))
    assert store.load_player("p1").sessions == ("s2", "s1")
    assert store.save_sessions("p1", ("s2", "s1"), ())  # signed out everywhere
    assert store.load_player("p1").sessions == ()
    assert not store.save_sessions("nobody", (), ("s1",))
    assert store.load_player("nobody") is None


def test_a_player_is_renamed_and_a_missing_one_is_not_found(store):
    from domain.errors import PlayerNotFound
    from domain.stored import PlayerRecord

    store.create_player(PlayerRecord("p1", "Anne#1a2b", "ab" * 32, "2026-11-22T00:00:00.000Z"))
    store.rename_player("p1", "Annie#1a2b")
    assert store.load_player("p1").name == "Annie#1a2b"
    with pytest.raises(PlayerNotFound):
        store.rename_player("nobody", "X#0000")
    assert store.load_player("nobody") is None


def test_an_id_token_is_claimed_once(store):
    assert store.claim_once("d" * 64, 1795305900)
    assert not store.claim_once("d" * 64, 1795305900)
    assert store.claim_once("e" * 64, 1795305900)


def test_the_first_kept_daily_deal_wins(store):
    assert store.load_daily("2026-11-22", "royal-assassin") is None
    kept = store.save_daily(deal(seed="first"))
    assert kept.seed == "first" and kept.players == 0
    assert store.save_daily(deal(seed="second")).seed == "first"
    assert store.load_daily("2026-11-22", "royal-assassin") == kept
    assert store.load_daily("2026-11-22", "adaman") is None


def test_one_attempt_per_player_creates_its_game_and_counts_the_player(store):
    from domain.errors import AttemptExists

    store.save_daily(deal())
    daily = DailyAttempt("2026-11-22", "p1", "Anne#1a2b")
    store.create_attempt("2026-11-22", "p1", record("g1", daily=daily))
    assert store.load("g1").record.daily == daily
    assert store.load_attempt("2026-11-22", "royal-assassin", "p1").game_id == "g1"
    assert store.load_attempt("2026-11-22", "royal-assassin", "p2") is None
    with pytest.raises(AttemptExists) as refused:
        store.create_attempt("2026-11-22", "p1", record("g2", daily=daily))
    assert refused.value.game_id == "g1" and store.load("g2") is None
    store.create_attempt("2026-11-22", "p2", record("g3", daily=daily))
    assert store.load_daily("2026-11-22", "royal-assassin").players == 2


def test_ranked_starts_write_no_item_in_common(store):
    """Every ranked start once added one to the deal's own item, in its transaction: a hot
    item, and racing starts cancelled each other (TransactionConflict). On DynamoDB the day's
    count is spread over PLAYER_COUNT_SHARDS items by player, and the deal item is never
    written after it is kept; the count reads the same on every store."""
    store.save_daily(deal())
    for i in range(40):
        daily = DailyAttempt("2026-11-22", f"p{i}", "Anne#1a2b")
        store.create_attempt("2026-11-22", f"p{i}", record(f"g{i}", daily=daily))
    assert store.load_daily("2026-11-22", "royal-assassin").players == 40
    assert store.load_daily("2026-11-22", "royal-assassin-duel") is None  # sorts right after
    if not hasattr(store, "client"):  # SQLite and the fake: one row's counter, no partition
        return
    items = store.client.query(
        TableName=store.table, KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": "DAILY#2026-11-22"}}, ConsistentRead=True,
    )["Items"]  # fmt: skip
    counts = {i["sk"]["S"]: int(i.get("players", {"N": "0"})["N"]) for i in items}
    assert counts.pop("DEAL#royal-assassin") == 0  # the deal item: as it was kept
    assert all(sk.startswith("DEAL#royal-assassin#PLAYERS#") for sk in counts)
    assert sum(counts.values()) == 40 and len(counts) >= 10  # spread over the shards


def board_entry(game_id, key, date="2026-11-22"):
    from domain.stored import LeaderboardEntry

    return LeaderboardEntry(date, "royal-assassin", key, game_id, f"p-{game_id}", "P#0000",
                            "lost", 1, 3, "2026-11-22T00:00:00.000Z")  # fmt: skip


def board_key(result, score, moves, game_id, minute=0):
    from domain.daily import leaderboard_key

    return leaderboard_key(result, score, moves, f"2026-11-22T10:{minute:02d}:00.000Z", game_id)


def finish_with_entry(store, game_id, key, date="2026-11-22"):
    store.create(record(game_id))
    outcome = {"result": "lost", "score": 1}
    finish = Finish("lost", outcome, FINISHED_AT, "royal-assassin", board_entry(game_id, key, date))
    store.append(game_id, 0, event(1, move={"type": "resign"}), finish)


# Best first: wins, higher score, fewer moves; b and c tie (and share a rank), c finished later.
BOARD = {"a": ("won", 70, 50), "b": ("won", 60, 40), "c": ("won", 60, 40), "d": ("won", 60, 45),
         "e": ("lost", 9, 30), "f": ("lost", 5, 20), "g": ("lost", 5, 30)}  # fmt: skip
RANKS = {"a": 1, "b": 2, "c": 2, "d": 4, "e": 5, "f": 6, "g": 7}


def test_the_leaderboard_is_written_with_the_finishing_move_and_sorted(store):
    keys = {g: board_key(*spec, g, minute=i) for i, (g, spec) in enumerate(BOARD.items())}
    for game_id in ("g", "c", "e", "a", "f", "b", "d"):
        finish_with_entry(store, game_id, keys[game_id])
    finish_with_entry(store, "other-day", board_key("won", 99, 1, "x"), date="2026-11-21")
    board = store.leaderboard("2026-11-22", "royal-assassin", 10, None)
    assert [e.game_id for e in board] == list(BOARD)
    assert board[0] == board_entry("a", keys["a"])
    page = store.leaderboard("2026-11-22", "royal-assassin", 2, keys["c"])
    assert [e.game_id for e in page] == ["d", "e"]
    ranks = {g: store.leaderboard_rank("2026-11-22", "royal-assassin", k) for g, k in keys.items()}
    assert ranks == RANKS  # tied entries share a rank
    later = board_key("won", 60, 40, "z", minute=59)  # not on the board: ranked as it would be
    assert store.leaderboard_rank("2026-11-22", "royal-assassin", later) == 2
    assert (
        store.leaderboard_rank("2026-11-22", "royal-assassin", board_key("lost", 5, 25, "z")) == 7
    )
    assert store.leaderboard_rank("2026-11-21", "royal-assassin", keys["g"]) == 2  # its own day


def test_a_finished_attempt_carries_its_entry(store):
    """ "Your rank" reads the attempt alone: the finishing move writes the entry onto it."""
    from domain.daily import board_entry as domain_board_entry
    from domain.stored import Attempt

    store.save_daily(deal())
    daily = DailyAttempt("2026-11-22", "p-g1", "Anne#1a2b")
    store.create_attempt("2026-11-22", "p-g1", record("g1", daily=daily))
    assert store.load_attempt("2026-11-22", "royal-assassin", "p-g1") == Attempt("g1")
    outcome = {"result": "won", "score": 60}
    entry = domain_board_entry(daily, "royal-assassin", "g1", outcome, 1, FINISHED_AT)
    finish = Finish("won", outcome, FINISHED_AT, "royal-assassin", entry)
    store.append("g1", 0, event(1), finish)
    assert store.load_attempt("2026-11-22", "royal-assassin", "p-g1") == Attempt("g1", entry)


def test_a_players_attempts_come_back_from_a_day_on_with_their_entries(store):
    """A profile's statistics read the player's attempts in one go (one Query on DynamoDB)."""
    from domain.daily import board_entry as domain_board_entry
    from domain.stored import Attempt

    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        store.save_daily(deal(date=day))
        daily = DailyAttempt(day, "p1", "Anne#1a2b")
        store.create_attempt(day, "p1", record(f"g{day}", daily=daily))
    other = DailyAttempt("2026-11-22", "p2", "Bo#3c4d")
    store.create_attempt("2026-11-22", "p2", record("g-other", daily=other))
    outcome = {"result": "won", "score": 60}
    daily = DailyAttempt("2026-11-21", "p1", "Anne#1a2b")
    entry = domain_board_entry(daily, "royal-assassin", "g2026-11-21", outcome, 1, FINISHED_AT)
    store.append("g2026-11-21", 0, event(1), Finish("won", outcome, FINISHED_AT,
                                                     "royal-assassin", entry))  # fmt: skip
    found = sorted(store.attempts_of("p1", "2026-11-21"))
    assert found == [
        ("2026-11-21", "royal-assassin", Attempt("g2026-11-21", entry)),
        ("2026-11-22", "royal-assassin", Attempt("g2026-11-22")),
    ]
    assert store.attempts_of("p3", "2026-11-01") == []


def test_a_conflicting_finish_writes_no_entry(store):
    first = board_key("lost", 1, 1, "g1")
    finish_with_entry(store, "g1", first)
    late = board_entry("g1", board_key("won", 99, 1, "g1"))
    with pytest.raises(VersionConflict):
        store.append("g1", 0, event(1), Finish("lost", {}, FINISHED_AT, "royal-assassin", late))
    assert [e.key for e in store.leaderboard("2026-11-22", "royal-assassin", 10, None)] == [first]
    assert store.leaderboard_rank("2026-11-22", "royal-assassin", late.key) == 1  # not tallied


def test_a_sharded_board_reads_back_as_one(aws_credentials):
    """DynamoDB write sharding of a day's hot board: three partitions, merged on reading."""
    from moto import mock_aws

    from infra.dynamo_store import DynamoStore
    from tests.stores import dynamo_client, fresh_table_name

    with mock_aws():
        store = DynamoStore(dynamo_client(None), fresh_table_name(), leaderboard_shards=3)
        store.create_table()
        keys = [board_key(("won", "lost")[i % 2], i % 7, i, f"g{i}") for i in range(30)]
        for i, key in enumerate(keys):
            finish_with_entry(store, f"g{i}", key)
        partitions = {
            item["pk"]["S"]
            for item in store.client.scan(TableName=store.table)["Items"]
            if item["sk"]["S"].startswith("RANK#")
        }
        assert len(partitions) == 3  # the writes really are spread
        seen, after = [], None
        while True:
            page = store.leaderboard("2026-11-22", "royal-assassin", 7, after)
            if not page:
                break
            seen += [e.key for e in page]
            after = page[-1].key
        assert seen == sorted(keys)
        assert store.leaderboard_rank("2026-11-22", "royal-assassin", sorted(keys)[17]) == 18
        tallies = {
            item["pk"]["S"]
            for item in store.client.scan(TableName=store.table)["Items"]
            if "#TALLY#" in item["pk"]["S"]
        }
        assert len(tallies) == 2  # and so are the tallies


# ---- seats ------------------------------------------------------------------------------------

SEATS = (Seat(), Seat("human", invite_hash="11" * 32), Seat("bot", "best"))


def test_seats_round_trip(store):
    store.create(record(ruleset="royal-ace-assin", seats=SEATS))
    assert store.load("g1").record.seats == SEATS
    store.create(record("g2"))
    assert store.load("g2").record.seats == () and store.load("g2").record.seat_list == (Seat(),)


def test_a_seat_is_joined_once_with_its_invite(store):
    from domain.errors import Forbidden, GameNotFound, SeatTaken

    store.create(record(ruleset="royal-ace-assin", seats=SEATS))
    for seat, invite in ((1, "22" * 32), (0, "11" * 32), (2, "11" * 32), (5, "11" * 32)):
        with pytest.raises(Forbidden):
            store.join("g1", seat, invite, "cd" * 32)
    with pytest.raises(GameNotFound):
        store.join("nope", 1, "11" * 32, "cd" * 32)
    assert store.load("g1").record.token_hashes == {0: "ab" * 32}
    store.join("g1", 1, "11" * 32, "cd" * 32)
    assert store.load("g1").record.token_hashes == {0: "ab" * 32, 1: "cd" * 32}
    with pytest.raises(SeatTaken):
        store.join("g1", 1, "11" * 32, "ef" * 32)
    assert store.load("g1").record.token_hashes[1] == "cd" * 32


def test_racing_joins_of_one_seat_exactly_one_wins(store, request):
    from domain.errors import SeatTaken

    if request.node.callspec.params["store"] == "moto":
        # moto does not support access from several threads (getmoto/moto#7166): its
        # update_item checks a condition and writes in separate steps. The race runs on the
        # real engine (DynamoDB Local) instead, and on SQLite and the in-memory fake.
        pytest.skip("moto is not thread-safe: the race runs on DynamoDB Local")

    store.create(record(ruleset="royal-ace-assin", seats=SEATS))
    outcomes = []
    barrier = threading.Barrier(8)

    def joiner(i):
        barrier.wait()
        try:
            store.join("g1", 1, "11" * 32, f"{i:064x}")
            outcomes.append(("won", i))
        except SeatTaken:
            outcomes.append(("taken", i))

    threads = [threading.Thread(target=joiner, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [i for kind, i in outcomes if kind == "won"]
    assert len(winners) == 1 and len(outcomes) == 8
    assert store.load("g1").record.token_hashes[1] == f"{winners[0]:064x}"


def test_two_seats_submitting_at_once_are_both_accepted(store, request):
    """Sealed places by both seats, each loading before either writes (the appends are held
    back): one write loses the race, is re-checked and appended after the other."""
    if request.node.callspec.params["store"] == "moto":
        # As above (getmoto/moto#7166): both racing appends won on moto once, three test
        # workers on two cores (a fresh clone's run of 1faa774); DynamoDB Local runs it.
        pytest.skip("moto is not thread-safe: the race runs on DynamoDB Local")
    from domain.service import GameService
    from tests.api_helpers import counting_secrets, fixed_clock
    from tests.integration.test_api import RacingStore
    from tests.unit.test_royal_ace_assin import EXAMPLE

    service = GameService(RacingStore(store, 0.1), fixed_clock, counting_secrets())
    created = service.create_game("royal-ace-assin", None, None)
    gid = created.game["id"]
    invite = created.invites[0]["invite"]
    tokens = [created.token, service.join(gid, 1, invite).token]
    for version, (seat, move) in enumerate(EXAMPLE[:2]):
        service.play(gid, tokens[seat], version, move)
    results = []
    barrier = threading.Barrier(2)

    def submit(seat, move):
        barrier.wait()
        results.append(service.play(gid, tokens[seat], 2, move).game["version"])

    threads = [threading.Thread(target=submit, args=pair) for pair in EXAMPLE[2:4]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [3, 4]
    stored = store.load(gid)
    assert sorted(m.seat for m in stored.moves[2:]) == [0, 1]
    assert service.read_game(gid, tokens[0]).view["phase"] == "flip"


# ---- rematches ---------------------------------------------------------------------------------


def test_a_rematch_and_its_pointer_are_written_at_once_and_once(store):
    from domain.errors import GameNotFound, RematchExists

    store.create(record("old", status="lost", finished_at=FINISHED_AT))
    store.create_rematch("old", record("r1"), None)
    assert store.load("old").record.rematch == "r1" and store.load("r1").record == record("r1")
    for replacing in (None, "elsewhere"):  # the pointer is not what the writer saw: nothing
        with pytest.raises(RematchExists) as refused:
            store.create_rematch("old", record("r2"), replacing)
        assert refused.value.game_id == "r1" and store.load("r2") is None
    with pytest.raises(GameNotFound):
        store.create_rematch("nope", record("r3"), None)
    assert store.load("r3") is None and store.load("nope") is None
    # One that expired unplayed is replaced: the pointer moves from it, once.
    store.create_rematch("old", record("r2"), "r1")
    assert store.load("old").record.rematch == "r2" and store.load("r2").record == record("r2")
    with pytest.raises(RematchExists):
        store.create_rematch("old", record("r4"), "r1")
    assert store.load("r4") is None
    assert store.load("old").record == record("old", status="lost", finished_at=FINISHED_AT,
                                              rematch="r2")  # fmt: skip


def test_racing_rematches_of_one_game_exactly_one_is_created(store, request):
    from domain.errors import RematchExists

    if request.node.callspec.params["store"] == "moto":
        pytest.skip("moto is not thread-safe: the race runs on DynamoDB Local")
    store.create(record("old", status="lost", finished_at=FINISHED_AT))
    outcomes = []
    barrier = threading.Barrier(8)

    def dealer(i):
        barrier.wait()
        try:
            store.create_rematch("old", record(f"r{i}"), None)
            outcomes.append(("dealt", f"r{i}"))
        except RematchExists as e:
            outcomes.append(("exists", e.game_id))

    threads = [threading.Thread(target=dealer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    [winner] = [game for kind, game in outcomes if kind == "dealt"]
    assert len(outcomes) == 8 and all(game == winner for _, game in outcomes)
    assert store.load("old").record.rematch == winner
    assert [i for i in range(8) if store.load(f"r{i}") is not None] == [int(winner[1:])]


def test_sqlite_writes_wait_for_a_lock_another_connection_holds(tmp_path, monkeypatch):
    """SQLite only: a write finding the lock taken retries until it is free (nothing lost,
    each move once), and gives up with StoreUnavailable only after BUSY_TIMEOUT."""
    import sqlite3

    from domain.errors import StoreUnavailable
    from infra import sqlite_store
    from infra.sqlite_store import SqliteStore

    path = str(tmp_path / "locked.db")
    store = SqliteStore(path)
    store.create(record())
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process mid-write
    released = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    released.start()
    store.append("g1", 0, event(1), None)  # waits for the lock instead of failing
    store.append("g1", 1, event(2), None)
    released.join()
    assert store.load("g1").moves == (event(1), event(2))

    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT", 0.2)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable):
            store.append("g1", 2, event(3), None)
        with pytest.raises(StoreUnavailable):
            store.create(record("g2"))
    finally:
        other.execute("ROLLBACK")
    store.append("g1", 2, event(3), None)
    assert store.load("g1").version == 3 and store.load("g2") is None


# ---- casual games expire (docs/api.md, "Limits") --------------------------------------------

T = 1_795_305_600  # 2026-11-22T00:00:00Z


def engine_expires(store):
    """DynamoDB deletes expired items itself (TTL): its adapter's cleanup deletes nothing."""
    return hasattr(store, "client")


def test_an_expiry_is_kept_pushed_back_and_set_by_the_finish(store):
    store.create(record(expires_at=T + 100))
    store.create(record("kept"))  # no expiry: a ranked attempt, or made while expiry was off
    assert store.load("g1").record.expires_at == T + 100
    assert store.load("kept").record.expires_at is None
    store.append("g1", 0, event(1), None)
    store.touch("g1", T + 500)
    assert store.load("g1").record.expires_at == T + 500
    store.touch("g1", T + 200)  # never brought forward
    store.touch("kept", T + 200)  # never given one
    store.touch("nope", T + 200)  # and no game is made by it
    assert store.load("g1").record.expires_at == T + 500
    assert store.load("kept").record.expires_at is None and store.load("nope") is None
    store.append("g1", 1, event(2, move={"type": "resign"}),
                 Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin"))  # fmt: skip
    finished = store.load("g1").record
    assert finished.expires_at is None and finished.status == "lost"
    store.touch("g1", T + 900)  # a move that lost the race to the finish: no expiry again
    assert store.load("g1").record.expires_at is None
    store.create(record("g2", expires_at=T + 100))  # a casual game: kept a while once finished
    kept = Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin", None, T + 5000)
    store.append("g2", 0, event(1, move={"type": "resign"}), kept)
    assert store.load("g2").record.expires_at == T + 5000
    store.touch("g2", T + 9000)  # its deal dealt again from a shared link
    assert store.load("g2").record.expires_at == T + 9000


def test_expired_games_go_with_their_moves_and_nothing_else(store):
    store.create(record("old", expires_at=T + 10))
    store.create(record("due", expires_at=T + 20))
    store.create(record("young", expires_at=T + 1000))
    store.create(record("ranked", daily=DailyAttempt("2026-11-22", "p", "P#0")))
    for gid in ("old", "young"):
        for i in range(3):
            store.append(gid, i, event(i + 1), None)
    store.create(record("done", expires_at=T + 10))
    store.append("done", 0, event(1, move={"type": "resign"}),
                 Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin"))  # fmt: skip
    deleted = store.delete_expired(T + 20)
    if engine_expires(store):  # TTL's job: the attribute it reads is what the adapter owes
        assert deleted == 0
        items = {
            gid: store._get(f"GAME#{gid}", "GAME")
            for gid in ("old", "due", "young", "ranked", "done")
        }
        assert items["old"]["expires_at"] == {"N": str(T + 10)}
        assert items["young"]["expires_at"] == {"N": str(T + 1000)}
        assert "expires_at" not in items["ranked"] and "expires_at" not in items["done"]
        return
    assert deleted == 2
    assert store.load("old") is None and store.load("due") is None
    assert store.version("old") is None
    assert store.load("young").version == 3 and store.load("ranked") is not None
    assert store.load("done").record.status == "lost"
    assert store.delete_expired(T + 20) == 0
    store.create(record("old", expires_at=T + 5000))  # the id is free again: nothing was left
    assert store.load("old").moves == ()


def test_many_expired_games_are_deleted_in_batches(tmp_path):
    """SQLite: the cleanup takes the write lock one batch at a time, and finishes."""
    from infra import sqlite_store
    from infra.sqlite_store import SqliteStore

    store = SqliteStore(str(tmp_path / "court.db"))
    count = sqlite_store.EXPIRED_BATCH * 2 + 3
    for i in range(count):
        store.create(record(f"g{i}", expires_at=T + i % 7))
        store.append(f"g{i}", 0, event(1), None)
    store.create(record("young", expires_at=T + 100))
    assert store.delete_expired(T + 10) == count
    assert store.load("young") is not None and store.load("g0") is None


def test_an_older_sqlite_file_gains_expiries_from_its_last_move(tmp_path):
    """Files made before games expired: their unfinished casual games expire `game_ttl` after
    their last move (or creation); finished games and ranked attempts never."""
    import sqlite3

    from infra.sqlite_store import SqliteStore

    path = str(tmp_path / "old.db")
    SqliteStore(path)
    store = SqliteStore(path)
    for gid, changes in [
        ("idle", {}),
        ("moved", {}),
        ("ranked", {"daily": DailyAttempt("2026-11-22", "p", "P#0")}),
        ("done", {}),
    ]:
        store.create(record(gid, **changes))
    store.append("moved", 0, MoveEvent(1, 0, {"type": "draw"}, "2026-11-25T12:00:00.000Z",
                                       "0" * 64), None)  # fmt: skip
    store.append("done", 0, event(1, move={"type": "resign"}),
                 Finish("lost", {"score": 0}, FINISHED_AT, "royal-assassin"))  # fmt: skip
    with sqlite3.connect(path) as conn:  # as a file of the previous version had it
        conn.execute("DROP INDEX games_expiring")
        conn.execute("ALTER TABLE games DROP COLUMN expires_at")
    ttl = 30 * 86_400
    migrated = SqliteStore(path, game_ttl=ttl)
    assert migrated.load("idle").record.expires_at == T + ttl
    assert migrated.load("moved").record.expires_at == T + 3 * 86_400 + 12 * 3600 + ttl
    assert migrated.load("ranked").record.expires_at is None
    assert migrated.load("done").record.expires_at is None
    assert migrated.load("moved").version == 1  # the games themselves load as they were
    assert SqliteStore(path, game_ttl=ttl).load("idle").record.expires_at == T + ttl  # once


def test_a_game_over_at_its_deal_is_listed_from_its_creation(store):
    """A deal can end before any move (an Adaman deal lost at once): the game is created
    finished, and the finished games' listing holds it like any other."""
    store.create(record("over", status="lost_utterly", outcome={"result": "lost_utterly"},
                        finished_at="2026-11-22T00:00:00.000Z"))  # fmt: skip
    store.create(record("playing"))
    page = store.list_finished(None, 10, None)
    assert [r.id for r in page.records] == ["over"]
    assert [r.id for r in store.list_finished("royal-assassin", 10, None).records] == ["over"]
    assert store.load("over").record.finished_at == "2026-11-22T00:00:00.000Z"


# ---- stored formats: what earlier versions wrote still loads -----------------------------------

HASHES = f'{{"0": "{"ab" * 32}", "1": "{"cd" * 32}"}}'
LEGACY = {
    # A shared deal of a two-seat game with a bot, finished, from the current version: every
    # field set, each in the form the adapters wrote before the codec.
    "full": (
        {"ruleset": "royal-ace-assin", "options": '{"recycle_reserve": true}', "seed": "royal",
         "seed_commitment": "c0ffee", "seed_known": False,
         "created_at": "2026-11-22T00:00:00.000Z", "token_hashes": HASHES, "status": "won",
         "version": 7, "outcome": '{"result": "won", "score": 3}', "from_game": "src",
         "finished_at": FINISHED_AT,
         "seats": '[{"player": "human"}, {"player": "human", "invite_hash": "'
                  + "11" * 32 + '"}, {"player": "bot", "policy": "best"}]',
         "chain_key": "k" * 43, "expires_at": T + 60, "rematch": "next"},
        record("full", ruleset="royal-ace-assin", options={"recycle_reserve": True},
               seed_known=False, token_hashes={0: "ab" * 32, 1: "cd" * 32}, status="won",
               version=7, outcome={"result": "won", "score": 3}, from_game="src",
               finished_at=FINISHED_AT,
               seats=(Seat(), Seat("human", invite_hash="11" * 32), Seat("bot", "best")),
               chain_key="k" * 43, expires_at=T + 60, rematch="next"),
    ),
    # A ranked daily attempt (a solitaire: SQLite wrote its empty seats as "[]").
    "ranked": (
        {"ruleset": "royal-assassin", "options": '{"recycle_reserve": false}', "seed": "s",
         "seed_commitment": "c0ffee", "seed_known": False,
         "created_at": "2026-11-22T00:00:00.000Z", "token_hashes": '{"0": "' + "ab" * 32 + '"}',
         "status": "playing", "version": 0,
         "daily": '{"date": "2026-11-22", "player": "p1", "name": "Anne#1a2b"}',
         "seats": "[]", "chain_key": "k" * 43},
        record("ranked", options={"recycle_reserve": False}, seed="s", seed_known=False,
               daily=DailyAttempt("2026-11-22", "p1", "Anne#1a2b"), chain_key="k" * 43),
    ),
    # A game from before shared deals, listings, daily challenges, seats, salts, expiry and
    # rematches.
    "oldest": (
        {"ruleset": "royal-assassin", "options": "{}", "seed": "royal",
         "seed_commitment": "c0ffee", "seed_known": True,
         "created_at": "2026-11-22T00:00:00.000Z", "token_hashes": '{"0": "' + "ab" * 32 + '"}',
         "status": "playing", "version": 0},
        record("oldest", options={}),
    ),
}  # fmt: skip
OLDEST_COLUMNS = ("id", "ruleset", "options", "seed", "seed_commitment", "seed_known",
                  "created_at", "token_hashes", "status", "version", "outcome")  # fmt: skip


def _dynamo_item(game_id, fields):
    """A record item as the DynamoDB adapter wrote it: text S, integers N, seed_known BOOL,
    None and "[]" seats left out; a finished game also carries its index keys."""
    item = {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}
    for name, value in fields.items():
        if isinstance(value, bool):
            item[name] = {"BOOL": value}
        elif isinstance(value, int):
            item[name] = {"N": str(value)}
        elif value is not None and not (name == "seats" and value == "[]"):
            item[name] = {"S": value}
    if "finished_at" in fields:
        item |= {"fin_all": {"S": "FINISHED"}, "fin_rs": {"S": f"FINISHED#{fields['ruleset']}"},
                 "fin_sk": {"S": f"{fields['finished_at']}#{game_id}"}}  # fmt: skip
    return item


def _write_by_hand(store, kind, game_id, fields):
    """Store `fields` as the record of `game_id` without the adapter's help."""
    if kind == "memory":
        store._records[game_id] = {**fields, "id": game_id}
        store._moves[game_id] = []
    elif kind == "sqlite":
        import sqlite3

        row = {"id": game_id, **fields}
        names = ", ".join(row)
        with sqlite3.connect(store.path) as conn:
            conn.execute(
                f"INSERT INTO games ({names}) VALUES ({', '.join('?' * len(row))})",
                [int(v) if isinstance(v, bool) else v for v in row.values()],
            )
    else:
        store.client.put_item(TableName=store.table, Item=_dynamo_item(game_id, fields))


def _read_by_hand(store, kind, game_id):
    """The record of `game_id` as stored, in the shape `_write_by_hand` takes."""
    if kind == "memory":
        return {k: v for k, v in store._records[game_id].items() if k != "id"}
    if kind == "sqlite":
        import sqlite3

        with sqlite3.connect(store.path) as conn:
            cursor = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,))
            names = [column[0] for column in cursor.description]
            row = dict(zip(names, cursor.fetchone(), strict=True))
        return {k: v for k, v in row.items() if k != "id"}
    return store._get(f"GAME#{game_id}", "GAME")


@pytest.mark.parametrize("game_id", LEGACY)
def test_records_stored_by_earlier_versions_load_and_are_written_alike(store, request, game_id):
    """A record written by hand as earlier versions wrote it loads as the same GameRecord, and
    writing that record again stores the same fields (a solitaire's seats: none, not "[]")."""
    kind = request.node.callspec.params["store"]
    fields, expected = LEGACY[game_id]
    _write_by_hand(store, kind, game_id, fields)
    assert store.load(game_id).record == expected
    store.create(replace(expected, id="again"))
    written = _read_by_hand(store, kind, "again")
    if kind == "dynamodb-local" or kind == "moto":
        assert written == _dynamo_item("again", fields)
        return
    if kind == "sqlite":
        fields = {n: int(v) if isinstance(v, bool) else v for n, v in fields.items()}
    kept = {n: v for n, v in written.items() if v is not None}
    assert kept == {n: v for n, v in fields.items() if v is not None and v != "[]"}


def test_the_oldest_sqlite_file_loads_as_it_was(tmp_path):
    """A file from before the columns the adapter has added since (shared deals, listings,
    daily challenges, seats, salts, expiry, rematches): opened, migrated, and every record loads."""
    import sqlite3

    from infra.sqlite_store import SqliteStore

    path = str(tmp_path / "oldest.db")
    fields, expected = LEGACY["oldest"]
    with sqlite3.connect(path) as conn:
        conn.execute(f"CREATE TABLE games ({', '.join(OLDEST_COLUMNS)}, PRIMARY KEY (id))")
        conn.execute(
            f"INSERT INTO games VALUES ({', '.join('?' * len(OLDEST_COLUMNS))})",
            ["oldest", *(int(v) if isinstance(v, bool) else v for v in fields.values()), None],
        )
    store = SqliteStore(path, game_ttl=86_400)
    assert store.load("oldest").record == replace(expected, expires_at=T + 86_400)
    store.append("oldest", 0, event(1), None)
    assert store.load("oldest").moves == (event(1),)


def test_a_sqlite_file_made_before_accounts_gains_them_and_keeps_its_players(tmp_path):
    """`make run` on a court.db of the previous version: its guests still sign their tokens,
    and accounts work on it (the two columns and the account index come at open)."""
    import sqlite3

    from domain.errors import AccountTaken
    from domain.stored import PlayerRecord
    from infra.sqlite_store import SqliteStore

    path = str(tmp_path / "old.db")
    with sqlite3.connect(path) as conn:  # the players table as the previous version made it
        conn.execute("CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
                     "token_hash TEXT NOT NULL, created_at TEXT NOT NULL)")  # fmt: skip
        conn.execute("INSERT INTO players VALUES ('p1', 'Anne#1a2b', 'ab', '2026-11-22')")
    store = SqliteStore(path)
    assert store.load_player("p1") == PlayerRecord("p1", "Anne#1a2b", "ab", "2026-11-22")
    store.attach_account("p1", "acct")
    assert store.load_account("acct") == "p1" and store.save_sessions("p1", (), ("s",))
    with pytest.raises(AccountTaken):  # the index made at migration holds one per account
        store.create_player(PlayerRecord("p2", "Bo#3c4d", "", "2026-11-22", "acct"))
    assert SqliteStore(path).load_player("p1").sessions == ("s",)  # opened again: as it was
