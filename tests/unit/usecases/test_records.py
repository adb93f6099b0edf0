"""Reading what was played: the log, the record, a replay step, the finished games."""

import pytest

from domain.errors import InvalidRequest, Unauthenticated, UnknownRuleset
from domain.usecases import games, playing, records


def finished(court, ruleset="royal-assassin", seed=None):
    created = games.create_game(court, ruleset, None, seed)
    playing.play(court, created.game["id"], created.token, 0, {"type": "resign"})
    return created


def test_the_record_keeps_a_secret_seed_until_the_game_is_over(court):
    created = games.create_game(court, "royal-assassin", None, None)
    gid = created.game["id"]
    assert "seed" not in records.record(court, gid, created.token)
    playing.play(court, gid, created.token, 0, {"type": "resign"})
    record = records.record(court, gid, None)
    assert record["seed"] == court.load(gid).record.seed
    assert [m["seq"] for m in record["moves"]] == [1] and "salt" in record["moves"][0]


def test_a_game_in_play_is_stepped_through_by_its_seats_alone(court):
    created = games.create_game(court, "royal-assassin", None, None)
    gid = created.game["id"]
    with pytest.raises(Unauthenticated):
        records.replay_step(court, gid, None, 0)
    step = records.replay_step(court, gid, created.token, 0)
    assert step["move"] is None and "deck" not in step and "deal_plan" not in step
    with pytest.raises(InvalidRequest):
        records.replay_step(court, gid, created.token, 1)


def test_a_finished_games_steps_carry_its_deal_and_plan(court):
    created = finished(court, seed="court-9")
    gid = created.game["id"]
    step = records.replay_step(court, gid, None, 1)
    assert step["move"]["move"] == {"type": "resign"} and step["version"] == 1
    ruleset = court.replay(court.load(gid), 0).ruleset
    assert step["deck"] == ruleset.deck("court-9")
    assert step["deal_plan"] == [s.to_json() for s in ruleset.deal_plan()]


def test_the_log_hides_what_the_other_seat_may_not_see(court):
    created = games.create_game(court, "royal-ace-assin", None, None)
    gid = created.game["id"]
    joined = games.join(court, gid, 1, created.invites[0]["invite"])
    playing.play(court, gid, created.token, 0, {"type": "choose_suit", "suit": "hearts"})
    playing.play(court, gid, joined.token, 1, {"type": "choose_suit", "suit": "spades"})
    place = {"type": "place", "cards": {"king": "2H", "queen": "3H", "jack": "4H"}}
    playing.play(court, gid, created.token, 2, place)
    assert records.moves(court, gid, created.token)[2]["move"] == place
    for viewer in (joined.token, None):
        shown = records.moves(court, gid, viewer)[2]
        assert "2H" not in str(shown) and "salt" not in shown


def test_the_finished_listing_pages_and_checks_its_arguments(court):
    for _ in range(3):
        finished(court)
    first = records.list_finished(court, "royal-assassin", 2, None)
    assert len(first["games"]) == 2 and first["cursor"]
    rest = records.list_finished(court, "royal-assassin", 2, first["cursor"])
    assert len(rest["games"]) == 1 and rest["cursor"] is None
    assert all("seed" in g for g in first["games"] + rest["games"])
    with pytest.raises(InvalidRequest):
        records.list_finished(court, None, 0, None)
    with pytest.raises(InvalidRequest):
        records.list_finished(court, None, 5, "forged")
    with pytest.raises(UnknownRuleset):
        records.list_finished(court, "chess", 5, None)
