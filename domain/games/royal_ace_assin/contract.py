"""Royal Ace-assin's view, effects and outcome, declared (see domain/contracts.py).

The view is the one ../shared/specs/royal-ace-assin.md fixes; the effects and the outcome are
what `RoyalAceAssin` emits. The conformance suite holds every view, effect and outcome of
random games to this.
"""

from __future__ import annotations

from domain.contracts import (
    BOOLEAN,
    COUNT,
    SEAT,
    Contract,
    array,
    closed,
    effect,
    enum,
    keyed,
    nullable,
    ref,
    seated_board,
)
from domain.errors import Json

STATUSES = ("playing", "resigned", "finished")
SEATS = 2
A_SEAT = SEAT | {"maximum": SEATS - 1}
FIGUREHEADS = ("king", "queen", "jack")
FIGUREHEAD = enum(FIGUREHEADS)
SUIT = enum(("clubs", "diamonds", "hearts", "spades"))
SUPPORTER: Json = {"type": "string", "pattern": "^[2-9T][CDHS]$", "description": "2 to 10."}
FIGUREHEAD_CARD: Json = {"type": "string", "pattern": "^[KQJ][CDHS]$"}
TURN: Json = {"type": "integer", "minimum": 1, "maximum": 3}
FACE_DOWN = "Null: face down, and not the viewer's."

DEFS: dict[str, Json] = {
    "Supporter": closed(
        "Supporter",
        {"card": nullable(SUPPORTER) | {"description": FACE_DOWN}, "face_up": BOOLEAN},
    ),
    "Figurehead": closed(
        "Figurehead",
        {"card": FIGUREHEAD_CARD, "alive": BOOLEAN, "supporters": array(ref("Supporter"))},
    ),
    "Figureheads": keyed("Figureheads", FIGUREHEADS, ref("Figurehead")),
    "Assassin": closed(
        "Assassin",
        {"card": {"type": "string", "pattern": "^A[CDHS]$"}, "target": nullable(FIGUREHEAD)},
    ),
    "Side": closed(
        "Side",
        {
            "suit": nullable(SUIT),
            "hand": nullable(array(SUPPORTER)) | {"description": "Null: not the viewer's."},
            "hand_count": COUNT,
            "assassin": nullable(ref("Assassin")),
            "exposed": COUNT,
            "figureheads": nullable(ref("Figureheads")),
        },
    ),
    "PlacedCards": keyed("Placed cards", FIGUREHEADS, SUPPORTER),
    "SealedPlace": closed(
        "Sealed place", {"type": {"const": "place"}, "cards": ref("PlacedCards")}
    ),
    "SealedFlip": closed("Sealed flip", {"type": {"const": "flip"}, "targets": array(FIGUREHEAD)}),
    "Totals": keyed("Totals", FIGUREHEADS, nullable(COUNT) | {"description": "Null: killed."}),
    "Outcome": closed(
        "Royal Ace-assin outcome",
        {
            "result": nullable(enum(("won", "lost"))) | {"description": "Null for a spectator."},
            "score": nullable(COUNT | {"maximum": 1}) | {"description": "1 won, 0 lost."},
            "winner": A_SEAT,
            "ruler": nullable(FIGUREHEAD_CARD) | {"description": "Null after a resignation."},
            "decided_by": enum(("total", "rank", "tiebreak", "resignation")),
            "totals": nullable(array(ref("Totals"), length=SEATS)),
            "tiebreak": array(array(SUPPORTER, length=2)),
        },
    ),
}

BOARD: dict[str, Json] = {
    **seated_board(SEATS),
    "phase": enum(("suits", "place", "flip", "gambit", "over")),
    "turn": nullable(TURN),
    "submitted": array(BOOLEAN, length=SEATS),
    "sealed": {"oneOf": [{"type": "null"}, ref("SealedPlace"), ref("SealedFlip")]}
    | {"description": "The viewer's own submission while the other seat's is awaited."},
    "first_assassin": nullable(A_SEAT),
    "sides": array(ref("Side"), length=SEATS),
}

_SHOWN = {"seat": A_SEAT, "figurehead": FIGUREHEAD, "card": SUPPORTER}
EFFECTS: dict[str, Json] = {
    "suit_chosen": effect("suit_chosen", "Suit chosen", {"seat": A_SEAT, "suit": SUIT}),
    "placed": effect("placed", "Placed", {"seat": A_SEAT, "turn": TURN}),
    "revealed": effect("revealed", "Revealed", _SHOWN),
    "gambit": effect(
        "gambit",
        "Gambit",
        {"exposed": array(COUNT, length=SEATS), "first_assassin": A_SEAT},
    ),
    "sealed": effect("sealed", "Flip sealed", {"seat": A_SEAT, "turn": TURN}),
    "flipped": effect("flipped", "Flipped", {**_SHOWN, "by": A_SEAT}),
    "assassinated": effect(
        "assassinated",
        "Assassinated",
        {"seat": A_SEAT, "target": FIGUREHEAD, "card": FIGUREHEAD_CARD},
    ),
    "resigned": effect("resigned", "Resigned", {"seat": A_SEAT}),
    "game_over": effect("game_over", "Game over", {"outcome": ref("Outcome")}),
}

CONTRACT = Contract("Royal Ace-assin", STATUSES, BOARD, EFFECTS, DEFS, solitaire=False)
