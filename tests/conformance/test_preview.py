"""`Ruleset.preview` is what keeps greedy bots from peeking: the position right after a move,
before anything it would turn over. The property, for every registered game: no card hidden
from the seat before its move is named anywhere in the seat's view of any preview, and every
card hidden before stays hidden. A game whose preview played a draw, or dealt a refill, fails."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conformance.test_games import GAME_IDS, PICKS, SEEDS, options_for, random_game
from tests.games import EVERY_GAME
from tests.helpers import strings_in


@settings(max_examples=25)
@given(st.sampled_from(GAME_IDS), SEEDS, PICKS, st.data())
def test_a_preview_shows_nothing_the_seat_could_not_see(game_id, seed, picks, data):
    game = EVERY_GAME[game_id]
    ruleset = game.ruleset
    options = data.draw(options_for(game), label="options")
    checked = 0

    def check(state):
        nonlocal checked
        if ruleset.is_over(state) or checked > 60:
            return
        for seat in ruleset.to_move(state):
            hidden = ruleset.hidden(state, seat)
            for move in ruleset.legal_moves(state, seat):
                if move["type"] == "resign":
                    continue
                seen = ruleset.preview(state, seat, move)
                shown = set(strings_in(ruleset.view(seen, seat)))
                assert not shown & hidden, (game_id, move, shown & hidden)
                assert hidden <= ruleset.hidden(seen, seat), (game_id, move)
                checked += 1

    random_game(ruleset, seed, options, picks, on_position=check)
