"""The fast paths are a capability a game opts into (domain/fast_paths.py): the production
games do, the test-only Tally does not, and the calls answer alike either way."""

from __future__ import annotations

import pickle

import pytest

from domain.errors import IllegalMove
from domain.fast_paths import InPlace, PublicPath, fast_paths
from domain.registry import GAMES
from tests.games import EVERY_GAME, TEST_GAMES


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_production_game_plays_in_place(game_id):
    assert isinstance(fast_paths(GAMES[game_id].ruleset), InPlace)


@pytest.mark.parametrize("game_id", sorted(TEST_GAMES))
def test_a_game_that_does_not_opt_in_is_played_on_its_public_path(game_id):
    paths = fast_paths(TEST_GAMES[game_id].ruleset)
    assert type(paths) is PublicPath and not paths.in_place


@pytest.mark.parametrize("game_id", sorted(EVERY_GAME))
def test_both_paths_refuse_alike_and_leave_the_state_as_it_was(game_id):
    ruleset = EVERY_GAME[game_id].ruleset
    state = ruleset.start("fast-paths")
    seat = ruleset.to_move(state)[0]
    before = pickle.dumps(state)
    for paths in (PublicPath(ruleset), fast_paths(ruleset)):
        with pytest.raises(IllegalMove) as refused:
            paths.advance(state, seat, {"type": "no-such-move"})
        assert refused.value.legal_moves == ruleset.legal_moves(state, seat)
        with pytest.raises(IllegalMove):
            paths.advance_text(state, seat, '{"type": "no-such-move"}')
        assert pickle.dumps(state) == before


@pytest.mark.parametrize("game_id", sorted(EVERY_GAME))
def test_the_public_path_never_touches_the_state_it_is_given(game_id):
    ruleset = EVERY_GAME[game_id].ruleset
    state = ruleset.start("fast-paths")
    seat = ruleset.to_move(state)[0]
    before = pickle.dumps(state)
    move = ruleset.legal_moves(state, seat)[0]
    after = PublicPath(ruleset).advance(state, seat, move)
    assert after is not state and pickle.dumps(state) == before
    assert ruleset.view(after, None) == ruleset.view(ruleset.apply(state, seat, move).state, None)


def test_in_place_must_name_an_in_place_class():
    class Confused(type(GAMES["royal-assassin"].ruleset)):
        in_place = PublicPath

    with pytest.raises(AssertionError, match="in_place must be InPlace"):
        fast_paths.__wrapped__(Confused())
