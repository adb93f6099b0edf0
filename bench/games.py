"""Which game each benchmark plays, and how much: the one module of bench/ that names games.

The rest of bench/ takes its games from here or from the registry (every game of two seats,
every solitaire's daily deal), so a game added to the registry is measured with no change
here; the sizes below are those the issues set for the games they name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.capabilities import GameEntry
from domain.errors import Json
from domain.registry import get_ruleset

LOG_GAME = "royal-assassin"
"""The game whose logs the service, records and server rows grow and play: one seat, moves
that cost little, and a stalling player (below) that keeps a game going for 150 moves."""

CAPACITY_GAME = "royal-assassin"
"""The solitaire whose games and daily the capacity model plays (bench/capacity.py): a move of
any game costs DynamoDB the same requests, and its daily is the cheapest to deal."""

EVENT_CAP_GAME = "risus-royale"
"""The game played with undo up to the event cap (issue 27 measured its 3,341-event log)."""

STREAM_GAME = "royal-assassin-duel"
"""The two-seat game whose seats hold the event streams of `server.streams` (issue 30 asks
of a Duel: two browsers see each other's moves within a second)."""


@dataclass(frozen=True)
class Solitaire:
    """What is measured of a one-seat game."""

    speeds: tuple[tuple[str, int], ...] = (("random", 300),)
    """(policy, games): games/s on one core, best of three runs (deals sim-0, sim-1, ...)."""
    speed_win_rates: bool = False
    """Also print the win rate of those runs."""
    win_rates: tuple[tuple[str, int], ...] | None = None
    """(policy, deals): win rate, how games end and games/s, one run over deals bench-0, ...;
    None: every policy of the game over 1,000 deals."""
    replays: int = 0
    """Finished `greedy` games to replay, each timed: median and p99."""
    best_bot: int = 0
    """Deals for the `best` bot spread over every core (the rate is per core)."""
    solver: int = 0
    """Deals `court solve --games N` solves at the default budget, over every core."""


SOLITAIRES: dict[str, Solitaire] = {
    # Issue 14: random games/s, and each bot's win rate over 2,000 deals with how games end.
    "risus-royale": Solitaire(
        speeds=(("random", 300),),
        win_rates=(("random", 2000), ("greedy", 2000), ("best", 2000)),
    ),
    # Issues 2 and 11: random and greedy games/s and win rates, and replay of a finished game.
    "royal-assassin": Solitaire(
        speeds=(("random", 3000), ("greedy", 2000)), speed_win_rates=True, replays=200, win_rates=()
    ),
    # Issues 4 and 11: random games/s, random and greedy win rates, the `best` bot over 20,000
    # deals and the solver over `court solve`'s 100.
    "adaman": Solitaire(
        speeds=(("random", 3000),),
        win_rates=(("random", 3000), ("greedy", 2000)),
        best_bot=20_000,
        solver=100,
    ),
}
"""One-seat games by id (the order rows are printed in); one not listed gets `Solitaire()`."""

TWO_SEAT_SPEED_GAMES = 300
"""Random games per two-seat game for its engine's games/s (one run)."""
PAIRINGS = (("best", "random"), ("best", "greedy"), ("greedy", "random"))
"""Bot against bot in every game of two seats, over both seat orders."""
PAIRING_GAMES = {"royal-ace-assin": 2000, "royal-assassin-duel": 1000}
"""Games per pairing, as each game's issue asks (a Duel's `best` plays ~4 games/s)."""
DEFAULT_PAIRING_GAMES = 1000


def solitaire_plan(entry: GameEntry) -> Solitaire:
    """What is measured of this one-seat game, its win rates spelled out."""
    plan = SOLITAIRES.get(entry.id, Solitaire())
    if plan.win_rates is None:
        plan = replace(plan, win_rates=tuple((policy, 1000) for policy in entry.policies))
    return plan


def stalling_log(seed: str, options: dict[str, object], moves: int) -> list[Json]:
    """A long log of LOG_GAME (Royal Assassin): one attack per pass through the stock (so the
    reserve keeps being recycled), the reserve otherwise. Real legal play, just slow on
    purpose."""
    ruleset = get_ruleset(LOG_GAME)
    state = ruleset.start(seed, options)
    log: list[Json] = []
    attacked = False
    while not ruleset.is_over(state) and len(log) < moves:
        legal = {m["type"]: m for m in ruleset.legal_moves(state, 0)}
        if not attacked and ("attack" in legal or "continue" in legal):
            move, attacked = legal.get("attack") or legal["continue"], True
        else:
            move = legal.get("reserve") or legal.get("draw") or next(iter(legal.values()))
        transition = ruleset.apply(state, 0, move)
        state = transition.state
        log.append(move)
        if any(e["type"] == "recycle" for e in transition.effects):
            attacked = False
    return log
