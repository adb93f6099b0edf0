"""An in-memory store for service tests without Flask or a database.

It passes the same contract suite as the real stores (tests/integration/test_store_contract.py),
so a service test that passes on it says something true about the service.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from domain.errors import VersionConflict
from domain.store import (
    Finish,
    GameRecord,
    MoveEvent,
    Page,
    StoredGame,
    decode_cursor,
    encode_cursor,
)


class InMemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: dict[str, GameRecord] = {}
        self._moves: dict[str, list[MoveEvent]] = {}

    def check(self) -> None:
        return None

    def create(self, record: GameRecord) -> None:
        with self._lock:
            if record.id in self._records:
                raise VersionConflict(f"game {record.id} exists")
            self._records[record.id] = record
            self._moves[record.id] = []

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            record = self._records.get(game_id)
            if record is None:
                return None
            return StoredGame(record, tuple(self._moves[game_id]))

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        if event.seq != expected_version + 1:
            raise ValueError("a move's seq is the expected version + 1")
        with self._lock:
            if game_id not in self._records:
                raise LookupError(f"no game {game_id!r} to append to")
            moves = self._moves[game_id]
            if len(moves) != expected_version:
                raise VersionConflict(f"move {event.seq} of {game_id} already exists")
            moves.append(event)
            if finish is not None:
                self._records[game_id] = replace(
                    self._records[game_id],
                    status=finish.status,
                    outcome=finish.outcome,
                    version=event.seq,
                    finished_at=finish.at,
                )

    def list_finished(self, ruleset: str | None, limit: int, cursor: str | None) -> Page:
        with self._lock:
            finished = sorted(
                (r for r in self._records.values() if r.finished_at is not None),
                key=lambda r: (r.finished_at or "", r.id),
                reverse=True,
            )
        if ruleset is not None:
            finished = [r for r in finished if r.ruleset == ruleset]
        if cursor is not None:
            after = decode_cursor(cursor, ("finished_at", "id"))
            finished = [
                r for r in finished if (r.finished_at, r.id) < (after["finished_at"], after["id"])
            ]
        page = tuple(finished[:limit])
        more = len(finished) > limit
        next_cursor = (
            encode_cursor({"finished_at": page[-1].finished_at or "", "id": page[-1].id})
            if more
            else None
        )
        return Page(page, next_cursor)
