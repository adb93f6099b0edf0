"""Who sits where: the seats a request asks for, their number as the `seats` option of a game
whose number may vary (Tally, the test game: 3 to 4), and the creator's seat."""

import pytest

from domain.errors import InvalidRequest
from domain.registry import get_game
from domain.stored import Seat
from domain.usecases.seats import seats_asked, with_seat_count
from tests.games import offered

HUMAN = {"player": "human"}


@pytest.fixture
def tally():
    with offered():
        yield get_game("tally")


def test_the_number_of_seats_asked_for_becomes_the_seats_option(tally):
    seats = seats_asked(tally, [HUMAN, HUMAN, {"player": "bot", "policy": "greedy"}, HUMAN])
    assert len(seats) == 4 and seats[2] == Seat("bot", "greedy")
    assert with_seat_count(tally.ruleset, {}, len(seats)) == {"seats": 4}
    assert with_seat_count(tally.ruleset, {"seats": 4}, 4) == {"seats": 4}
    with pytest.raises(InvalidRequest, match="3 seats were asked for"):
        with_seat_count(tally.ruleset, {"seats": 4}, 3)
    assert len(seats_asked(tally, None)) == 3  # by default, its fewest, every one human


def test_a_game_of_a_fixed_number_of_seats_gets_no_seats_option():
    duel = get_game("royal-assassin-duel")
    assert with_seat_count(duel.ruleset, {"x": 1}, 2) == {"x": 1}
    assert "seats" not in {spec.name for spec in duel.ruleset.options_offered}


@pytest.mark.parametrize("seats", [[HUMAN] * 2, [HUMAN] * 5, "four", [{"player": "bot"}] * 3])
def test_seats_the_game_cannot_take_are_refused(tally, seats):
    with pytest.raises(InvalidRequest):
        seats_asked(tally, seats)
