"""A per-process cache of replayed games, so that a request's cost does not grow with its log.

The log stays the only truth: every request still loads the whole log in its one read, and the
cache only saves replaying a prefix of it. An entry is keyed by the game and the hash of the
last event it applied; the hash chain commits to every event before it and to the seed
commitment, so an entry whose hash appears at the same place in the loaded log is exactly that
prefix, and one that does not (a stale or forged entry) is simply not used. Entries are
never shared between processes, and evicted least recently used beyond `capacity` games.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from domain.replay import Playthrough


@dataclass(frozen=True, slots=True)
class _Entry:
    version: int  # events applied
    last_hash: str  # the hash of event `version`, or the seed commitment for version 0
    game: Playthrough


class ReplayCache:
    """Thread-safe LRU of the latest replayed position of each game."""

    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(
        self, game_id: str, hash_at: Callable[[int], str], upto: int
    ) -> tuple[int, Playthrough] | None:
        """The cached prefix of the log, as (version, a private copy), or None.

        `hash_at(k)` is the loaded log's hash after k events (the seed commitment for 0); the
        entry is used only if it stops at `upto` events or before, and its hash is the log's
        there.
        """
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry.version > upto:
                self.misses += 1
                return None
            expected = hash_at(entry.version)
            if expected != entry.last_hash:
                self.misses += 1
                return None
            self._entries.move_to_end(game_id)
            self.hits += 1
            return entry.version, entry.game.copy()

    def put(self, game_id: str, version: int, last_hash: str, game: Playthrough) -> None:
        """Remember `game` as replayed through event `version` (keeps the newest per game)."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current.version > version:
                return
            self._entries[game_id] = _Entry(version, last_hash, game.copy())
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
