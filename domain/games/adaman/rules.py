"""Adaman, a Decktet solitaire by P. D. Magnus, as this project plays it.

The rules, with every ambiguity of the seed text and its resolution, are in
docs/rules/adaman.md. Card data is the table in domain/games/adaman/decktet.py. Stocks keep
their top card at the end of the list so that dealing is a cheap `pop()`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import ClassVar, NamedTuple

from domain.deal import DealStep, shuffled
from domain.errors import Json
from domain.fast_paths import InPlace
from domain.games.adaman.board import GESTURES
from domain.games.adaman.contract import CONTRACT
from domain.games.adaman.decktet import (
    BASIC,
    BY_CODE,
    EXCUSE,
    EXTRA_PERSONALITIES,
    PAWNS_AND_COURTS,
    DecktetCard,
)
from domain.games.adaman.words import WORDS
from domain.gestures import Gestures
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionSpec, OptionValue
from domain.presentation import Words
from domain.ruleset import Ruleset
from domain.transition import UNHEARD, Effect

ROW_SIZE = 5
PALACE_LIMIT = 6  # a sixth card in the palace ends the game: lost utterly
CAPITAL, RESOURCES, PALACE = "capital", "resources", "palace"


@dataclass(frozen=True, slots=True)
class Options:
    pawns_and_courts: bool = False
    extra_personalities: int = 0
    excuse: bool = False


class Move(NamedTuple):
    """`control` (target, paid with cards), `excuse` (target = the card moved, or None when
    none can move) or `resign`. Card lists are kept in canonical order.

    A named tuple rather than the frozen dataclass other games use: a position lists dozens
    of ways to pay, and a tuple is built (and compared, and hashed) in C at a fifth the cost.
    """

    kind: str
    target: str | None = None
    paid: tuple[str, ...] = ()

    @property
    def is_resign(self) -> bool:
        return self.kind == "resign"

    def to_json(self) -> Json:
        if self.kind == "control":
            return {"type": "control", "target": self.target, "with": list(self.paid)}
        if self.kind == "excuse":
            return {"type": "excuse", "card": self.target}
        return {"type": "resign"}


RESIGN = Move("resign")

_CODES = tuple(BY_CODE)
MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape(
        "control",
        {
            "target": FieldSpec("enum", _CODES, description="The card to control."),
            "with": FieldSpec(
                "string_list", _CODES, description="The resources paid, each named once."
            ),
        },
        "Pay resources sharing a suit with the target, ranks adding up to at least its rank.",
    ),
    MoveShape(
        "excuse",
        {"card": FieldSpec("enum", _CODES, nullable=True, description="The card moved, or null.")},
        "Play the waiting Excuse: swap a card between the capital and the resources.",
    ),
    MoveShape("resign", description="Give up: the game is lost."),
)


def deck_for(options: Options) -> list[DecktetCard]:
    """The cards in use, in canonical order (the list the deal algorithm shuffles)."""
    cards = list(BASIC)
    if options.pawns_and_courts:
        cards += PAWNS_AND_COURTS
    else:
        cards += EXTRA_PERSONALITIES[: options.extra_personalities]
    if options.excuse:
        cards.append(EXCUSE)
    return sorted(cards, key=lambda c: c.index)


class State:
    """An Adaman position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = (
        "capital",
        "controlled",
        "discard",
        "excuse_row",
        "legal_cache",
        "options",
        "palace",
        "personalities",
        "resources",
        "status",
        "stock",
    )

    def __init__(self, options: Options, stock: list[DecktetCard], personalities: int) -> None:
        self.options = options
        self.stock = stock  # top card last
        self.capital: list[DecktetCard] = []
        self.palace: list[DecktetCard] = []
        self.resources: list[DecktetCard] = []
        self.controlled: list[DecktetCard] = []
        self.discard: list[DecktetCard] = []
        self.excuse_row: str | None = None  # where the Excuse waits to be played
        self.status = "playing"
        self.personalities = personalities  # how many the deck in use holds
        self.legal_cache: tuple[Move, ...] | None = None

    def copy(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.stock = self.stock[:]
        new.capital = self.capital[:]
        new.palace = self.palace[:]
        new.resources = self.resources[:]
        new.controlled = self.controlled[:]
        new.discard = self.discard[:]
        new.excuse_row = self.excuse_row
        new.status = self.status
        new.personalities = self.personalities
        new.legal_cache = self.legal_cache
        return new

    def all_cards(self) -> list[DecktetCard]:
        return [
            *self.stock,
            *self.capital,
            *self.palace,
            *self.resources,
            *self.controlled,
            *self.discard,
        ]


def _by_index(card: DecktetCard) -> int:
    return card.index


_GROUPS: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}
"""Per number of cards n: every non-empty group of indices, by size and then in
`combinations` order (the order legal moves are listed in), with its bitmask."""


def _groups(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    groups = _GROUPS.get(n)
    if groups is None:
        groups = _GROUPS[n] = tuple(
            (group, sum(1 << i for i in group))
            for size in range(1, n + 1)
            for group in combinations(range(n), size)
        )
    return groups


@lru_cache(maxsize=32_768)
def _payments(target: DecktetCard, eligible: tuple[DecktetCard, ...]) -> tuple[Move, ...]:
    """Every way to control `target` with some of `eligible` (the resources sharing a suit
    with it, in canonical order): groups by size, then in `combinations` order.

    Pure in its arguments (cards are interned), so it is memoised: the same few resources
    face the same targets again and again, in a game and across the games of a search.
    """
    rank = target.rank
    ranks = [r.rank for r in eligible]
    if sum(ranks) < rank:
        return ()
    sums = [0] * (1 << len(ranks))  # the rank total of every group, by its bitmask
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + ranks[low.bit_length() - 1]
    codes = [r.code for r in eligible]
    return tuple(
        Move("control", target.code, tuple(codes[i] for i in group))
        for group, mask in _groups(len(ranks))
        if sums[mask] >= rank
    )


def _targets(
    state: State, resources: list[DecktetCard]
) -> Iterator[tuple[DecktetCard, tuple[DecktetCard, ...]]]:
    """Each card that may be controlled (the capital's, then the palace's) with the resources
    sharing a suit with it, in the order of `resources`; a card no resource shares a suit with
    is left out. What a payment may use: `_legal` lists the payments, `_can_move` asks only
    whether one exists."""
    for target in (*real_cards(state.capital), *state.palace):
        mask = target.suit_mask
        eligible = tuple(r for r in resources if r.suit_mask & mask)
        if eligible:
            yield target, eligible


def _real_count(row: list[DecktetCard]) -> int:
    """How many cards of a row count (the Excuse lying there does not)."""
    return len(row) - (EXCUSE in row)


def real_cards(row: list[DecktetCard]) -> list[DecktetCard]:
    """The cards of a row that count: the Excuse lying there does not."""
    return [c for c in row if c is not EXCUSE]


class Adaman(Ruleset[State, Move]):
    id: ClassVar[str] = "adaman"
    title: ClassVar[str] = "Adaman (Decktet solitaire)"
    board: ClassVar[str] = "capital"
    gestures: ClassVar[Gestures] = GESTURES
    in_place = InPlace
    words: ClassVar[Words] = WORDS
    move_shapes: ClassVar[tuple[MoveShape, ...]] = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "pawns_and_courts",
            "boolean",
            False,
            "Add all eight Pawns and Courts (three of them personalities).",
        ),
        OptionSpec(
            "extra_personalities",
            "integer",
            0,
            "Add this many extra personalities, in order the Watchman, the Light Keeper and "
            "the Consul (0 to 3). Has no effect when the Pawns and Courts are added.",
            minimum=0,
            maximum=3,
        ),
        OptionSpec(
            "excuse",
            "boolean",
            False,
            "Add the Excuse, which swaps a card between the capital and the resources.",
        ),
    )

    # ---- dealing -------------------------------------------------------------------------------

    def deal_cards(self, seed: str, options: Mapping[str, object] | None) -> list[DecktetCard]:
        """The shuffled deck in use (top first)."""
        return shuffled(seed, "deal", deck_for(Options(**self._own(options))))  # type: ignore[arg-type]

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        return (DealStep("deal", tuple(c.code for c in deck_for(Options(**options)))),)  # type: ignore[arg-type]

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        return self.set_up(self.deal_cards(seed, options), Options(**options))  # type: ignore[arg-type]

    def set_up(self, deck: list[DecktetCard], options: Options) -> State:
        """Deal from `deck` (top first). Public so that tests can stack a deck."""
        personalities = sum(1 for c in deck if c.is_personality)
        state = State(options, deck[::-1], personalities)
        self._refill(state, UNHEARD)
        self._settle(state, UNHEARD)
        return state

    def _refill(self, state: State, effects: list[Effect]) -> None:
        """Capital to five cards, then resources to five, personalities going to the palace.

        The Excuse, wherever it is dealt, does not count, and dealing goes on past it.
        """
        stock = state.stock
        while stock and _real_count(state.capital) < ROW_SIZE:
            card = stock.pop()
            state.capital.append(card)
            if card is EXCUSE:
                state.excuse_row = CAPITAL
            if effects is not UNHEARD:
                effects.append({"type": "deal", "card": card.code, "to": CAPITAL})
        while stock and _real_count(state.resources) < ROW_SIZE:
            card = stock.pop()
            if card.is_personality:
                state.palace.append(card)
                effects.append({"type": "deal", "card": card.code, "to": PALACE})
                if len(state.palace) >= PALACE_LIMIT:
                    state.status = "lost_utterly"
                    effects.append({"type": "end", "result": "lost_utterly"})
                    return
                continue
            state.resources.append(card)
            if card is EXCUSE:
                state.excuse_row = RESOURCES
            if effects is not UNHEARD:
                effects.append({"type": "deal", "card": card.code, "to": RESOURCES})

    def _settle(self, state: State, effects: list[Effect]) -> None:
        if state.status != "playing":
            return
        if len(state.controlled) == state.personalities:
            state.status = "won"
        elif not self._can_move(state):  # nothing but resign
            state.status = "lost"
        else:
            return
        state.legal_cache = None
        effects.append({"type": "end", "result": state.status})

    # ---- moves ---------------------------------------------------------------------------------

    def _parse_move(self, move: Json) -> Move:
        kind = move["type"]
        if kind == "resign":
            return RESIGN
        if kind == "excuse":
            return Move("excuse", move["card"])
        ordered = tuple(sorted(move["with"], key=lambda code: BY_CODE[code].index))
        return Move("control", move["target"], ordered)

    def _can_move(self, state: State) -> bool:
        """Whether any move but resign is legal: an Excuse waiting to be played (it may always
        move, if only to no card), or a target whose suits' resources together reach its rank.
        Every move settles on this, so it asks no more than that: the moves themselves are
        listed only when asked for (most positions of a search are never expanded)."""
        if state.excuse_row is not None:
            return True
        # What `_targets` yields, summed as it goes: the search's hottest question (a plain
        # search of a small deck asks it millions of times), so no tuple is built and the
        # first target the resources reach ends it.
        resources = [(r.suit_mask, r.rank) for r in state.resources if r is not EXCUSE]
        for row in (state.capital, state.palace):
            for target in row:
                if target is EXCUSE:
                    continue
                mask, total = target.suit_mask, 0
                for suits, rank in resources:
                    if suits & mask:
                        total += rank
                        if total >= target.rank:
                            return True
        return False

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        if seat != 0 or state.status != "playing":
            return ()
        if state.legal_cache is not None:
            return state.legal_cache
        moves: list[Move] = []
        if state.excuse_row is not None:
            if state.excuse_row == CAPITAL:
                movable = real_cards(state.resources)
            else:
                movable = [c for c in real_cards(state.capital) if not c.is_personality]
            moves = [Move("excuse", c.code) for c in movable] or [Move("excuse", None)]
        else:
            resources = sorted(real_cards(state.resources), key=_by_index)
            for target, eligible in _targets(state, resources):
                moves += _payments(target, eligible)
        moves.append(RESIGN)
        state.legal_cache = legal = tuple(moves)
        return legal

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat != 0:
            return "Adaman has one seat, seat 0"
        if move.kind == "excuse":
            if state.excuse_row is None:
                return "the Excuse is not waiting to be played"
            return f"that card cannot move with the Excuse from the {state.excuse_row} row"
        if move.kind == "control":
            if state.excuse_row is not None:
                return "the Excuse must be played first"
            target = BY_CODE[move.target or ""]
            if target not in real_cards(state.capital) and target not in state.palace:
                return f"{target.code} is not in the capital or the palace"
            missing = [c for c in move.paid if BY_CODE[c] not in real_cards(state.resources)]
            if missing:
                return f"not among the resources: {', '.join(missing)}"
            strangers = [c for c in move.paid if not BY_CODE[c].suit_mask & target.suit_mask]
            if strangers:
                return f"{', '.join(strangers)} share no suit with {target.code}"
            total = sum(BY_CODE[c].rank for c in move.paid)
            return f"ranks {total} fall short of {target.code}'s rank {target.rank}"
        return "that move is not legal now"

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        self._play_visible(state, seat, move, effects)
        if move.kind == "control":
            self._refill(state, effects)
        self._settle(state, effects)

    def _play_visible(
        self, state: State, seat: int, move: Move, effects: list[Effect] | None = None
    ) -> None:
        """The move itself, without the refill that turns up new cards."""
        effects = UNHEARD if effects is None else effects
        state.legal_cache = None
        if move.kind == "resign":
            state.status = "lost"
            effects.append({"type": "resign"})
            effects.append({"type": "end", "result": "lost"})
        elif move.kind == "excuse":
            row = state.excuse_row
            if move.target is not None:
                card = BY_CODE[move.target]
                source, dest = (
                    (state.resources, state.capital)
                    if row == CAPITAL
                    else (state.capital, state.resources)
                )
                source.remove(card)
                dest.append(card)
            (state.capital if row == CAPITAL else state.resources).remove(EXCUSE)
            state.discard.append(EXCUSE)
            state.excuse_row = None
            effects.append({"type": "excuse", "card": move.target, "to": row})
        else:
            target = BY_CODE[move.target or ""]
            for code in move.paid:
                paid = BY_CODE[code]
                state.resources.remove(paid)
                state.discard.append(paid)
            (state.palace if target in state.palace else state.capital).remove(target)
            if target.is_personality:
                state.controlled.append(target)
                destination = "controlled"
            else:
                state.resources.append(target)
                destination = RESOURCES
            if effects is not UNHEARD:  # (a replay or a search hears none: none is built)
                effects.append(
                    {
                        "type": "control",
                        "target": target.code,
                        "with": list(move.paid),
                        "to": destination,
                    }
                )

    # ---- reading a position --------------------------------------------------------------------

    def status(self, state: State) -> str:
        return state.status

    def is_over(self, state: State) -> bool:
        return state.status != "playing"

    def _result(
        self, state: State, outcome: Json, seats: int
    ) -> tuple[Sequence[str], str | None, Sequence[int] | None]:
        """Lost "utterly" (nothing controlled) is a loss whose reason says so."""
        by_seat, _, scores = super()._result(state, outcome, seats)
        return by_seat, "utterly" if outcome["result"] == "lost_utterly" else None, scores

    def outcome(self, state: State) -> Json | None:
        if state.status == "playing":
            return None
        controlled = sum(c.rank for c in state.controlled)
        if state.status == "won":
            score = controlled + sum(c.rank for c in real_cards(state.resources))
        elif state.status == "lost":
            score = controlled
        else:
            score = 0
        return {"result": state.status, "score": score}

    def view(self, state: State, seat: int | None) -> Json:
        return {
            "status": state.status,
            "capital": [c.code for c in state.capital],
            "palace": [c.code for c in state.palace],
            "resources": [c.code for c in state.resources],
            "controlled": [c.code for c in state.controlled],
            "excuse": state.excuse_row,
            "personalities_left": state.personalities - len(state.controlled),
            "stock_count": len(state.stock),
            "discard": [c.code for c in state.discard],  # all seen face up: no secret
            "discard_count": len(state.discard),
            "legal_moves": self.legal_moves(state, seat) if seat == 0 else [],
            "outcome": self.outcome(state),
        }

    def inventory(self, state: State) -> list[str]:
        return [c.code for c in state.all_cards()]

    def hidden(self, state: State, seat: int | None) -> set[str]:
        return {c.code for c in state.stock}  # face down, and its order secret
