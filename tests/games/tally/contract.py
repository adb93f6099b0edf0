"""Tally's view, effects and outcome, declared (domain/contracts.py): the checklist's step for
a new game, followed by the test game like any other."""

from __future__ import annotations

from domain.contracts import COUNT, SEAT, Contract, array, closed, effect, enum, nullable
from domain.contracts import seated_board as seated
from domain.errors import Json

FEWEST, MOST = 3, 4  # seats: as many as the game was created with (its `seats` option)
A_SEAT = SEAT | {"maximum": MOST - 1}
CARD: Json = {"type": "string", "pattern": "^[2-7][CD]$"}
CARDS = array(CARD)


def by_seat(items: Json) -> Json:
    """One entry per seat of the game."""
    return array(items) | {"minItems": FEWEST, "maxItems": MOST}


BY_SEAT = by_seat(COUNT)

DEFS: dict[str, Json] = {
    "Outcome": closed(
        "Tally outcome",
        {
            "result": enum(("win", "draw")),
            "winner": nullable(A_SEAT),
            "reason": enum(("resign", "cards_out")),
            "score": BY_SEAT | {"description": "Each seat's pile total."},
        },
    ),
}

BOARD: dict[str, Json] = {
    **seated(MOST),
    "hand": nullable(CARDS) | {"description": "The viewer's own hand; null for a spectator."},
    "hand_counts": BY_SEAT,
    "stock_count": COUNT,
    "piles": by_seat(CARDS),
    "totals": BY_SEAT,
}

EFFECTS: dict[str, Json] = {
    "played": effect("played", "Played", {"seat": A_SEAT, "card": CARD}),
    "drew": effect("drew", "Drew", {"seat": A_SEAT}),
    "resigned": effect("resigned", "Resigned", {"seat": A_SEAT}),
}

CONTRACT = Contract("Tally", ("playing", "finished"), BOARD, EFFECTS, DEFS, solitaire=False)
