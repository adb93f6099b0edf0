"""Royal Assassin's view, effects and outcome, declared (see domain/contracts.py).

What `RoyalAssassin.view`, `outcome` and the effects `_play` appends look like, for clients
and for the conformance suite, which holds every one of random games to this.
"""

from __future__ import annotations

from domain.contracts import (
    CARD_CODE,
    COLUMN,
    COLUMN_NAMES,
    COUNT,
    INTEGER,
    Contract,
    array,
    closed,
    effect,
    enum,
    keyed,
    nullable,
    ref,
)
from domain.errors import Json

TITLE = "Royal Assassin"
STATUSES = ("playing", "won", "lost")
ROLE = enum(("royal", "attack", "defense"))
CARDS = array(CARD_CODE)
BOTTOM_UP = "Bottom first."

DEFS: dict[str, Json] = {
    "Entry": closed("Column entry", {"card": CARD_CODE, "role": ROLE}),
    "Columns": keyed(
        "Columns", COLUMN_NAMES, array(ref("Entry")) | {"description": "Bottom first."}
    ),
    "Pretender": closed(
        "Pretender",
        {
            "card": CARD_CODE,
            "value": COUNT,
            "attack": COUNT,
            "defense": COUNT,
            "strength": INTEGER,
            "attacked_by": nullable(COLUMN),
        },
        description="A column's top royal and the arithmetic on it.",
    ),
    "Pretenders": keyed("Pretenders", COLUMN_NAMES, nullable(ref("Pretender"))),
    "JokersAbove": keyed("Jokers above", COLUMN_NAMES, CARD_CODE, all_present=False),
    "Jokers": closed("Jokers", {"in_hand": CARDS, "above": ref("JokersAbove")}),
    "Outcome": closed(
        "Royal Assassin outcome",
        {
            "result": enum(("won", "lost")),
            "ruler": nullable({"anyOf": [CARD_CODE, {"const": "joker"}]})
            | {"description": "Who takes the throne after a loss: a Pretender, or joker."},
            "score": COUNT,
        },
    ),
}

BOARD: dict[str, Json] = {
    "current": nullable(CARD_CODE),
    "reserve": CARDS | {"description": BOTTOM_UP},
    "stock_count": COUNT,
    "columns": ref("Columns"),
    "pretenders": ref("Pretenders"),
    "jokers": ref("Jokers"),
    "discard_count": COUNT,
}

_ON_COLUMN = {"card": CARD_CODE, "column": COLUMN, "target": CARD_CODE, "strength": INTEGER}
_SETTLED = {
    "column": COLUMN,
    "royal": CARD_CODE,
    "attack": COUNT,
    "defense": COUNT,
    "cards": CARDS,
}
EFFECTS: dict[str, Json] = {
    "draw": effect("draw", "Draw", {"card": CARD_CODE}),
    "reserve": effect("reserve", "Reserve", {"card": CARD_CODE}),
    "attack": effect("attack", "Attack", _ON_COLUMN),
    "continue": effect("continue", "Continue", _ON_COLUMN),
    "defense": effect("defense", "Defense", _ON_COLUMN),
    "joker": effect(
        "joker",
        "Joker placed",
        {"card": CARD_CODE, "column": COLUMN, "from": enum(("hand", "current", "reserve"))},
    ),
    "royal": effect("royal", "Royal arrives", {"card": CARD_CODE, "column": COLUMN}),
    "kill": effect(
        "kill",
        "Kill",
        {**_SETTLED, "joker": CARD_CODE, "joker_to": enum(("discard", "hand"))},
        optional=("joker", "joker_to"),
    ),
    "cancel": effect("cancel", "Cancel", _SETTLED),
    "recycle": effect("recycle", "Reserve recycled", {"cards": COUNT}),
    "resign": effect("resign", "Resign", {}),
    "end": effect("end", "Game over", {"result": enum(("won", "lost"))}),
}


CONTRACT = Contract(TITLE, STATUSES, BOARD, EFFECTS, DEFS, solitaire=True)
