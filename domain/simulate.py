"""Many bot games in a row, as a pure generator: the CLI and the benchmark draw on it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from domain.bots import play_out
from domain.capabilities import GameEntry
from domain.errors import Json


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: str
    outcome: Json
    moves: int
    policy_seat: int = 0  # where `policy` sat (the other seats played `against`)
    group: str | None = None  # the game's own breakdown (GameEntry.group_by), if it has one

    @property
    def policy_won(self) -> bool:
        """Whether `policy` won: a solitaire's result, or its seat being the winner."""
        if "winner" in self.outcome:
            return bool(self.outcome["winner"] == self.policy_seat)
        return bool(self.outcome["result"] == "won")


def simulate(
    game: GameEntry,
    games: int,
    policy: str,
    options: Mapping[str, Any] | None = None,
    seed_prefix: str = "sim",
    against: str | None = None,
) -> Iterator[GameResult]:
    """Play `games` games with seeds `<prefix>-0`, `<prefix>-1`, ...: reproducible by design.

    In a game of several seats `policy` plays `against` (default: itself) in every other
    seat, taking seat 0 in game 0, seat 1 in game 1, and so on round the table, so that no
    seat's advantage favours either bot.
    """
    opts = dict(options or {})
    ruleset = game.ruleset
    mine = game.policies[policy]
    theirs = game.policies[against or policy]
    for i in range(games):
        seed = f"{seed_prefix}-{i}"
        seat = i % ruleset.seat_count(opts)
        state, log = play_out(ruleset, seed, opts, mine, theirs, policy_seat=seat)
        outcome = ruleset.outcome(state)
        assert outcome is not None
        group = None if game.group_by is None else game.group_by(ruleset.view(state, None))
        yield GameResult(seed, outcome, len(log), seat, group)


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % confidence interval of a win rate: honest even when wins are rare."""
    if games == 0:
        return (0.0, 0.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
