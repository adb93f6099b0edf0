"""Tally, a test-only game for three or four seats: the smallest game with hands, a hidden
stock and turns, written by following docs/architecture.md's checklist and nothing else. Its
number of seats reaches its rules as the `seats` option, which the engine offers and sets.

Twelve cards (2 to 7 of Clubs and Diamonds) are shuffled with label `deal`; each seat from 0
is dealt three cards in turn from the top, and the rest (three, or none for four seats) is
the face-down stock. In
turn from seat 0, a seat plays one card of its hand face up onto its own pile, then draws the
stock's top card if there is one. When every hand is empty the highest pile total wins, a
shared highest total is a draw. A seat that resigns ends the game; the others' totals decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from domain.deal import DealStep
from domain.errors import Json
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionValue
from domain.ruleset import Ruleset
from domain.transition import Effect
from tests.games.tally.contract import CONTRACT

CARDS = tuple(rank + suit for suit in "CD" for rank in "234567")
"""The twelve cards in canonical order (Clubs 2 to 7, then Diamonds)."""
HAND = 3


def value(card: str) -> int:
    return int(card[0])


@dataclass(frozen=True)
class Move:
    """`play` a card of the hand, or `resign`."""

    kind: str
    card: str | None = None
    is_resign: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_resign", self.kind == "resign")

    def to_json(self) -> Json:
        return {"type": "play", "card": self.card} if self.kind == "play" else {"type": "resign"}


RESIGN = Move("resign")

MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape(
        "play",
        {"card": FieldSpec("enum", CARDS, description="A card of your hand.")},
        "Play a card of your hand onto your pile, then draw the stock's top card.",
    ),
    MoveShape("resign", {}, "End the game now: the other seats' totals decide it."),
)


class State:
    """A Tally position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = ("hands", "piles", "resigned", "stock", "turn")

    def __init__(self, deck: list[str], seats: int) -> None:
        self.hands = [[deck[seats * i + seat] for i in range(HAND)] for seat in range(seats)]
        self.stock = deck[HAND * seats :][::-1]  # the top card last
        self.piles: list[list[str]] = [[] for _ in range(seats)]
        self.turn = 0
        self.resigned: int | None = None

    def copy(self) -> State:
        new = State.__new__(State)
        new.hands = [list(hand) for hand in self.hands]
        new.stock = list(self.stock)
        new.piles = [list(pile) for pile in self.piles]
        new.turn, new.resigned = self.turn, self.resigned
        return new

    def totals(self) -> list[int]:
        return [sum(value(card) for card in pile) for pile in self.piles]


class Tally(Ruleset[State, Move]):
    id: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally (a test game)"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 4
    move_shapes = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        return (DealStep("deal", CARDS),)

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        seats = options["seats"]
        assert isinstance(seats, int)
        return State(self.deck(seed, options), seats)

    def _parse_move(self, move: Json) -> Move:
        return Move("play", move["card"]) if move["type"] == "play" else RESIGN

    def _to_move(self, state: State) -> tuple[int, ...]:
        return (state.turn,)

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        plays = sorted(state.hands[seat], key=CARDS.index) if seat == state.turn else []
        return (*(Move("play", card) for card in plays), RESIGN)

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat != state.turn:
            return f"it is seat {state.turn + 1}'s turn"
        return f"{move.card} is not in your hand"

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        if move.is_resign:
            state.resigned = seat
            effects.append({"type": "resigned", "seat": seat})
            return
        assert move.card is not None
        state.hands[seat].remove(move.card)
        state.piles[seat].append(move.card)
        effects.append({"type": "played", "seat": seat, "card": move.card})
        if state.stock:
            state.hands[seat].append(state.stock.pop())
            effects.append({"type": "drew", "seat": seat})
        state.turn = (seat + 1) % len(state.hands)

    def _play_visible(self, state: State, seat: int, move: Move) -> None:
        """Play the card, but draw nothing: the stock's top card is hidden."""
        if move.is_resign:
            state.resigned = seat
        else:
            assert move.card is not None
            state.hands[seat].remove(move.card)
            state.piles[seat].append(move.card)
            state.turn = (seat + 1) % len(state.hands)

    def status(self, state: State) -> str:
        over = state.resigned is not None or not any(state.hands)
        return "finished" if over else "playing"

    def outcome(self, state: State) -> Json | None:
        if not self.is_over(state):
            return None
        totals = state.totals()
        standing = [s for s in range(len(state.hands)) if s != state.resigned]
        best = max(totals[s] for s in standing)
        leaders = [s for s in standing if totals[s] == best]
        return {
            "result": "win" if len(leaders) == 1 else "draw",
            "winner": leaders[0] if len(leaders) == 1 else None,
            "reason": "resign" if state.resigned is not None else "cards_out",
            "score": totals,
        }

    def view(self, state: State, seat: int | None) -> Json:
        return {
            "status": self.status(state),
            "seat": seat,
            "to_move": list(self.to_move(state)),
            "hand": None if seat is None else sorted(state.hands[seat], key=CARDS.index),
            "hand_counts": [len(hand) for hand in state.hands],
            "stock_count": len(state.stock),
            "piles": [list(pile) for pile in state.piles],
            "totals": state.totals(),
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "outcome": self.outcome(state),
        }

    def inventory(self, state: State) -> list[str]:
        return [*(c for hand in state.hands for c in hand), *state.stock,
                *(c for pile in state.piles for c in pile)]  # fmt: skip

    def hidden(self, state: State, seat: int | None) -> set[str]:
        others = (hand for s, hand in enumerate(state.hands) if s != seat)
        return {*state.stock, *(card for hand in others for card in hand)}
