"""Adaman, a Decktet solitaire: rules, card table, bots, exact solver and terminal drawing."""

from collections.abc import Mapping

from domain.algorithms.search import Solution
from domain.bots import Policy, greedy_policy, random_policy
from domain.capabilities import GameEntry
from domain.deal import DealRandom
from domain.games.adaman.expert import AdamanExpert, heuristic
from domain.games.adaman.render import render
from domain.games.adaman.rules import Adaman
from domain.games.adaman.solver import solve_deal

ADAMAN = Adaman()


def _best(rng: DealRandom) -> Policy:
    return AdamanExpert(rng).policy


def _solve(seed: str, options: Mapping[str, object] | None, budget: int | None) -> Solution:
    return solve_deal(ADAMAN, seed, options, budget)


GAME = GameEntry(
    ruleset=ADAMAN,
    policies={"random": random_policy, "greedy": greedy_policy(heuristic), "best": _best},
    renderer=render,
    solver=_solve,
)
