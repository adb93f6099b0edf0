"""A per-process cache of replayed games, so that a request's cost does not grow with its log.

The log stays the only truth: every request still loads the whole log in its one read, and the
cache only saves replaying a prefix of it. An entry is keyed by the game and the hash of the
last event it applied; the hash chain commits to every event before it and to the seed
commitment, so an entry whose hash appears at the same place in the loaded log is exactly that
prefix, and one that does not (a stale or forged entry) is simply not used. Entries are
never shared between processes, and evicted least recently used beyond `capacity` games.

Besides its newest position, a game keeps a checkpoint every CHECKPOINT_EVERY events, so that
a position of its past (a replay step, the answer to a late retry, the position before a
ranked game's last move) is played from the nearest checkpoint before it, not from the deal:
at the event cap, at most CHECKPOINT_EVERY events instead of two thousand.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from domain.replay import Playthrough

CHECKPOINT_EVERY = 32
"""Events between a game's checkpoints: a game at the event cap (2,000) keeps 62, and a past
position costs at most this many events of replay on top of a copy (with undos, which play
back from their own positions, about 100 moves: a few milliseconds)."""
MAX_CHECKPOINTS = 4096
"""Checkpoints kept at most in one cache, all games together (a position is a few kilobytes):
past it, the least recently used games' checkpoints go first. The newest positions are
bounded by the capacity."""


@dataclass(frozen=True, slots=True)
class _Entry:
    version: int  # events applied
    last_hash: str  # the hash of event `version`, or the seed commitment for version 0
    game: Playthrough


class ReplayCache:
    """Thread-safe LRU of the latest replayed position of each game, and its checkpoints."""

    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._checkpoints: dict[str, dict[int, _Entry]] = {}  # game -> version -> position
        self._kept = 0  # checkpoints, all games together
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(
        self, game_id: str, hash_at: Callable[[int], str], upto: int
    ) -> tuple[int, Playthrough] | None:
        """The longest cached prefix of the log up to `upto` events, as (version, a private
        copy), or None.

        `hash_at(k)` is the loaded log's hash after k events (the seed commitment for 0); a
        position (the newest, or a checkpoint) is used only if it stops at `upto` events or
        before, and its hash is the log's there.
        """
        with self._lock:
            newest = self._entries.get(game_id)
            kept = self._checkpoints.get(game_id, {}).values()
            usable = [e for e in (newest, *kept) if e is not None and e.version <= upto]
            for entry in sorted(usable, key=lambda e: e.version, reverse=True):
                if hash_at(entry.version) == entry.last_hash:
                    self._entries.move_to_end(game_id)
                    self.hits += 1
                    return entry.version, entry.game.copy()
            self.misses += 1
            return None

    def checkpoint(self, game_id: str, version: int, last_hash: str, game: Playthrough) -> None:
        """Keep `game` as the position after `version` events, a multiple of CHECKPOINT_EVERY
        (kept once: a log only grows, so the position at a version never changes)."""
        if self.capacity <= 0 or version <= 0 or version % CHECKPOINT_EVERY:
            return
        with self._lock:
            kept = self._checkpoints.setdefault(game_id, {})
            if version in kept:
                return
            entry = _Entry(version, last_hash, game.copy())
            current = self._entries.get(game_id)
            if current is None or current.version < version:
                self._newest(game_id, entry)  # the game's entry bounds its checkpoints
            for other in list(self._entries):  # least recently used first
                if self._kept < MAX_CHECKPOINTS:
                    break
                if other != game_id:
                    self._kept -= len(self._checkpoints.pop(other, {}))
            if self._kept < MAX_CHECKPOINTS:
                self._checkpoints.setdefault(game_id, kept)[version] = entry
                self._kept += 1

    def put(self, game_id: str, version: int, last_hash: str, game: Playthrough) -> None:
        """Remember `game` as replayed through event `version` (keeps the newest per game)."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current.version > version:
                return
            self._newest(game_id, _Entry(version, last_hash, game.copy()))

    def _newest(self, game_id: str, entry: _Entry) -> None:
        """Under the lock: `entry` as the game's newest position, the least recently used
        games (and their checkpoints) evicted beyond `capacity`."""
        self._entries[game_id] = entry
        self._entries.move_to_end(game_id)
        while len(self._entries) > self.capacity:
            evicted, _ = self._entries.popitem(last=False)
            self._kept -= len(self._checkpoints.pop(evicted, {}))
