"""A finished game's rematch: the same seats, a new deal, one per game, invites carried over."""

import pytest

from domain.deal import seed_commitment
from domain.errors import Forbidden, GameNotFound, NoRematch, SeatTaken, Unauthenticated
from domain.stored import Seat
from domain.usecases import daily, games, players, playing, rematches
from domain.usecases.court import Court, token_digest
from tests.api_helpers import counting_secrets
from tests.unit.usecases.conftest import keep_deal

RAA = "royal-ace-assin"
RESIGN = {"type": "resign"}


def finished_two_seats(court, ruleset=RAA):
    """A two-seat game, both seats joined, ended by seat 0's resignation: (id, tokens)."""
    created = games.create_game(court, ruleset, None, None)
    gid = created.game["id"]
    tokens = [created.token, games.join(court, gid, 1, created.invites[0]["invite"]).token]
    playing.play(court, gid, tokens[0], 0, RESIGN)
    return gid, tokens


def test_the_first_seat_to_ask_deals_it_same_seats_new_deal(court, store):
    gid, tokens = finished_two_seats(court)
    old = store.load(gid).record
    again = rematches.rematch(court, gid, tokens[1])  # seat 1 asks: it keeps seat 1
    new = store.load(again.game["id"]).record
    assert again.seat == 1 and again.view["seat"] == 1 and again.invites == []
    assert new.id != gid and (new.ruleset, new.options) == (old.ruleset, old.options)
    assert new.seed != old.seed and not new.seed_known and new.from_game is None
    assert new.seed_commitment == seed_commitment(new.seed) == again.game["seed_commitment"]
    assert "seed" not in again.game and new.seed not in repr(again)  # hidden until it ends
    assert new.chain_key not in repr(again)
    # The caller's fresh token is seat 1's; seat 0 is open, its invite the old token's hash.
    assert again.token not in tokens and court.seat(new, again.token) == 1
    assert list(new.token_hashes) == [1] and new.token_hashes[1] == token_digest(again.token)
    assert new.seats == (Seat(invite_hash=old.token_hashes[0]), Seat())
    assert [s["joined"] for s in again.game["seats"]] == [False, True]
    # The finished game points at it, in its JSON too.
    assert store.load(gid).record.rematch == new.id
    assert games.read_game(court, gid, None).game["rematch"] == {"game_id": new.id}
    assert "rematch" not in again.game


def test_the_other_seat_takes_its_seat_with_its_old_token_once(court, store):
    gid, tokens = finished_two_seats(court)
    first = rematches.rematch(court, gid, tokens[0])
    rid = first.game["id"]
    with pytest.raises(Forbidden):  # the old token of another seat is not this seat's invite
        games.join(court, rid, 1, tokens[0])
    second = rematches.rematch(court, gid, tokens[1])  # the second to ask: seated in it
    assert (second.game["id"], second.seat) == (rid, 1) and second.token not in tokens
    assert court.seat(store.load(rid).record, second.token) == 1
    assert all(s["joined"] for s in second.game["seats"])
    for token, seat in ((tokens[0], 0), (tokens[1], 1)):  # a token is given once
        with pytest.raises(SeatTaken, match=f"seat \\({seat}\\).*{rid}"):
            rematches.rematch(court, gid, token)
    assert store.load(gid).record.rematch == rid and len(store._records) == 2


def test_joining_with_the_old_token_seats_the_other_player_too(court, store):
    gid, tokens = finished_two_seats(court)
    first = rematches.rematch(court, gid, tokens[0])
    rid = first.game["id"]
    joined = games.join(court, rid, 1, tokens[1])
    assert joined.seat == 1 and court.seat(store.load(rid).record, joined.token) == 1
    with pytest.raises(SeatTaken):
        rematches.rematch(court, gid, tokens[1])
    # Both seats move in the rematch with their new tokens, not their old ones.
    with pytest.raises(Forbidden):
        playing.play(court, rid, tokens[0], 0, {"type": "choose_suit", "suit": "clubs"})
    playing.play(court, rid, first.token, 0, {"type": "choose_suit", "suit": "clubs"})
    moved = playing.play(court, rid, joined.token, 1, {"type": "choose_suit", "suit": "spades"})
    assert moved.game["version"] == 2


@pytest.mark.parametrize("bot_seat", [0, 1])
def test_bots_stay_the_same_bots_and_play_as_in_any_game(court, store, bot_seat):
    seats = [{"player": "human"}, {"player": "human"}]
    seats[bot_seat] = {"player": "bot", "policy": "random"}
    created = games.create_game(court, RAA, None, None, seats=seats)
    human = 1 - bot_seat
    playing.play(court, created.game["id"], created.token, created.game["version"], RESIGN)
    again = rematches.rematch(court, created.game["id"], created.token)
    new = store.load(again.game["id"]).record
    assert again.seat == human and new.seats[bot_seat] == Seat("bot", "random")
    assert new.seats[human] == Seat() and again.invites == []
    if bot_seat == 0:  # the bot's first move is made at once, as at creation
        assert again.effects and again.effects[0]["type"] == "bot_move"
    assert human in games.read_game(court, new.id, again.token).view["to_move"]


def test_a_seat_nobody_joined_keeps_its_old_invite(court, store):
    created = games.create_game(court, RAA, None, None)
    gid, invite = created.game["id"], created.invites[0]["invite"]
    playing.play(court, gid, created.token, 0, RESIGN)  # before seat 1 was ever joined
    again = rematches.rematch(court, gid, created.token)
    assert again.invites == []  # nothing new to hand on: the invite sent before still works
    joined = games.join(court, again.game["id"], 1, invite)
    assert joined.seat == 1


def test_a_solitaire_gets_a_new_secret_deal_of_the_same_game(court, store):
    created = games.create_game(court, "royal-assassin", {"recycle_reserve": True}, "royal")
    playing.play(court, created.game["id"], created.token, 0, RESIGN)
    again = rematches.rematch(court, created.game["id"], created.token)
    new = store.load(again.game["id"]).record
    assert new.seats == store.load(created.game["id"]).record.seats
    assert new.options["recycle_reserve"] is True
    assert not new.seed_known and new.seed != "royal" and "seed" not in again.game
    assert again.seat == 0 and court.seat(new, again.token) == 0


def test_refusals_change_nothing(court, store, clock):
    created = games.create_game(court, RAA, None, None)
    gid = created.game["id"]
    before = dict(store._records)
    with pytest.raises(Unauthenticated):
        rematches.rematch(court, gid, None)
    with pytest.raises(Forbidden):
        rematches.rematch(court, gid, "not-a-token")
    with pytest.raises(NoRematch, match="still being played"):
        rematches.rematch(court, gid, created.token)
    with pytest.raises(GameNotFound):
        rematches.rematch(court, "nope", created.token)
    keep_deal(store, "2026-11-22", "royal-assassin")
    player = players.create_player(court, "Anne")
    ranked = daily.start_daily(court, "2026-11-22", "royal-assassin", player["token"])
    playing.play(court, ranked.game["id"], ranked.token, 0, RESIGN)
    counted = dict(store._records)
    with pytest.raises(NoRematch, match="ranked daily attempt"):
        rematches.rematch(court, ranked.game["id"], ranked.token)
    clock.now = "2026-11-24T00:00:00.000Z"  # its day is over: still its player's one attempt
    with pytest.raises(NoRematch, match="ranked daily attempt"):
        rematches.rematch(court, ranked.game["id"], ranked.token)
    assert store._records == counted and before.items() <= counted.items()


def test_a_rematch_that_expired_unplayed_is_dealt_again_in_its_place(store, clock):
    court = Court(store, clock, counting_secrets(), game_ttl=60)
    gid, tokens = finished_two_seats(court)
    first = rematches.rematch(court, gid, tokens[0])
    assert store.load(first.game["id"]).record.expires_at is not None  # like any new game
    clock.now = "2026-11-22T10:01:00.000Z"
    assert games.delete_expired(court) == 1  # the rematch nobody played
    second = rematches.rematch(court, gid, tokens[1])
    assert second.game["id"] != first.game["id"] and second.seat == 1
    assert store.load(gid).record.rematch == second.game["id"]
