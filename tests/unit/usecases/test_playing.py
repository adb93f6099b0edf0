"""A seat's move: checked, answered again on retry, refused when stale, appended."""

import pytest

from domain.errors import (
    DailyClosed,
    GameOver,
    IdempotencyMismatch,
    IllegalMove,
    LogFull,
    NotYourTurn,
    StaleVersion,
    Unauthenticated,
)
from domain.usecases import daily, games, players, playing
from tests.unit.usecases.conftest import keep_deal

RA, RAA = "royal-assassin", "royal-ace-assin"


def first_real(view):
    return next(m for m in view["legal_moves"] if m["type"] not in ("resign", "undo"))


def test_a_move_needs_a_token_and_a_legal_move(court):
    created = games.create_game(court, RA, None, "court-3")
    gid = created.game["id"]
    with pytest.raises(Unauthenticated):
        playing.play(court, gid, None, 0, first_real(created.view))
    with pytest.raises(IllegalMove) as refused:
        playing.play(court, gid, created.token, 0, {"type": "attack", "column": "nowhere"})
    assert refused.value.legal_moves == created.view["legal_moves"]
    assert court.load(gid).version == 0


def test_a_retry_with_its_key_gets_the_same_answer_and_appends_nothing(court):
    created = games.create_game(court, RA, None, "court-3")
    gid, move = created.game["id"], first_real(created.view)
    first = playing.play(court, gid, created.token, 0, move, "key-1")
    again = playing.play(court, gid, created.token, 0, move, "key-1")
    assert again == first and court.load(gid).version == 1
    with pytest.raises(IdempotencyMismatch):
        playing.play(court, gid, created.token, 0, {"type": "resign"}, "key-1")


def test_a_stale_seat_is_told_the_version_and_a_waiting_one_its_turn(court):
    created = games.create_game(court, RAA, None, None)
    gid = created.game["id"]
    joined = games.join(court, gid, 1, created.invites[0]["invite"])
    suit = {"type": "choose_suit", "suit": "hearts"}
    with pytest.raises(NotYourTurn):
        playing.play(court, gid, joined.token, 0, {"type": "choose_suit", "suit": "clubs"})
    playing.play(court, gid, created.token, 0, suit)
    with pytest.raises(StaleVersion) as stale:
        playing.play(court, gid, joined.token, 0, {"type": "choose_suit", "suit": "clubs"})
    assert stale.value.current_version == 1


def test_nothing_but_resign_past_the_log_cap_and_nothing_once_over(court, monkeypatch):
    monkeypatch.setattr(playing, "MAX_EVENTS", 2)
    created = games.create_game(court, RA, None, "court-3")
    gid, token = created.game["id"], created.token
    for version in range(2):
        view = games.read_game(court, gid, token).view
        playing.play(court, gid, token, version, first_real(view))
    view = games.read_game(court, gid, token).view
    with pytest.raises(LogFull):
        playing.play(court, gid, token, 2, first_real(view))
    over = playing.play(court, gid, token, 2, {"type": "resign"})
    assert over.game["status"] != "playing"
    with pytest.raises(GameOver):
        playing.play(court, gid, token, 3, {"type": "resign"})


def test_a_ranked_attempt_takes_no_move_after_its_day(court, store, clock):
    keep_deal(store, "2026-11-22", RA)
    player = players.create_player(court, "Anne")
    ranked = daily.start_daily(court, "2026-11-22", RA, player["token"])
    clock.now = "2026-11-23T00:00:00.000Z"
    with pytest.raises(DailyClosed):
        playing.play(court, ranked.game["id"], ranked.token, 0, {"type": "resign"})
    assert court.load(ranked.game["id"]).version == 0


def test_a_sealed_placement_does_not_make_the_other_seat_stale(court):
    created = games.create_game(court, RAA, None, None)
    gid = created.game["id"]
    joined = games.join(court, gid, 1, created.invites[0]["invite"])
    tokens = [created.token, joined.token]
    playing.play(court, gid, tokens[0], 0, {"type": "choose_suit", "suit": "hearts"})
    playing.play(court, gid, tokens[1], 1, {"type": "choose_suit", "suit": "spades"})
    places = [first_real(games.read_game(court, gid, t).view) for t in tokens]
    playing.play(court, gid, tokens[0], 2, places[0])
    # Seat 1 still at version 2: seat 0's sealed placement changed nothing it may do.
    answer = playing.play(court, gid, tokens[1], 2, places[1])
    assert answer.seq == 4
