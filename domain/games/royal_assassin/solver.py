"""An exact Royal Assassin solver: knows the deck order and decides whether the deal can be won.

The positions are the engine's own states, so the rules are never restated: a successor is
the state after one real choice and every forced move after it, exactly as `Ruleset.apply`
plays it. What makes the search fast is the memo key: a state reduced to what decides its
future. The stock is a suffix of the shuffled deck, so its length says which cards it holds,
in order (unless the reserve was turned over into a new stock); the discard pile is whatever
is nowhere else, so it is left out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from domain.algorithms.search import Solution, solve
from domain.errors import Json
from domain.games.royal_assassin.evaluation import heuristic
from domain.games.royal_assassin.rules import Move, RoyalAssassin, State


class RoyalAssassinSearch:
    """One deal as a search problem (domain/algorithms/search.py) over the engine's states."""

    def __init__(self, ruleset: RoyalAssassin) -> None:
        self.ruleset = ruleset

    @staticmethod
    def won(state: State) -> bool:
        return state.status == "won"

    @staticmethod
    def hopeless(state: State) -> bool:
        return state.status != "playing"

    def successors(self, state: State) -> list[tuple[Move, State | None]]:
        """Each real choice (never resign) and the position after it and its forced moves."""
        ruleset = self.ruleset
        out = []
        for move in ruleset._legal(state, 0):
            if move.is_resign:
                continue
            child = state.copy()
            ruleset._play(child, 0, move, [])
            ruleset._play_forced(child, [])
            out.append((move, None if child.status == "lost" else child))
        # Most promising first, by the greedy bot's own evaluation: wins are found early.
        out.sort(key=lambda item: -heuristic(item[1], 0) if item[1] is not None else 1e9)
        return out

    @staticmethod
    def key(state: State) -> Hashable:
        recycled = state.options.recycle_reserve
        return (
            tuple(state.stock) if recycled else len(state.stock),
            state.current,
            tuple(state.reserve),
            tuple(tuple(column) for column in state.columns),
            tuple(state.jokers_in_hand),
            tuple(state.jokers_above),
            state.progress,
        )


def solve_deal(
    ruleset: RoyalAssassin,
    seed: str,
    options: Mapping[str, object] | None = None,
    node_budget: int | None = 1_000_000,
) -> Solution:
    """Solve the deal of `seed`; the winning line lists only real choices, as `court replay`
    and the API take them."""
    state = ruleset.start(seed, options)
    problem = RoyalAssassinSearch(ruleset)
    return solve(
        problem, state, node_budget, ruleset, state, _move_json,
        forced_in_line=False, discrepancies=True,
    )  # fmt: skip


def _move_json(move: Move) -> Json:
    return move.to_json()
