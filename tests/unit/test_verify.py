"""The offline verifier: a finished game's record is OK; every kind of tampering is caught
and named at the right seq; any JSON at all is a verdict, never an exception."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.deal import seed_commitment
from domain.errors import InvalidOptions
from domain.options import UNKNOWN_LISTED, validate_options
from domain.record import move_hash
from domain.registry import GAMES
from domain.replay import replay
from domain.verify import Problem, verify
from tests.api_helpers import make_service
from tests.conformance.test_malformed_moves import JSON_VALUES
from tests.fakes import InMemoryStore

RA = GAMES["royal-assassin"].ruleset


def finished_record(ruleset="royal-assassin", seed=None, options=None, pick=0):
    """A real game played to its end through the service (its replay cache on, as the entry
    points run it: hundreds of moves), and its record."""
    service = make_service(store=InMemoryStore())
    # A game of several seats is played against a random bot in the other seats.
    others = [{"player": "bot", "policy": "random"}] * (GAMES[ruleset].ruleset.min_seats - 1)
    snap = service.create_game(ruleset, options, seed, seats=[{"player": "human"}, *others])
    gid, token = snap.game["id"], snap.token
    while snap.game["status"] == "playing":
        version = snap.game["version"]
        real = [m for m in snap.view["legal_moves"] if m["type"] not in ("resign", "undo")]
        snap = service.play(gid, token, version, real[(pick + version) % len(real)])
    return service.record(gid, None)


@pytest.fixture(scope="module")
def record():
    """A game of a fixed deal (38 moves): the tests below edit its 9th move. Dealt from the
    service's next secret, its length hung on how many secrets the tests run before it on
    the same worker had taken (a game of 8 moves failed one run)."""
    played = finished_record(seed="verify")
    assert len(played["moves"]) >= 10
    return played


def rechain(record, start_seq=1):
    """Recompute every hash from `start_seq` on, as a forger covering their tracks would."""
    previous = (
        record["seed_commitment"] if start_seq == 1 else record["moves"][start_seq - 2]["hash"]
    )
    for entry in record["moves"][start_seq - 1 :]:
        salt = entry.get("salt")  # format 2: the salt given with the move
        entry["hash"] = move_hash(previous, entry["seq"], entry["seat"], entry["move"], salt)
        previous = entry["hash"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_record_verifies(game_id):
    rec = finished_record(game_id, pick=1)
    verdict = verify(rec)
    assert verdict.valid, verdict.problems
    if rec["outcome"]["result"] is None:  # several seats: the winner is named
        assert verdict.summary() == (
            f"OK {game_id} seat {rec['outcome']['winner']} won ({len(rec['moves'])} moves)"
        )
    else:
        assert verdict.summary() == (
            f"OK {game_id} {rec['outcome']['result']} {rec['outcome']['score']} "
            f"({len(rec['moves'])} moves)"
        )


def first_problem(rec):
    verdict = verify(rec)
    assert not verdict.valid
    return verdict.problems[0]


def test_a_changed_seed(record):
    rec = copy.deepcopy(record)
    rec["seed"] = rec["seed"][:-1] + ("y" if rec["seed"][-1] != "y" else "z")
    problem = first_problem(rec)
    assert (problem.seq, problem.field) == (None, "seed")
    assert problem.expected == rec["seed_commitment"]


def test_a_changed_seed_with_a_matching_commitment_breaks_the_chain(record):
    rec = copy.deepcopy(record)
    rec["seed"] = "another-seed"
    rec["seed_commitment"] = seed_commitment("another-seed")
    assert (first_problem(rec).seq, first_problem(rec).field) == (1, "hash")


@pytest.mark.parametrize("seq", [1, 5, -1])
def test_a_changed_move(record, seq):
    rec = copy.deepcopy(record)
    entry = rec["moves"][seq if seq < 0 else seq - 1]
    entry["move"] = {"type": "resign"} if entry["move"] != {"type": "resign"} else {"type": "draw"}
    problem = first_problem(rec)
    assert (problem.seq, problem.field) == (entry["seq"], "hash")


def test_a_changed_move_with_the_chain_recomputed_is_caught_by_the_rules(record):
    rec = copy.deepcopy(record)
    before = replay(
        RA, rec["seed"], rec["options"], [(m["seat"], m["move"]) for m in rec["moves"][:3]]
    )
    candidates = [{"type": t, "column": c} for t in ("attack", "continue", "joker")
                  for c in ("clubs", "diamonds", "hearts", "spades")]  # fmt: skip
    rec["moves"][3]["move"] = next(m for m in candidates if m not in before.legal_moves(0))
    rechain(rec, 4)
    problem = first_problem(rec)
    assert (problem.seq, problem.field) == (4, "move") and "illegal" in problem.message


def test_a_removed_move(record):
    rec = copy.deepcopy(record)
    del rec["moves"][6]
    problem = first_problem(rec)
    assert (problem.seq, problem.field, problem.found) == (7, "seq", 8)


def test_an_inserted_move(record):
    rec = copy.deepcopy(record)
    extra = dict(rec["moves"][2], move={"type": "resign"})
    rec["moves"].insert(3, extra)
    problem = first_problem(rec)
    assert (problem.seq, problem.field) == (4, "seq")


def test_reordered_moves(record):
    rec = copy.deepcopy(record)
    rec["moves"][2], rec["moves"][3] = rec["moves"][3], rec["moves"][2]
    assert (first_problem(rec).seq, first_problem(rec).field) == (3, "seq")


def test_reordered_and_renumbered_moves(record):
    rec = copy.deepcopy(record)
    rec["moves"][2]["move"], rec["moves"][3]["move"] = (
        rec["moves"][3]["move"],
        rec["moves"][2]["move"],
    )
    if rec["moves"][2]["move"] == rec["moves"][3]["move"]:
        pytest.skip("the two moves are the same")
    assert (first_problem(rec).seq, first_problem(rec).field) == (3, "hash")


@pytest.mark.parametrize("seq", [1, 9])
def test_a_changed_hash(record, seq):
    rec = copy.deepcopy(record)
    rec["moves"][seq - 1]["hash"] = "0" * 64
    problem = first_problem(rec)
    assert (problem.seq, problem.field, problem.found) == (seq, "hash", "0" * 64)


def test_a_changed_outcome_and_status(record):
    rec = copy.deepcopy(record)
    rec["outcome"] = dict(rec["outcome"], score=rec["outcome"]["score"] + 1)
    last = rec["moves"][-1]["seq"]
    assert (first_problem(rec).seq, first_problem(rec).field) == (last, "outcome")
    rec = copy.deepcopy(record)
    rec["status"] = "lost" if record["status"] == "won" else "won"
    assert (first_problem(rec).seq, first_problem(rec).field) == (last, "status")


def test_a_truncated_log_no_longer_ends_the_game(record):
    rec = copy.deepcopy(record)
    rec["moves"] = rec["moves"][:-1]
    assert first_problem(rec).field in ("status", "outcome")


def test_options_are_checked(record):
    rec = copy.deepcopy(record)
    rec["options"]["recycle_reserve"] = not rec["options"]["recycle_reserve"]
    verdict = verify(rec)  # the other rule may or may not change how this game went
    assert verdict.valid or verdict.problems[0].field in ("move", "status", "outcome")
    rec = copy.deepcopy(record)
    del rec["options"]["recycle_reserve"]
    assert first_problem(rec).field == "options"


def test_an_unfinished_game_is_not_verifiable_yet():
    service = make_service(store=InMemoryStore())
    snap = service.create_game("royal-assassin", None, "royal")
    service.play(snap.game["id"], snap.token, 0, {"type": "reserve"})
    rec = service.record(snap.game["id"], None)
    assert first_problem(rec).field == "status"
    secret = service.create_game("royal-assassin", None, None)
    rec = service.record(secret.game["id"], None)
    assert "seed" not in rec and first_problem(rec).field == "seed"


def test_undo_events_verify():
    service = make_service(store=InMemoryStore())
    snap = service.create_game("royal-assassin", {"undo": True}, None)
    gid, token = snap.game["id"], snap.token
    snap = service.play(gid, token, 0, {"type": "reserve"})
    snap = service.play(gid, token, 1, {"type": "undo"})
    snap = service.play(gid, token, 2, {"type": "resign"})
    rec = service.record(gid, None)
    assert [m["move"]["type"] for m in rec["moves"]] == ["reserve", "undo", "resign"]
    assert verify(rec).valid


def mutations(record):
    """Replace one node anywhere in the record with arbitrary JSON."""

    def paths(value, path=()):
        yield path
        if isinstance(value, dict):
            for key, child in value.items():
                yield from paths(child, (*path, key))
        elif isinstance(value, list):
            for i, child in enumerate(value):
                yield from paths(child, (*path, i))

    every = list(paths(record))
    return st.tuples(st.sampled_from(every), JSON_VALUES)


@settings(max_examples=300)
@given(data=st.data())
def test_any_hostile_record_is_a_verdict(record, data):
    path, value = data.draw(mutations(record))
    rec = copy.deepcopy(record)
    if not path:
        rec = value
    else:
        target = rec
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    verdict = verify(rec)
    same = json.dumps(rec, sort_keys=True) == json.dumps(record, sort_keys=True)  # False != 0
    assert verdict.valid == same
    assert isinstance(verdict.summary(), str) and isinstance(verdict.to_json(), dict)


def test_the_documented_example_records_verify():
    """docs/record-format.md's examples are real records, one of each format: OK as the page
    says, and the first salt is the HMAC of the example's published chain key."""
    from domain.record import RECORD_FORMAT, RECORD_FORMAT_V1, move_salt
    from tests.stores import ROOT

    text = (ROOT / "docs/record-format.md").read_text()
    blocks = [json.loads(b.split("\n```", 1)[0]) for b in text.split("```json\n")[1:]]
    current, old = blocks[:2]
    assert (current["format"], old["format"]) == (RECORD_FORMAT, RECORD_FORMAT_V1)
    for example, name in ((current, "game.json"), (old, "old-game.json")):
        verdict = verify(example)
        assert verdict.valid, verdict.problems
        assert f"`court verify {name}` prints `{verdict.summary()}`" in text
    assert all("salt" not in m for m in old["moves"])
    key = text.split("can be checked by hand (below), is `", 1)[1].split("`", 1)[0]
    assert [m["salt"] for m in current["moves"]] == [
        move_salt(key, m["seq"]) for m in current["moves"]
    ]


def test_a_record_of_format_1_still_verifies(record):
    """Games stored before salts keep their unsalted chain and verify as they are."""
    old = copy.deepcopy(record)
    old["format"] = "royal-court-record/1"
    for entry in old["moves"]:
        del entry["salt"]
    rechain(old)
    verdict = verify(old)
    assert verdict.valid, verdict.problems
    assert not verify(record | {"format": "royal-court-record/1"}).valid  # salted: format 2


def test_every_move_of_format_2_carries_its_salt(record):
    for bad in (None, "", "ab" * 31, "AB" * 32, 7):
        rec = copy.deepcopy(record)
        rec["moves"][2]["salt"] = bad
        if bad is None:
            del rec["moves"][2]["salt"]
        problem = first_problem(rec)
        assert (problem.seq, problem.field) == (3, "salt")


def test_a_changed_salt_breaks_the_chain(record):
    rec = copy.deepcopy(record)
    rec["moves"][1]["salt"] = "0" * 64
    problem = first_problem(rec)
    assert (problem.seq, problem.field) == (2, "hash")


def test_a_refusal_names_ten_unknown_options_and_counts_the_rest():
    specs = GAMES["royal-assassin"].ruleset.options_offered
    with pytest.raises(InvalidOptions) as refused:
        validate_options(specs, {f"{i}{'n' * 100}": 0 for i in range(132_326)})
    errors = refused.value.errors
    assert len(errors) == UNKNOWN_LISTED + 1
    assert errors["..."] == f"and {132_326 - UNKNOWN_LISTED} more unknown options"
    assert all(len(name) <= 64 for name in errors)


def test_a_verdict_shows_at_most_256_characters_of_what_it_found():
    problem = Problem(None, "options", "valid options", {f"o{i}": 0 for i in range(10_000)}, "x")
    shown = problem.to_json()["found"]
    assert len(shown) == 256 and shown.endswith("...")
    assert Problem(1, "seat", "0 to 1", 7, "x").to_json()["found"] == 7  # short: as it is


def test_a_verdict_names_only_a_known_ruleset():
    """A record's `ruleset` is repeated in the verdict only when it is a ruleset of this
    service: 260,000 emoji there made a 3 MB verdict of a 1 MB request (an outside probe)."""
    refused = verify({"ruleset": "\U0001f600" * 260_000})
    assert refused.ruleset is None and len(json.dumps(refused.to_json())) < 1000
    assert verify({"ruleset": "adaman"}).ruleset == "adaman"
