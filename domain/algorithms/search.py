"""Exact search for solitaires that know their deck: depth-first, memoised, on a node budget.

A game's solver supplies a `SearchProblem`: its own compact model of positions (usually far
faster than the engine's states), the successors of a position, when it is won, and a sound
test that it is hopeless. This module owns what every such solver shares: the search with its
transposition memo and budget, giving up honestly (`complete=False`) rather than running for
ever, and turning the model's winning line into the real choices a player would send, checked
move by move against the game's own rules.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from domain.errors import Json
from domain.ruleset import Ruleset

P = TypeVar("P")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)


class SearchProblem(Protocol[P, A_co]):
    """One deal, modelled for search. Positions must be hashable through `key`."""

    def won(self, position: P) -> bool: ...

    def hopeless(self, position: P) -> bool:
        """True only when no line from here can win (a sound bound; False if unsure)."""
        ...

    def successors(self, position: P) -> Iterable[tuple[A_co, P | None]]:
        """Each move and where it leads, best first; None where the move loses at once."""
        ...

    def key(self, position: P) -> Hashable:
        """What identifies a position for the memo: equal keys, equal futures."""
        ...


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver's verdict on one deal; `line` lists the real choices of a win, if found."""

    winnable: bool
    line: list[Json] | None
    nodes: int  # positions expanded: the machine-independent measure of effort
    complete: bool = True  # False when the budget ran out before an answer

    def to_json(self) -> Json:
        return {
            "winnable": self.winnable if self.complete else None,
            "complete": self.complete,
            "nodes": self.nodes,
            "line": self.line,
        }


class _OutOfBudget(Exception):
    pass


@dataclass
class _Search(Generic[P, A]):
    problem: SearchProblem[P, A]
    budget: int | None
    nodes: int = 0

    def __post_init__(self) -> None:
        self.memo: dict[Hashable, bool] = {}
        self.on_path: set[Hashable] = set()

    def run(self, position: P, line: list[A]) -> bool:
        problem = self.problem
        if problem.won(position):
            return True
        key = problem.key(position)
        known = self.memo.get(key)
        if known is not None:
            return known
        if key in self.on_path:
            # A cycle: a win through it is also a win without it, and the search stops at
            # the first win, so cutting here loses nothing.
            return False
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OutOfBudget
        result = False
        if not problem.hopeless(position):
            self.on_path.add(key)
            for move, following in problem.successors(position):
                if following is not None and self.run(following, line):
                    line.append(move)  # built leaf first, reversed once at the end
                    result = True
                    break
            self.on_path.discard(key)
        self.memo[key] = result
        return result


EXHAUSTED = 1 << 30  # in the discrepancy memo: searched with no limit, and lost


@dataclass
class _DiscrepancySearch(Generic[P, A]):
    """Limited discrepancy search: trust the successors' order, and allow only `limit` moves
    off it along any line, raising the limit until a win or a proof that there is none.

    When the order is a good guide (a bot's evaluation), a win usually lies a few
    discrepancies from the first line tried, far sooner than plain depth-first search finds
    it. Within one limit, lines that leave the order early are tried before lines that
    leave it late (as Harvey and Ginsberg's LDS does): measured on Adaman's hardest winnable
    deals (solve-14, solve-76), the last limit reached its win 1.6 and 1.9 times sooner than
    with late ones first, and a proof of loss cost the same (solve-66: 1.64 million
    positions). The memo keeps, per position, the largest allowance under which it was
    searched in vain (EXHAUSTED when nothing was cut), so no allowance is ever searched
    twice. For games
    whose positions never repeat (both games' are: cards only ever move on); a repeated
    position is a ValueError rather than a wrong verdict.
    """

    problem: SearchProblem[P, A]
    budget: int | None
    nodes: int = 0

    def __post_init__(self) -> None:
        self.failed: dict[Hashable, int] = {}
        self.on_path: set[Hashable] = set()

    def run(self, position: P, allowance: int, line: list[A]) -> tuple[bool, bool]:
        """(won, cut): `cut` when some move was skipped for want of allowance."""
        problem = self.problem
        if problem.won(position):
            return True, False
        key = problem.key(position)
        if key in self.on_path:
            # Allowances make a verdict depend on the path taken; with cycles, memoised
            # verdicts would depend on each other. Games whose positions never repeat only.
            raise ValueError("limited discrepancy search needs positions that never repeat")
        failed = self.failed.get(key)
        if failed is not None and failed >= allowance:
            return False, failed != EXHAUSTED
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OutOfBudget
        cut = False
        if not problem.hopeless(position):
            self.on_path.add(key)
            # A move that loses at once is no choice: the first move that does not is the
            # order's pick, free; each other one costs a discrepancy. Discrepancies here
            # first, then the pick with the allowance kept for deeper down: an order is least
            # sure of itself near the root, where its choices weigh most.
            children = [c for c in problem.successors(position) if c[1] is not None]
            if allowance:
                tries = [(1, child) for child in children[1:]] + [(0, c) for c in children[:1]]
            else:
                tries, cut = [(0, c) for c in children[:1]], len(children) > 1
            for cost, (move, following) in tries:
                assert following is not None
                won, child_cut = self.run(following, allowance - cost, line)
                if won:
                    line.append(move)
                    self.on_path.discard(key)
                    return True, False
                cut = cut or child_cut
            self.on_path.discard(key)
        self.failed[key] = allowance if cut else EXHAUSTED
        return False, cut


def depth_first(
    problem: SearchProblem[P, A], root: P, budget: int | None, discrepancies: bool = False
) -> tuple[bool, list[A], int, bool]:
    """(winnable, winning line, nodes expanded, complete) from `root`.

    `discrepancies`: search by limited discrepancy (see _DiscrepancySearch), for problems
    whose successors come best first; the verdict is the same, only found sooner.
    """
    line: list[A] = []
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # one frame per move of the deepest line
    search: _Search[P, A] | _DiscrepancySearch[P, A]
    try:
        if discrepancies:
            search = _DiscrepancySearch(problem, budget)
            allowance, won, cut = 0, False, True
            while cut and not won:
                won, cut = search.run(root, allowance, line)
                allowance += 1
        else:
            search = _Search(problem, budget)
            won = search.run(root, line)
        complete = True
    except _OutOfBudget:
        won, complete = False, False
    finally:
        sys.setrecursionlimit(limit)
    line.reverse()
    return won, line if won else [], search.nodes, complete


def solve(
    problem: SearchProblem[P, A],
    root: P,
    budget: int | None,
    ruleset: Ruleset[Any, Any],
    start: Any,
    to_json: Callable[[A], Json],
    forced_in_line: bool = True,
    discrepancies: bool = False,
) -> Solution:
    """Search from `root` (the model of `start`) and return the line as real choices.

    `forced_in_line`: the model lists forced moves as moves of their own (a fast model of its
    own), rather than playing them inside each successor (a model on the engine's states).
    """
    won, line, nodes, complete = depth_first(problem, root, budget, discrepancies)
    if not won:
        return Solution(False, None, nodes, complete)
    moves = [to_json(m) for m in line]
    choices = real_choices(ruleset, start, moves) if forced_in_line else moves
    final = start
    for move in choices:  # the rules, not the model, have the last word on the line
        final = ruleset.apply(final, ruleset.to_move(final)[0], move).state
    if ruleset.status(final) != "won":
        raise AssertionError("the solver's line does not win under the rules")
    return Solution(True, choices, nodes, complete)


def real_choices(ruleset: Ruleset[Any, Any], state: Any, line: Sequence[Json]) -> list[Json]:
    """The moves of `line` a player makes, without those the engine forces (which it plays).

    The model lists every move, forced ones included; each real choice is played through
    the ruleset, and the forced moves it reports in its effects are skipped in the line. A
    line the rules refuse raises IllegalMove: a solver's model that drifts from the rules
    cannot go unnoticed.
    """
    choices: list[Json] = []
    i = 0
    while i < len(line):
        seat = ruleset.to_move(state)[0]
        transition = ruleset.apply(state, seat, line[i])
        choices.append(line[i])
        forced = [e["move"] for e in transition.effects if e["type"] == "forced"]
        if forced != list(line[i + 1 : i + 1 + len(forced)]):
            raise AssertionError(f"the engine forced {forced}, the solver's line goes on otherwise")
        state = transition.state
        i += 1 + len(forced)
    return choices
