"""Adaman's view, effects and outcome, declared (see domain/contracts.py).

What `Adaman.view`, `outcome` and the effects `_play` appends look like, for clients and for
the conformance suite, which holds every one of random games to this.
"""

from __future__ import annotations

from domain.contracts import COUNT, Contract, array, closed, effect, enum, nullable
from domain.errors import Json
from domain.games.adaman.decktet import BY_CODE

STATUSES = ("playing", "won", "lost", "lost_utterly")
CARD = enum(BY_CODE) | {"description": "A Decktet card, by its code (its name)."}
CARDS = array(CARD)
ROW = enum(("capital", "resources"))

DEFS: dict[str, Json] = {
    "Outcome": closed(
        "Adaman outcome",
        {"result": enum(STATUSES[1:]), "score": COUNT},
    ),
}

BOARD: dict[str, Json] = {
    "capital": CARDS,
    "palace": CARDS,
    "resources": CARDS,
    "controlled": CARDS,
    "excuse": nullable(ROW) | {"description": "The row where the Excuse waits, if it does."},
    "personalities_left": COUNT,
    "stock_count": COUNT,
    "discard": CARDS,
    "discard_count": COUNT,
}

EFFECTS: dict[str, Json] = {
    "deal": effect("deal", "Deal", {"card": CARD, "to": enum(("capital", "resources", "palace"))}),
    "control": effect(
        "control",
        "Control",
        {"target": CARD, "with": CARDS, "to": enum(("controlled", "resources"))},
    ),
    "excuse": effect(
        "excuse",
        "Excuse played",
        {"card": nullable(CARD), "to": ROW | {"description": "The Excuse's row."}},
    ),
    "resign": effect("resign", "Resign", {}),
    "end": effect("end", "Game over", {"result": enum(STATUSES[1:])}),
}

CONTRACT = Contract("Adaman", STATUSES, BOARD, EFFECTS, DEFS, solitaire=True)
