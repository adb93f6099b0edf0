"""A game as its log makes it: the one way a log of events is replayed, undo included.

The rules (`Ruleset`) know positions and moves; a log knows more: in casual solitaires an
event may be `{"type": "undo"}`, which takes back the last move still in force. The log stays
append-only (an undo is an event, hash-chained like any other) and replay skips the undone
move: the position after an undo is the replay of the moves still in force, from the seed.
So undo cannot reveal anything: every card comes back to exactly where the seed put it, and
the next draw turns it again. Replaying from the seed at every undo would make a log of moves
and undos cost time quadratic in its length, so a playthrough that allows undo keeps a copy of
the position every `CHECKPOINT_EVERY` moves in force and replays an undo from the nearest one:
a position is still only ever what the moves in force make it.

The service, the verifier, the replay endpoint and the CLI all replay through `replay` here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import GameOver, IllegalMove, Json, ReplayError
from domain.fast_paths import PublicPath, fast_paths
from domain.moves import UNDO_MOVE, decode_move
from domain.ruleset import Effect, Ruleset

AnyRuleset = Ruleset[Any, Any]
CHECKPOINT_EVERY = 16
"""Moves in force between two kept positions: an undo replays fewer than this many."""


class Playthrough:
    """The state reached by a log, the moves still in force, and how many were undone.

    Mutable, replayed forward only; `copy()` when a caller needs to branch. `play` replaces
    the state (copy-on-apply, as the rules do); `advance` plays the game's fast path
    (domain/fast_paths.py): in place, for a game that opts in, on a state this playthrough
    alone holds, copying it first if it may be shared (after `copy()`, or before any advance).
    """

    __slots__ = (
        "checkpoints",
        "fast",
        "in_force",
        "options",
        "owns_state",
        "ruleset",
        "seed",
        "state",
        "undo_allowed",
        "undos",
    )

    def __init__(self, ruleset: AnyRuleset, seed: str, options: Mapping[str, object] | None):
        self.ruleset = ruleset
        self.fast: PublicPath[Any, Any] = fast_paths(ruleset)
        self.seed = seed
        self.options = ruleset.validate_options(options)
        self.undo_allowed = bool(self.options.get("undo"))  # asked before every move replayed
        self.state: Any = ruleset.start(seed, self.options)
        self.in_force: list[tuple[int, Json]] = []  # kept only for undo, its one use
        # With undo: the position after every CHECKPOINT_EVERY-th move in force, by count;
        # each a private copy that nothing ever mutates.
        self.checkpoints: dict[int, Any] = {}
        self.undos = 0
        self.owns_state = True  # `start` deals a fresh state

    def copy(self) -> Playthrough:
        """A branch sharing the state until either side advances (each copies it then)."""
        new = Playthrough.__new__(Playthrough)
        new.ruleset, new.fast, new.seed, new.options = (
            self.ruleset,
            self.fast,
            self.seed,
            self.options,
        )
        new.undo_allowed = self.undo_allowed
        new.state, new.in_force, new.undos = self.state, self.in_force[:], self.undos
        new.checkpoints = dict(self.checkpoints)
        new.owns_state = self.owns_state = False
        return new

    # ---- reading -----------------------------------------------------------------------------

    def can_undo(self, seat: int) -> bool:
        """Only a move of this seat's own can be taken back, and only while playing."""
        return (
            self.undo_allowed
            and bool(self.in_force)
            and not self.ruleset.is_over(self.state)
            and self.in_force[-1][0] == seat
        )

    def legal_moves(self, seat: int) -> list[Json]:
        legal = self.ruleset.legal_moves(self.state, seat)
        return [*legal, dict(UNDO_MOVE)] if self.can_undo(seat) else legal

    def view(self, seat: int | None) -> Json:
        """The ruleset's view, with `undo` among the legal moves and the undo count when
        the game allows undo."""
        view = self.ruleset.view(self.state, seat)
        if self.undo_allowed:
            if seat is not None and self.can_undo(seat):
                view["legal_moves"] = [*view["legal_moves"], dict(UNDO_MOVE)]
            view["undos"] = self.undos
        return view

    # ---- playing -----------------------------------------------------------------------------

    def play(self, seat: int, move: object) -> list[Effect]:
        """Apply one event of the log; IllegalMove (listing the legal moves) leaves it as it was."""
        if self.undo_allowed and move == UNDO_MOVE:
            return self._undo(seat)
        try:
            transition = self.ruleset.apply(self.state, seat, move)
        except IllegalMove as e:
            if self.can_undo(seat):
                e.legal_moves = [*e.legal_moves, dict(UNDO_MOVE)]
            raise
        self.state = transition.state
        assert isinstance(move, dict)  # apply accepted it, so it is a move object
        if self.undo_allowed:
            self._keep(seat, move)
        return transition.effects

    def take(self, other: Playthrough) -> None:
        """Become `other`, a copy of this playthrough that has moved on (its position, moves
        in force and undo count), so that a caller can try a move on a copy and keep it."""
        self.state, self.owns_state = other.state, False
        other.owns_state = False
        self.in_force, self.undos = other.in_force[:], other.undos
        self.checkpoints = dict(other.checkpoints)

    def play_event(self, seat: int | None, move: object) -> list[Effect]:
        """`play`, for a logged event whose seat may be None: the seat whose turn it is."""
        return self.play(self._seat_of(seat), move)

    def _seat_of(self, seat: int | None) -> int:
        if seat is None:
            seats = self.ruleset.to_move(self.state)
            return seats[0] if seats else 0
        return seat

    def advance(self, seat: int | None, move: object) -> None:
        """`play_event` without the effects, in place: the fast path of replay."""
        seat = self._seat_of(seat)
        if self.undo_allowed and move == UNDO_MOVE:
            self._undo(seat)
            return
        try:
            self.state = self.fast.advance(self._state_to_advance(), seat, move)
        except IllegalMove as e:
            if self.can_undo(seat):
                e.legal_moves = [*e.legal_moves, dict(UNDO_MOVE)]
            raise
        assert isinstance(move, dict)  # advance accepted it, so it is a move object
        if self.undo_allowed:
            self._keep(seat, move)

    def _keep(self, seat: int, move: Json) -> None:
        """Remember a move in force (for undo), and the position every CHECKPOINT_EVERY."""
        self.in_force.append((seat, move))
        if len(self.in_force) % CHECKPOINT_EVERY == 0:
            self.checkpoints[len(self.in_force)] = self.state.copy()

    def advance_event(self, seat: int | None, payload: Json | str) -> None:
        """`advance` for a logged event's payload as `MoveEvent` holds it: the move, or the
        JSON text a store keeps it as, played by that text (`advance_text`) unless the game
        allows undo (an undo, and the moves it may take back, are kept as moves)."""
        if type(payload) is not str or self.undo_allowed:
            self.advance(seat, decode_move(payload) if type(payload) is str else payload)
            return
        seat = self._seat_of(seat)
        self.state = self.fast.advance_text(self._state_to_advance(), seat, payload)

    def _state_to_advance(self) -> Any:
        """The state to hand the fast path, which returns the one to keep. In place, it must
        be ours alone: copied first if it may be shared (copy on write: see `copy`). The
        public path leaves it untouched and returns a new one."""
        if self.fast.in_place and not self.owns_state:
            self.state = self.state.copy()
            self.owns_state = True
        return self.state

    def _undo(self, seat: int) -> list[Effect]:
        if self.ruleset.is_over(self.state):
            raise GameOver()
        if not self.can_undo(seat):
            raise IllegalMove(
                "there is no move of yours to take back", self.ruleset.legal_moves(self.state, seat)
            )
        taken_seat, taken = self.in_force.pop()
        kept = len(self.in_force)
        self.checkpoints.pop(kept + 1, None)
        base = kept - kept % CHECKPOINT_EVERY
        if base:
            state = self.checkpoints[base].copy()
        else:
            state = self.ruleset.start(self.seed, self.options)
        for s, m in self.in_force[base:]:
            state = self.fast.advance(state, s, m)  # a state no one else holds
        self.state, self.owns_state = state, True
        self.undos += 1
        return [{"type": "undo", "seat": taken_seat, "move": taken}]


def replay(
    ruleset: AnyRuleset,
    seed: str,
    options: Mapping[str, object] | None,
    events: Iterable[tuple[int | None, object]],
) -> Playthrough:
    """Rebuild a game from its seed and its log of (seat, move) events.

    A seat of None means the seat whose turn it is (a solitaire's log need not name it).
    ReplayError names the first event that does not apply, by its index from 0.
    """
    game = Playthrough(ruleset, seed, options)
    for index, (seat, move) in enumerate(events):
        try:
            game.advance(seat, move)
        except IllegalMove as e:
            raise ReplayError(index, move, e.reason, e.legal_moves) from None
        except GameOver as e:
            raise ReplayError(index, move, str(e), []) from None
    return game
