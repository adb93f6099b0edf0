"""Bots that play any ruleset through its public API, for simulations and benchmarks.

Their randomness comes from the deal stream (label `bot`), never from Python's `random`, so a
simulation is reproducible from its seeds alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.deal import DealRandom
from domain.ruleset import Json, Ruleset

Policy = Callable[[Ruleset[Any, Any], Any, int, list[Json]], Json]
"""Chooses one of the legal moves (given) for a seat in a state."""


def _choices(legal: list[Json]) -> list[Json]:
    """Bots never resign while anything else is legal."""
    real = [m for m in legal if m["type"] != "resign"]
    return real or legal


def random_policy(rng: DealRandom) -> Policy:
    """Uniformly at random among the legal moves other than `resign`."""

    def choose(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
        choices = _choices(legal)
        return choices[rng.uniform(len(choices))]

    return choose


def greedy_policy(rng: DealRandom) -> Policy:
    """One ply ahead: the move whose immediate result the ruleset's heuristic likes best.

    Moves are judged with `Ruleset.preview`, which never reveals a hidden card, so the bot
    knows no more than a player would. Ties go to the first move listed.
    """

    def choose(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
        best: Json | None = None
        best_score = float("-inf")
        for move in _choices(legal):
            score = ruleset.heuristic(ruleset.preview(state, seat, move), seat)
            if score > best_score:
                best, best_score = move, score
        assert best is not None
        return best

    return choose


def best_policy(rng: DealRandom) -> Policy:
    """The ruleset's own expert where it has one (it sees what the seat sees), else greedy."""
    greedy = greedy_policy(rng)

    def choose(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
        move = ruleset.expert_move(state, seat, rng)
        return move if move is not None else greedy(ruleset, state, seat, legal)

    return choose


POLICIES: dict[str, Callable[[DealRandom], Policy]] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "best": best_policy,
}


def play_out(
    ruleset: Ruleset[Any, Any],
    seed: str,
    options: dict[str, Any] | None,
    policy_name: str,
) -> tuple[Any, list[tuple[int, Json]]]:
    """Play one game to its end with a bot; returns the final state and the move log."""
    policy = POLICIES[policy_name](DealRandom(seed, "bot"))
    state = ruleset.start(seed, options)
    log: list[tuple[int, Json]] = []
    while not ruleset.is_over(state):
        seat = ruleset.to_move(state)[0]
        move = policy(ruleset, state, seat, ruleset.legal_moves(state, seat))
        log.append((seat, move))
        state = ruleset.apply(state, seat, move).state
    return state, log
