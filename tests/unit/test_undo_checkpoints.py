"""Undo replays from the nearest kept position (`CHECKPOINT_EVERY` moves in force apart), never
from anything but the moves in force: after every event of a random log of moves and undos,
the position is exactly the one a fresh replay of the moves still in force reaches."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.moves import UNDO_MOVE
from domain.registry import GAMES
from domain.replay import Playthrough
from domain.undo import CHECKPOINT_EVERY

SOLITAIRES = sorted(g for g, e in GAMES.items() if e.ruleset.max_seats == 1)


def position(game):
    """What a seat sees, less the undo count (a fresh replay has undone nothing)."""
    return {k: v for k, v in game.view(0).items() if k != "undos"}


def fresh(ruleset, seed, in_force):
    game = Playthrough(ruleset, seed, {"undo": True})
    for seat, move in in_force:
        game.play(seat, move)
    return game


@settings(max_examples=40)
@given(
    st.sampled_from(SOLITAIRES),
    st.integers(0, 10**6),
    st.floats(0.05, 0.6),
    st.sampled_from(["heard", "unheard", "stored text"]),
)
def test_undo_from_a_checkpoint_is_replay_from_the_seed(game_id, n, undo_share, way):
    ruleset = GAMES[game_id].ruleset
    seed, rng = f"undo-{n}", random.Random(n)
    game = Playthrough(ruleset, seed, {"undo": True})
    deepest = 0
    for _ in range(3 * CHECKPOINT_EVERY + 10):
        if ruleset.is_over(game.state):
            break
        legal = [m for m in game.legal_moves(0) if m["type"] != "resign"]
        undo = game.can_undo(0) and rng.random() < undo_share
        move = dict(UNDO_MOVE) if undo else rng.choice([m for m in legal if m != UNDO_MOVE])
        if way == "stored text":  # as a store's log is replayed (Court.replay)
            game.replay([(0, json.dumps(move))], texts=True)
        else:
            game.play(0, move, heard=way == "heard")
        deepest = max(deepest, len(game.undo.in_force))
        expected = fresh(ruleset, seed, game.undo.in_force)
        assert position(game) == position(expected)
        assert ruleset.view(game.state, None) == ruleset.view(expected.state, None)


def test_a_long_undo_chain_crosses_checkpoints():
    """Undo every move of a game as deep as two checkpoints and more, one by one."""
    ruleset = GAMES["royal-assassin"].ruleset
    game = Playthrough(ruleset, "royal", {"undo": True})
    played = [position(game)]
    while len(played) < 2 * CHECKPOINT_EVERY + 3:
        real = [m for m in game.legal_moves(0) if m["type"] not in ("resign", "undo")]
        before = game.copy()
        game.play(0, real[len(played) % len(real)])
        if ruleset.is_over(game.state):  # keep a game that can still be undone
            game = before
            continue
        played.append(position(game))
    assert len(game.undo.in_force) > 2 * CHECKPOINT_EVERY
    branch = game.copy()
    for view in reversed(played[:-1]):
        game.play(0, dict(UNDO_MOVE))
        assert position(game) == view
    assert position(branch) == played[-1]  # a copy keeps its own checkpoints
