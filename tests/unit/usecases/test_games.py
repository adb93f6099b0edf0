"""Creating, joining and reading games, and the expiry sweep."""

import pytest

from domain.errors import Forbidden, InvalidRequest, SeatTaken, UnknownRuleset
from domain.usecases import games, playing
from domain.usecases.court import token_digest

DUEL = "royal-assassin-duel"


def test_rulesets_describe_every_game_with_its_bot_policies():
    listed = {r["id"]: r for r in games.rulesets()}
    assert listed["royal-assassin"]["policies"] == []  # a solitaire has no other seat
    assert "best" in listed[DUEL]["policies"]
    assert all({"board", "chosen_deals", "seats", "options"} <= set(r) for r in listed.values())


def test_create_keeps_token_hashes_and_gives_the_other_human_seat_an_invite(court, store):
    created = games.create_game(court, DUEL, None, None)
    record = store.load(created.game["id"]).record
    assert created.seat == 0 and court.seat(record, created.token) == 0
    assert list(record.token_hashes.values()) == [token_digest(created.token)]
    [invite] = created.invites
    assert invite["seat"] == 1 and invite["invite"] not in repr(record)
    assert [s["joined"] for s in created.game["seats"]] == [True, False]


@pytest.mark.parametrize(
    ("seats", "says"),
    [
        ([{"player": "human"}], "list of 2"),
        ([{"player": "bot"}, {"player": "bot"}], "at least one seat must be human"),
        ([{"player": "human"}, {"player": "bot", "policy": "psychic"}], "policy must be one of"),
        ([{"player": "human"}, {"player": "human", "x": 1}], "seats[1] must be"),
        ("two", "list of 2"),
    ],
)
def test_seats_asked_are_checked_before_anything_is_stored(court, store, seats, says):
    with pytest.raises(InvalidRequest, match=says.replace("[", r"\[")):
        games.create_game(court, DUEL, None, None, seats=seats)
    assert store.list_finished(None, 10, None).records == ()


def test_a_secret_deal_game_refuses_a_chosen_seed_and_unknown_rulesets_are_named(court):
    with pytest.raises(InvalidRequest, match="only secret deals"):
        games.create_game(court, DUEL, None, "my-seed")
    with pytest.raises(UnknownRuleset):
        games.create_game(court, "chess", None, None)


def test_a_seat_is_joined_once_with_its_own_invite(court):
    created = games.create_game(court, DUEL, None, None)
    gid, invite = created.game["id"], created.invites[0]["invite"]
    with pytest.raises(InvalidRequest):
        games.join(court, gid, 1, None)
    with pytest.raises(Forbidden):
        games.join(court, gid, 1, "someone-elses")
    with pytest.raises(Forbidden):
        games.join(court, gid, 0, invite)
    joined = games.join(court, gid, 1, invite)
    assert joined.seat == 1 and joined.token != created.token
    assert joined.view["seat"] == 1
    with pytest.raises(SeatTaken):
        games.join(court, gid, 1, invite)


def test_a_bot_seat_has_played_before_the_creator_reads(court):
    seats = [{"player": "bot", "policy": "random"}, {"player": "human"}]
    created = games.create_game(court, DUEL, None, None, seats=seats)
    assert created.seat == 1 and created.invites == []
    assert created.effects and created.effects[0]["type"] == "bot_move"
    assert 1 in created.view["to_move"]


def test_read_game_shows_a_seat_its_view_and_a_spectator_less(court):
    created = games.create_game(court, "royal-ace-assin", None, None)
    gid = created.game["id"]
    mine = games.read_game(court, gid, created.token)
    theirs = games.read_game(court, gid, None)
    assert mine.game == theirs.game and mine.view != theirs.view
    assert mine.view["seat"] == 0 and theirs.view["seat"] is None
    assert games.game_version(court, gid) == 0


def test_a_shared_deal_takes_a_finished_games_seed_and_options(court):
    source = games.create_game(court, "royal-assassin", {"recycle_reserve": True}, None)
    gid = source.game["id"]
    with pytest.raises(InvalidRequest, match="still being played"):
        games.create_game(court, "royal-assassin", None, None, from_game=gid)
    playing.play(court, gid, source.token, 0, {"type": "resign"})
    again = games.create_game(court, "royal-assassin", None, None, from_game=gid)
    assert again.game["seed_known"] and again.game["from_game"] == gid
    assert again.game["options"]["recycle_reserve"] is True
    from domain.usecases import records  # the source's deal, stepped back to: the same deal

    dealt = records.replay_step(court, gid, None, 0)["view"]
    assert games.read_game(court, again.game["id"], None).view == dealt
    with pytest.raises(InvalidRequest, match="takes its seed"):
        games.create_game(court, "royal-assassin", None, "x", from_game=gid)
    with pytest.raises(InvalidRequest, match="not adaman"):
        games.create_game(court, "adaman", None, None, from_game=gid)


def test_the_sweep_deletes_only_unplayed_games_whose_time_is_up(store, clock):
    from domain.usecases.court import Court
    from tests.api_helpers import counting_secrets

    court = Court(store, clock, counting_secrets(), game_ttl=60)
    idle = games.create_game(court, "royal-assassin", None, None).game["id"]
    done = games.create_game(court, "royal-assassin", None, None)
    playing.play(court, done.game["id"], done.token, 0, {"type": "resign"})
    assert games.delete_expired(court) == 0
    clock.now = "2026-11-22T10:01:00.000Z"
    assert games.delete_expired(court) == 1
    assert store.load(idle) is None and store.load(done.game["id"]) is not None
