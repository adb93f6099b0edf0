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


def simulate(
    game: GameEntry,
    games: int,
    policy: str,
    options: Mapping[str, Any] | None = None,
    seed_prefix: str = "sim",
) -> Iterator[GameResult]:
    """Play `games` games with seeds `<prefix>-0`, `<prefix>-1`, ...: reproducible by design."""
    opts = dict(options or {})
    for i in range(games):
        seed = f"{seed_prefix}-{i}"
        state, log = play_out(game.ruleset, seed, opts, game.policies[policy])
        outcome = game.ruleset.outcome(state)
        assert outcome is not None
        yield GameResult(seed, outcome, len(log))


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % confidence interval of a win rate: honest even when wins are rare."""
    if games == 0:
        return (0.0, 0.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
