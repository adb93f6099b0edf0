"""The standard 52-card deck and its two Jokers, as immutable values.

Cards are interned: every code maps to exactly one `Card`, so rules code can compare and
look them up cheaply. What a card is *worth* belongs to each game, not to the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RED_SUITS = frozenset("DH")
ROYAL_RANKS = frozenset("JQK")
JOKER_RANK = "X"


@dataclass(frozen=True, slots=True)
class Card:
    """One standard card: `rank` is a character of RANKS (or "X" for a Joker), `suit` of SUITS.

    The derived flags are plain attributes, set once: rules code reads them on every move.
    """

    code: str
    rank: str
    suit: str
    is_joker: bool = field(init=False, repr=False, compare=False)
    is_royal: bool = field(init=False, repr=False, compare=False)
    is_red: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_joker", self.rank == JOKER_RANK)
        object.__setattr__(self, "is_royal", self.rank in ROYAL_RANKS)
        object.__setattr__(self, "is_red", self.suit in RED_SUITS)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


STANDARD_DECK: tuple[Card, ...] = tuple(Card(r + s, r, s) for s in SUITS for r in RANKS)
"""The 52 cards in canonical order: suits C, D, H, S, each Ace to King."""

JOKERS: tuple[Card, ...] = (Card("X1", JOKER_RANK, ""), Card("X2", JOKER_RANK, ""))

_BY_CODE: dict[str, Card] = {c.code: c for c in (*STANDARD_DECK, *JOKERS)}


def card(code: str) -> Card:
    """The card with this code (`QC`, `TD`, `X1`), or ValueError naming the bad code."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card code {code!r}") from None
