"""Undo's bookkeeping: the moves still in force, the positions kept along them, and the count.

In a casual solitaire an event may be `{"type": "undo"}`, which takes back the last move still
in force. The log stays append-only (an undo is an event, hash-chained like any other) and the
position after an undo is the replay of the moves still in force, from the seed. So undo
cannot reveal anything: every card comes back to exactly where the seed put it, and the next
draw turns it again. Replaying from the seed at every undo would make a log of moves and undos
cost time quadratic in its length, so the history keeps a copy of the position every
`CHECKPOINT_EVERY` moves in force, and an undo replays from the nearest one: a position is
still only ever what the moves in force make it.

This module only remembers; it plays nothing. `domain/replay.py` asks it, replays what it
hands back and says the `undo` effect.
"""

from __future__ import annotations

from typing import Any

from domain.errors import Json

CHECKPOINT_EVERY = 16
"""Moves in force between two kept positions: an undo replays fewer than this many."""


class Undo:
    """The moves in force as (seat, move), every CHECKPOINT_EVERY-th position after them (by
    count; each a private copy that nothing ever mutates), and how many moves were undone."""

    __slots__ = ("checkpoints", "count", "in_force")

    def __init__(self) -> None:
        self.in_force: list[tuple[int, Json]] = []
        self.checkpoints: dict[int, Any] = {}
        self.count = 0

    def copy(self) -> Undo:
        """A branch's own history (the kept positions are never mutated, so they are shared)."""
        new = Undo.__new__(Undo)
        new.in_force, new.checkpoints, new.count = (
            self.in_force[:],
            dict(self.checkpoints),
            self.count,
        )
        return new

    def last_seat(self) -> int | None:
        """The seat of the move an undo would take back (None: nothing to take back)."""
        return self.in_force[-1][0] if self.in_force else None

    def keep(self, seat: int, move: Json, state: Any) -> None:
        """Remember a move now in force and, every CHECKPOINT_EVERY, a copy of `state` (the
        position it led to)."""
        self.in_force.append((seat, move))
        if len(self.in_force) % CHECKPOINT_EVERY == 0:
            self.checkpoints[len(self.in_force)] = state.copy()

    def take_back(self) -> tuple[Any, list[tuple[int, Json]], tuple[int, Json]]:
        """Forget the last move in force; return where its replay starts (a private copy of
        the nearest kept position, or None: from the deal), the moves to replay after it, and
        the (seat, move) taken back."""
        taken = self.in_force.pop()
        kept = len(self.in_force)
        self.checkpoints.pop(kept + 1, None)
        base = kept - kept % CHECKPOINT_EVERY
        self.count += 1
        start = self.checkpoints[base].copy() if base else None
        return start, self.in_force[base:], taken
