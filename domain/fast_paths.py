"""Playing many moves cheaply: a capability a game opts into, beside its public path.

A game's public path is `Ruleset.apply`: a new state and the effects of the move, every time.
Three callers play thousands of moves whose effects nobody reads and whose positions nobody
keeps: replaying a stored log (every request), rating a daily deal (hundreds of playouts
inside one request) and simulating random games (`court simulate`, the benchmarks). For them
a game may opt in (`Ruleset.in_place = InPlace`), declaring that its `_play` touches nothing
but the state it is given and its `State.copy()` shares nothing mutable. Then these callers
play one private state in place, with no copy, no JSON and no effects per move; a game may
fuse a loop in a subclass (Royal Assassin's playout).

A game that does not opt in is played by the very same calls on its public path, so no
caller ever asks which it has; the test-only sixth game (tests/games/tally) plays that way.
The conformance suite holds the two to the same results on random games of every game
(tests/conformance/test_games.py: the replay, text and playout properties).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Generic, Self

from domain.errors import GameOver
from domain.moves import PARSED_LIMIT, decode_move
from domain.ruleset import Ruleset
from domain.transition import UNHEARD, M, S

Chooser = Callable[[tuple[M, ...]], M]
"""Picks a seat's move from its typed legal moves (the order `legal_moves` lists them in)."""


class PublicPath(Generic[S, M]):
    """The fast-path calls, made on the public path: what a game that does not opt in gets.

    Each call returns the state to go on with; keep it, and drop the one you passed in.
    """

    in_place = False

    def __init__(self, ruleset: Ruleset[S, M]) -> None:
        self.ruleset = ruleset

    def advance(self, state: S, seat: int, move: object) -> S:
        """`apply` with the effects dropped. A refused move raises as `apply` does."""
        return self.ruleset.apply(state, seat, move).state

    def advance_text(self, state: S, seat: int, text: str) -> S:
        """`advance` for a move still in the JSON text a store keeps it as."""
        return self.advance(state, seat, decode_move(text))

    def playout(self, state: S, choosers: Sequence[Chooser[M]]) -> tuple[S, list[tuple[int, M]]]:
        """Play to the end, each seat's move picked by `choosers[seat]`; the final state and
        the log of (seat, typed move)."""
        ruleset = self.ruleset
        log: list[tuple[int, M]] = []
        while not ruleset.is_over(state):
            seat = ruleset.to_move(state)[0]
            listed = ruleset.legal_moves(state, seat)
            legal = tuple(ruleset.parse_move(state, seat, move) for move in listed)
            move = choosers[seat](legal)
            log.append((seat, move))
            state = ruleset.apply(state, seat, move.to_json()).state
        return state, log


class InPlace(PublicPath[S, M]):
    """The same calls, on the state passed in, mutated in place (it must be the caller's own:
    a copy it made and shares with no one). The results are exactly those of `PublicPath`:
    the same checks, the same `_play` and the same forced-move rule, minus copies and effects.
    """

    in_place = True

    def __init__(self, ruleset: Ruleset[S, M]) -> None:
        super().__init__(ruleset)
        self._parsed_texts: dict[str, M] = {}

    def advance(self, state: S, seat: int, move: object) -> S:
        ruleset = self.ruleset
        typed = ruleset._checked(state, seat, move)
        ruleset._play(state, seat, typed, UNHEARD)
        ruleset._play_forced(state, UNHEARD)
        return state

    def advance_text(self, state: S, seat: int, text: str) -> S:
        """A log repeats a few moves over and over, so the typed move is found by its text,
        skipping the decode and the shape check; the legality checks are `advance`'s."""
        ruleset = self.ruleset
        if ruleset.is_over(state):
            raise GameOver()
        typed = self._parsed_texts.get(text)
        if typed is None:
            typed = ruleset.parse_move(state, seat, decode_move(text))
            if len(self._parsed_texts) < PARSED_LIMIT:
                self._parsed_texts[text] = typed  # moves are immutable values: safe to share
        ruleset._play(state, seat, ruleset._legal_or_raise(state, seat, typed), UNHEARD)
        ruleset._play_forced(state, UNHEARD)
        return state

    def playout(self, state: S, choosers: Sequence[Chooser[M]]) -> tuple[S, list[tuple[int, M]]]:
        """On one private copy of `state` (which is left untouched), with no JSON on the way:
        a random game costs a fraction of the public path."""
        ruleset = self.ruleset
        state = state.copy()
        log: list[tuple[int, M]] = []
        while not ruleset.is_over(state):
            seat = ruleset._to_move(state)[0]
            move = choosers[seat](ruleset._legal(state, seat))
            log.append((seat, move))
            ruleset._play(state, seat, move, UNHEARD)
            ruleset._play_forced(state, UNHEARD)
        return state, log


class Position(Generic[S]):
    """A state the fast paths may play in place, shared between branches copy on write.

    A replayed game is copied often and advanced rarely after (the replay cache keeps one
    copy and hands out another; a use case may branch one to look back). Copying its state
    each time would cost more than the moves, so `branch` shares it, marking both sides, and
    whichever side advances first in place copies it then. The public path never mutates a
    state, so for a game that does not opt in nothing is ever copied here.
    """

    __slots__ = ("paths", "shared", "state")

    def __init__(self, paths: PublicPath[S, Any], state: S, shared: bool = False) -> None:
        self.paths, self.state, self.shared = paths, state, shared

    def branch(self) -> Self:
        """Another position on the same state: both copy it before they next play in place."""
        self.shared = True
        return type(self)(self.paths, self.state, shared=True)

    def advance(self, seat: int, move: object, text: bool = False) -> None:
        """Play `move` (the JSON text a store keeps it as, if `text`) with the effects unheard."""
        paths, state = self.paths, self.state
        if self.shared and paths.in_place:
            state = state.copy()
        if text:
            assert type(move) is str
            self.state = paths.advance_text(state, seat, move)
        else:
            self.state = paths.advance(state, seat, move)
        self.shared = False

    def replace(self, state: S) -> None:
        """Go on from `state`, a fresh one no one else holds (a new state from `apply`)."""
        self.state, self.shared = state, False


@cache
def fast_paths(ruleset: Ruleset[Any, Any]) -> PublicPath[Any, Any]:
    """The game's fast paths: in place if it opts in, else its public path (one per game)."""
    chosen = ruleset.in_place
    if chosen is None:
        return PublicPath(ruleset)
    assert issubclass(chosen, InPlace), f"{ruleset.id}: in_place must be InPlace or a subclass"
    return chosen(ruleset)
