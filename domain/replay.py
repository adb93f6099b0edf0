"""A game as its log makes it: the one path every move and every logged event is played by.

Whoever moves a game — the service replaying a stored log (`Court.replay`), a use case playing
a new move (`domain/usecases/appending.py`), the verifier, the replay endpoint, the CLI and
the tests — calls `Playthrough.play`, and every step it takes is read here, in order:

1. whose move: a logged event's seat may be None, the seat whose turn it is;
2. the stored text: a store hands a logged move over as its JSON text, played by that text
   on the fast path, decoded first only where the move is kept or its effects are wanted
   (`domain/moves.py`'s `decode_move`; the fast path remembers the typed move per text);
3. undo: in a game played with the `undo` option, `{"type": "undo"}` takes back the last move
   in force and replays from the nearest kept position (`domain/undo.py` remembers, this
   module replays);
4. the move itself: heard, by `Ruleset.apply` (a new state and its effects), or unheard, by
   the game's fast path (`domain/fast_paths.py`: in place for a game that opts in, on a state
   shared copy on write between branches, `Position`); the same checks either way, and the
   conformance suite holds them to the same positions;
5. for undo, the move now in force is remembered, with a kept position every so often.

`replay` (a log of (seat, move) events) and `Playthrough.replay` (a store's log from any point,
for the replay cache) are that one step in a loop, naming the first event that fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import GameOver, IllegalMove, Json, ReplayError
from domain.fast_paths import Position, PublicPath, fast_paths
from domain.moves import UNDO_MOVE, decode_move
from domain.ruleset import Ruleset
from domain.transition import Effect
from domain.undo import Undo

AnyRuleset = Ruleset[Any, Any]


class Playthrough:
    """The position a log reached, and for a game played with undo, its undo history.

    Mutable, moved forward by `play` only; `copy()` when a caller needs to branch.
    """

    __slots__ = ("fast", "options", "position", "ruleset", "seed", "undo")

    def __init__(self, ruleset: AnyRuleset, seed: str, options: Mapping[str, object] | None):
        self.ruleset = ruleset
        self.seed = seed
        self.options = ruleset.validate_options(options)
        state = ruleset.start(seed, self.options)
        self.fast: PublicPath[Any, Any] = fast_paths(ruleset)
        self.position: Position[Any] = Position(self.fast, state)  # `start` deals it fresh
        self.undo = Undo() if self.options.get("undo") else None

    @property
    def state(self) -> Any:
        """The position now: read it, never mutate it (it may be shared with a branch)."""
        return self.position.state

    def copy(self) -> Playthrough:
        """A branch: the state shared until either side moves, the undo history its own."""
        new = Playthrough.__new__(Playthrough)
        new.ruleset, new.seed, new.options, new.fast = (
            self.ruleset,
            self.seed,
            self.options,
            self.fast,
        )
        new.position = self.position.branch()
        new.undo = None if self.undo is None else self.undo.copy()
        return new

    # ---- reading -----------------------------------------------------------------------------

    def can_undo(self, seat: int) -> bool:
        """Only a move of this seat's own can be taken back, and only while playing."""
        return (
            self.undo is not None
            and self.undo.last_seat() == seat
            and not self.ruleset.is_over(self.state)
        )

    def legal_moves(self, seat: int) -> list[Json]:
        legal = self.ruleset.legal_moves(self.state, seat)
        return [*legal, dict(UNDO_MOVE)] if self.can_undo(seat) else legal

    def view(self, seat: int | None) -> Json:
        """The ruleset's view, with `undo` among the legal moves and the undo count when
        the game allows undo."""
        view = self.ruleset.view(self.state, seat)
        if self.undo is not None:
            if seat is not None and self.can_undo(seat):
                view["legal_moves"] = [*view["legal_moves"], dict(UNDO_MOVE)]
            view["undos"] = self.undo.count
        return view

    # ---- the one way of moving ---------------------------------------------------------------

    def play(
        self, seat: int | None, move: object, *, heard: bool = True, text: bool = False
    ) -> list[Effect]:
        """Play one move or logged event: its effects if `heard`, else none (the fast path).

        `text`: `move` is the JSON text a store keeps a logged move as (only a store's own
        log is read so: a move sent as a string is no move). IllegalMove (listing the legal
        moves) or GameOver leaves the playthrough as it was.
        """
        if seat is None:  # 1. a logged event need not name the seat whose turn it is
            seats = self.ruleset.to_move(self.state)
            seat = seats[0] if seats else 0
        undo = self.undo
        if text and (heard or undo is not None):  # 2. kept, or applied, as an object
            assert type(move) is str
            move, text = decode_move(move), False
        if undo is not None and move == UNDO_MOVE:  # 3. take back the last move in force
            return self._take_back(undo, seat)
        try:  # 4. the move, by the public path or the fast path
            if heard:
                transition = self.ruleset.apply(self.state, seat, move)
                self.position.replace(transition.state)
                effects = transition.effects
            else:
                self.position.advance(seat, move, text)
                effects = []
        except IllegalMove as e:
            if self.can_undo(seat):
                e.legal_moves = [*e.legal_moves, dict(UNDO_MOVE)]
            raise
        if undo is not None:  # 5. in force now: remembered for undo
            assert isinstance(move, dict)  # the rules accepted it, so it is a move object
            undo.keep(seat, move, self.state)
        return effects

    def _take_back(self, undo: Undo, seat: int) -> list[Effect]:
        """The position of the moves in force but the last: replayed, unheard, from the
        nearest position kept (or the deal), on a state no one else holds."""
        if self.ruleset.is_over(self.state):
            raise GameOver()
        if not self.can_undo(seat):
            raise IllegalMove(
                "there is no move of yours to take back", self.ruleset.legal_moves(self.state, seat)
            )
        state, in_force, (taken_seat, taken) = undo.take_back()
        if state is None:
            state = self.ruleset.start(self.seed, self.options)
        for s, m in in_force:
            state = self.fast.advance(state, s, m)
        self.position.replace(state)
        return [{"type": "undo", "seat": taken_seat, "move": taken}]

    def replay(
        self, events: Iterable[tuple[int | None, object]], first: int = 0, texts: bool = False
    ) -> Playthrough:
        """Play a log's events unheard, the first of them being event `first` (from 0);
        `texts`: a store's own log, whose moves may still be JSON text. ReplayError names the
        first event that does not apply, by its index."""
        for index, (seat, move) in enumerate(events, first):
            text = texts and type(move) is str
            try:
                self.play(seat, move, heard=False, text=text)
            except (IllegalMove, GameOver) as e:
                logged = decode_move(move) if text and isinstance(move, str) else move
                legal = e.legal_moves if isinstance(e, IllegalMove) else []
                raise ReplayError(index, logged, str(e), legal) from None
        return self


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
    return Playthrough(ruleset, seed, options).replay(events)
