"""Bot policies that play any ruleset through its public API, for simulations and bot seats.

Their randomness comes from the deal stream (label `bot`), never from Python's `random`, so a
simulation is reproducible from its seeds alone. A game's own strong bots live in its package
and are offered, with these, through its registry entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.deal import DealRandom
from domain.errors import Json
from domain.fast_paths import fast_paths
from domain.ruleset import Ruleset

Policy = Callable[[Ruleset[Any, Any], Any, int, list[Json]], Json]
"""Chooses one of the legal moves (given) for a seat in a state."""
PolicyFactory = Callable[[DealRandom], Policy]
"""Makes a policy for one game, drawing any randomness from the stream given."""
Heuristic = Callable[[Any, int], float]
"""How good a state looks to a seat, from what that seat can see."""
ViewChoice = Callable[[Json, DealRandom], Json]
"""Chooses a move from a seat's view alone (its `legal_moves` included)."""


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


def _typed_random(rng: DealRandom) -> Callable[[tuple[Any, ...]], Any]:
    """`random_policy` on typed moves, drawing exactly as it does: the fast path's chooser."""

    def choose(legal: tuple[Any, ...]) -> Any:
        n = len(legal)
        if n > 1 and legal[-1].is_resign:  # the usual listing: resign once, and last
            return legal[rng.uniform(n - 1)]
        choices = [m for m in legal if not m.is_resign] or legal
        return choices[rng.uniform(len(choices))]

    return choose


def greedy_policy(heuristic: Heuristic) -> PolicyFactory:
    """One ply ahead: the move whose immediate result `heuristic` likes best.

    Moves are judged with `Ruleset.preview`, which never reveals a hidden card, so the bot
    knows no more than a player would. Ties go to the first move listed.
    """

    def make(rng: DealRandom) -> Policy:
        def choose(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
            best: Json | None = None
            best_score = float("-inf")
            for move in _choices(legal):
                score = heuristic(ruleset.preview(state, seat, move), seat)
                if score > best_score:
                    best, best_score = move, score
            assert best is not None
            return best

        return choose

    return make


def from_view(choice: ViewChoice) -> PolicyFactory:
    """A policy that is shown only its seat's view: the way every bot of a game with hidden
    hands is built, so that it cannot see what its seat cannot, whoever calls it."""

    def make(rng: DealRandom) -> Policy:
        def choose(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
            return choice(ruleset.view(state, seat), rng)

        return choose

    return make


def bot_stream(seat: int) -> str:
    """The label of a seat's bot randomness in a simulated game (seat 0's is plain `bot`)."""
    return "bot" if seat == 0 else f"bot:{seat}"


def play_out(
    ruleset: Ruleset[Any, Any],
    seed: str,
    options: Mapping[str, Any] | None,
    policy: PolicyFactory,
    against: PolicyFactory | None = None,
    policy_seat: int = 0,
) -> tuple[Any, list[tuple[int, Json]]]:
    """Play one game to its end with bots (`policy` in `policy_seat`, every other seat
    `against`, or `policy` too); returns the final state and the move log. When several seats
    may move at once, the lowest seat listed moves first."""
    state = ruleset.start(seed, options)
    seats = range(ruleset.seat_count(options))
    factories = [policy if seat == policy_seat else against or policy for seat in seats]
    if all(f is random_policy for f in factories):
        # Random bots need nothing but the legal moves: the typed, in-place fast path.
        rngs = [DealRandom(seed, bot_stream(seat)) for seat in seats]
        final, typed = fast_paths(ruleset).playout(state, [_typed_random(rng) for rng in rngs])
        return final, [(seat, move.to_json()) for seat, move in typed]
    choosers = [f(DealRandom(seed, bot_stream(seat))) for seat, f in enumerate(factories)]
    log: list[tuple[int, Json]] = []
    while not ruleset.is_over(state):
        seat = ruleset.to_move(state)[0]
        move = choosers[seat](ruleset, state, seat, ruleset.legal_moves(state, seat))
        log.append((seat, move))
        state = ruleset.apply(state, seat, move).state
    return state, log
