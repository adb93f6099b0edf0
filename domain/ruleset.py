"""The interface every game implements, modelled on OpenSpiel's game API and python-chess.

A ruleset is pure: `start` deals a state from a seed, `legal_moves` lists what a seat may do,
`apply` returns a *new* state plus the effects the move set off, `view` shows one seat what it
may see. Moves cross this boundary as small JSON objects (`{"type": ...}`) so that the same
values are stored in logs, sent over HTTP and typed at the CLI.

Forced moves live here, once for all games: whenever a seat's only legal move besides `resign`
is a single move, the engine plays it, so move logs hold nothing but real choices.

The values a move's play is made of (states, typed moves, effects, `Transition`) are
domain/transition.py's; a deal's published steps (`DealStep`) are domain/deal.py's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import ClassVar, Generic

from domain.contracts import common_result
from domain.deal import DealStep, check_seed, shuffled
from domain.errors import GameOver, IllegalMove, Json
from domain.gestures import Gestures, gestures_json
from domain.moves import PARSED_LIMIT, UNDO_SHAPE, MoveShape, check_move, move_key
from domain.options import (
    UNDO_OPTION,
    OptionSpec,
    OptionValue,
    seats_option,
    validate_options,
)
from domain.presentation import Words
from domain.transition import UNHEARD, Effect, M, S, Transition


class Ruleset(ABC, Generic[S, M]):
    """One game. Subclasses supply the rules through the `_`-prefixed hooks below."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 1
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    move_shapes: ClassVar[tuple[MoveShape, ...]]
    """Every kind of move, declared as data: checked before any rule sees a move."""
    view_schema: ClassVar[Json]
    """The JSON Schema of every `view`: the envelope of `domain/contracts.py` and the game's
    board, declared in its `contract.py`; what clients may rely on, and what the conformance
    suite holds every view of random games to."""
    effect_schemas: ClassVar[Mapping[str, Json]]
    """The JSON Schema of each effect `apply` may return, by its `type` (`forced` included)."""
    outcome_schema: ClassVar[Json]
    """The JSON Schema of `outcome` once the game is over."""
    board: ClassVar[str] = "generic"
    """How a client lays out this game's view: a layout's name (docs/web-client.md), so that
    clients draw boards by kind without knowing any game; `generic` shows the view as it is."""
    gestures: ClassVar[Gestures] = {}
    """How each kind of move is made on that board (domain/gestures.py), declared per game in
    its `board.py`: a move without one is offered beside the board."""
    words: ClassVar[Words] = Words()
    """What a client says of this game's moves, effects, view and outcome, in the game's own
    words (domain/presentation.py), declared per game in its `words.py`; by default generic."""
    in_place: ClassVar[type | None] = None
    """The opt-in fast paths (domain/fast_paths.py: replay, rating and simulation playing one
    private state in place): `InPlace`, or a subclass fusing a loop for this game, once its
    `_play` touches nothing but the state it is given and `State.copy()` shares nothing
    mutable; the conformance suite holds them to `apply`. None: the public path is used.
    (Typed loosely: that module builds on this one.)"""

    # ---- public API -------------------------------------------------------------------------

    def describe(self) -> Json:
        """What a client needs to offer this game: id, title, seats, options, and whether a
        client may choose the deal."""
        return {
            "id": self.id,
            "title": self.title,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": [spec.to_json() for spec in self.options_offered],
            "chosen_deals": self.deals_may_be_chosen,
            "board": self.board,
            "gestures": gestures_json(self.gestures),
            "words": self.words.to_json(),
        }

    @property
    def deals_may_be_chosen(self) -> bool:
        """Whether a client may choose the deal (a `seed`, or `from_game`): only where the
        seed tells no seat what another may not see. In a game of several seats the seed
        gives every hand, so there it is always the server's secret, revealed at the end."""
        return self.max_seats == 1

    @property
    def options_offered(self) -> tuple[OptionSpec, ...]:
        """The game's own options; `undo` for a solitaire (played by Playthrough); `seats` for a
        game whose number of seats may vary (set from the create request's seats)."""
        if self.max_seats == 1:
            return (*self.option_specs, UNDO_OPTION)
        if self.min_seats < self.max_seats:
            return (*self.option_specs, seats_option(self.min_seats, self.max_seats))
        return self.option_specs

    def seat_count(self, options: Mapping[str, object] | None = None) -> int:
        """How many seats play a game dealt with `options`: the `seats` option where the
        number may vary, else the game's one number."""
        if self.min_seats == self.max_seats:
            return self.min_seats
        count = self.validate_options(options)["seats"]
        assert isinstance(count, int)
        return count

    @property
    def moves_offered(self) -> tuple[MoveShape, ...]:
        """The game's own moves, and `undo` for a solitaire: what a client may send."""
        return (*self.move_shapes, UNDO_SHAPE) if self.max_seats == 1 else self.move_shapes

    def validate_options(self, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """All options with defaults filled in; InvalidOptions names every bad one."""
        return validate_options(self.options_offered, options)

    def start(self, seed: str, options: Mapping[str, object] | None = None) -> S:
        """The position from which the first real choice is made (forced moves already played).

        The state is freshly dealt, so the forced moves are played on it in place, unheard.
        """
        state = self._initial(check_seed(seed), self._own(options))
        self._play_forced(state, UNHEARD)
        return state

    def deal_plan(self, options: Mapping[str, object] | None = None) -> tuple[DealStep, ...]:
        """What the deal shuffles, step by step, each step's cards in canonical order: the
        public half of the deal, which with the seed gives the deck (`deck`)."""
        return self._deal_plan(self._own(options))

    def deck(self, seed: str, options: Mapping[str, object] | None = None) -> list[str]:
        """The shuffled deck for this seed, top first: what `court deal` prints, and exactly
        the order every game deals in (each game's own typed deal is checked against it)."""
        seed = check_seed(seed)
        return [
            code
            for step in self.deal_plan(options)
            for code in shuffled(seed, step.label, step.cards)
        ]

    def _own(self, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """Validated options, less those played around the rules (undo): what the rules see,
        `seats` included where the number of seats may vary."""
        full = self.validate_options(options)
        return {name: value for name, value in full.items() if name != UNDO_OPTION.name}

    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats that may move now (none once the game is over)."""
        return () if self.is_over(state) else self._to_move(state)

    def legal_moves(self, state: S, seat: int) -> list[Json]:
        """Every move `seat` may make now, `resign` included, in a stable order."""
        if self.is_over(state):
            return []
        return [m.to_json() for m in self._legal(state, seat)]

    def apply(self, state: S, seat: int, move: object) -> Transition[S]:
        """Play `move` for `seat`, then every forced move after it; `state` is left untouched."""
        typed = self._checked(state, seat, move)
        new_state = state.copy()
        effects: list[Effect] = []
        self._play(new_state, seat, typed, effects)
        self._play_forced(new_state, effects)
        return Transition(new_state, effects)

    def _checked(self, state: S, seat: int, move: object) -> M:
        """The typed move, if `seat` may play it now; GameOver or IllegalMove if not."""
        if self.is_over(state):
            raise GameOver()
        return self._legal_or_raise(state, seat, self.parse_move(state, seat, move))

    def _legal_or_raise(self, state: S, seat: int, typed: M) -> M:
        if not self._is_legal(state, seat, typed):
            legal = self._legal(state, seat)
            raise IllegalMove(self._why_illegal(state, seat, typed), [m.to_json() for m in legal])
        return typed

    def preview(self, state: S, seat: int, move: object) -> S:
        """The state right after `move` alone, before any forced move reveals more cards.

        Only the part of the move that reveals no hidden card is played, so bots judging
        moves on this can never peek at the stock.
        """
        typed = self.parse_move(state, seat, move)
        if typed not in self._legal(state, seat):
            raise IllegalMove(self._why_illegal(state, seat, typed))
        new_state = state.copy()
        self._play_visible(new_state, seat, typed)
        return new_state

    def parse_move(self, state: S, seat: int, move: object) -> M:
        """The typed move, once `move` is known to be of a declared shape.

        Any JSON value at all may arrive here (from HTTP, a log file, a terminal): one that is
        not a move of this game is an IllegalMove listing what `seat` may do instead.
        """
        key = move_key(move) if type(move) is dict else None
        if key is not None:
            typed = self._parsed.get(key)
            if typed is not None:
                return typed
        problem = check_move(self.move_shapes, move)
        if problem is not None or not isinstance(move, dict):
            raise IllegalMove(problem or "not a move", self.legal_moves(state, seat))
        typed = self._parse_move(move)
        if key is not None and len(self._parsed) < PARSED_LIMIT:
            self._parsed[key] = typed  # moves are immutable values: safe to share
        return typed

    @cached_property
    def _parsed(self) -> dict[tuple[object, ...], M]:
        """Moves already checked and parsed, by `_move_key`: a log replays the same few
        moves over and over, and a shape check costs more than the move it checks."""
        return {}

    @abstractmethod
    def status(self, state: S) -> str:
        """`playing`, or how the game ended (`won`, `lost`, ...)."""

    def is_over(self, state: S) -> bool:
        return self.status(state) != "playing"

    @abstractmethod
    def outcome(self, state: S) -> Json | None:
        """None while playing, else at least `{result, score}`."""

    def result(self, state: S, seats: int) -> Json | None:
        """How a finished game of `seats` seats ended, in the one vocabulary every game shares
        (None while playing): `by_seat`, each seat's `won`, `lost` or `drew`; `reason`, why it
        ended in the game's own word (or null); `scores`, each seat's score where the game
        counts one (else null). `outcome` stays each game's own, worded as its rules and specs
        word it; `result` is what a client that knows no game reads (docs/api.md, "Results")."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        by_seat, reason, scores = self._result(state, outcome, seats)
        return {
            "by_seat": list(by_seat),
            "reason": reason,
            "scores": None if scores is None else list(scores),
        }

    def _result(
        self, state: S, outcome: Json, seats: int
    ) -> tuple[Sequence[str], str | None, Sequence[int] | None]:
        """`result` read from the outcome, for a game whose outcome says it the common way
        (`domain.contracts.common_result`). A game whose outcome says it otherwise overrides
        this (the conformance suite checks every game's)."""
        return common_result(outcome, seats, solitaire=self.max_seats == 1)

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Json:
        """Everything `seat` may see and nothing else; `None` is a spectator."""

    @abstractmethod
    def inventory(self, state: S) -> list[str]:
        """Every card (or die) the game holds, wherever it lies: what conservation counts."""

    @abstractmethod
    def hidden(self, state: S, seat: int | None) -> set[str]:
        """The cards `seat` cannot see now (the stock, say): what no view may show it."""

    def public_log(
        self, state: S, events: Sequence[tuple[int, Json]], viewer: int | None
    ) -> list[Json]:
        """Each logged (seat, move) as `viewer` (None: a spectator) may see it, given the
        game's `state` now: the filter every log, record, replay step and error body leaving
        the service goes through. A game whose moves carry hidden cards overrides this; by
        default every move is public."""
        return [move for _, move in events]

    # ---- hooks each game implements ---------------------------------------------------------

    @abstractmethod
    def _initial(self, seed: str, options: dict[str, OptionValue]) -> S: ...

    @abstractmethod
    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        """The shuffles of the deal (none for a game in which nothing is dealt)."""

    @abstractmethod
    def _parse_move(self, move: Json) -> M:
        """The typed move for a JSON move already checked against `move_shapes`."""

    def _to_move(self, state: S) -> tuple[int, ...]:
        """Whose turn it is; a solitaire is always seat 0's."""
        return (0,)

    @abstractmethod
    def _legal(self, state: S, seat: int) -> tuple[M, ...]: ...

    @abstractmethod
    def _why_illegal(self, state: S, seat: int, move: M) -> str: ...

    def _is_legal(self, state: S, seat: int, move: M) -> bool:
        """Whether `move` is among `_legal`: a game with long move lists checks directly."""
        return move in self._legal(state, seat)

    def _forced(self, state: S, seat: int) -> M | None:
        """The move `seat` is forced to make now (its only one besides resign), if any; a
        game that can prove no position of it is ever forced may answer None at once."""
        return _only_real_move(self._legal(state, seat))

    def _play_visible(self, state: S, seat: int, move: M) -> None:
        """Play as much of `move` as reveals no hidden card (what `preview` shows a bot).

        By default the whole move; a game whose moves turn up cards stops before they do.
        """
        self._play(state, seat, move, [])

    @abstractmethod
    def _play(self, state: S, seat: int, move: M, effects: list[Effect]) -> None:
        """Mutate `state` (a private copy) by one legal move, settling everything it causes."""

    # ---- the forced-move rule ---------------------------------------------------------------

    def _play_forced(self, state: S, effects: list[Effect]) -> None:
        while not self.is_over(state):
            for seat in self._to_move(state):
                forced = self._forced(state, seat)
                if forced is not None:
                    if effects is not UNHEARD:
                        effects.append({"type": "forced", "seat": seat, "move": forced.to_json()})
                    self._play(state, seat, forced, effects)
                    break
            else:
                return


def _only_real_move(legal: tuple[M, ...]) -> M | None:
    """The single legal move besides `resign`, if there is exactly one (resign is listed once).

    Counting by length first keeps this cheap: it runs after every move of every game.
    """
    if len(legal) == 1:
        return None if legal[0].is_resign else legal[0]
    if len(legal) == 2:
        first, second = legal
        if second.is_resign:
            return first
        if first.is_resign:
            return second
    return None
