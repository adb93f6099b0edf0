"""Royal Assassin solitaire: rules, the greedy bot's evaluation, an exact solver and the
terminal drawing."""

from collections.abc import Mapping

from domain.algorithms.search import Solution
from domain.bots import greedy_policy, random_policy
from domain.capabilities import GameEntry
from domain.games.royal_assassin.evaluation import heuristic
from domain.games.royal_assassin.render import render
from domain.games.royal_assassin.rules import RoyalAssassin
from domain.games.royal_assassin.solver import solve_deal

ROYAL_ASSASSIN = RoyalAssassin()
_greedy = greedy_policy(heuristic)


def _solve(seed: str, options: Mapping[str, object] | None, budget: int | None) -> Solution:
    return solve_deal(ROYAL_ASSASSIN, seed, options, budget)


GAME = GameEntry(
    ruleset=ROYAL_ASSASSIN,
    # No stronger bot yet: `best` is the greedy one-ply search.
    policies={"random": random_policy, "greedy": _greedy, "best": _greedy},
    renderer=render,
    solver=_solve,
)
