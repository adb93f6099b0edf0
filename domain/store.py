"""The one small storage interface the service needs, and the values that cross it.

Adapters live in infra/ (SQLite, DynamoDB); every one of them passes the same contract tests.
Only player moves are stored: every position is derived again by replaying them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What is written once when a game is created (and updated once, when it finishes)."""

    id: str
    ruleset: str
    options: Json
    seed: str
    seed_commitment: str
    seed_known: bool
    created_at: str
    token_hashes: dict[str, str]  # seat (as a string) -> hex SHA-256 of that seat's token
    status: str = "playing"
    version: int = 0
    outcome: Json | None = None


@dataclass(frozen=True, slots=True)
class MoveEvent:
    seq: int
    seat: int
    move: Json
    at: str
    hash: str
    idempotency_key: str | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    record: GameRecord
    moves: tuple[MoveEvent, ...] = field(default_factory=tuple)

    @property
    def version(self) -> int:
        """The number of moves: always derived from the log, never trusted from the record."""
        return len(self.moves)


@dataclass(frozen=True, slots=True)
class Finish:
    """The record's update when a move ends the game, written together with that move."""

    status: str
    outcome: Json


class GameStore(Protocol):
    def check(self) -> None:
        """Raise StoreUnavailable, with a reason an operator can act on, unless usable now."""

    def create(self, record: GameRecord) -> None:
        """Store a new game record (its id is fresh)."""

    def load(self, game_id: str) -> StoredGame | None:
        """The record and every move, in order, in one consistent read; None if unknown."""

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        """Append move `expected_version + 1` atomically, or raise VersionConflict."""
