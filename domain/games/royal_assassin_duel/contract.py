"""Royal Assassin Duel's view, effects and outcome, declared (see domain/contracts.py).

The view is the one ../shared/specs/royal-assassin-duel.md fixes, key for key; the effects and
the outcome are what `RoyalAssassinDuel` emits. The conformance suite holds every view, effect
and outcome of random games to this.
"""

from __future__ import annotations

from domain.contracts import (
    COLUMN,
    COLUMN_NAMES,
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

STATUSES = ("playing", "finished")
SEATS = 2
A_SEAT = SEAT | {"maximum": SEATS - 1}
CARD: Json = {
    "type": "string",
    "pattern": "^(?:[2-9TJQKA][CDHS][12]?|X[12])$",
    "description": "A card: KH with one deck, KH1 or KH2 with two; X1 and X2 the Jokers.",
}
CARDS = array(CARD)
PAIR = array(COUNT, length=SEATS)
ROLE = enum(("royal", "attack", "defense"))

DEFS: dict[str, Json] = {
    "Entry": closed("Column entry", {"card": CARD, "role": ROLE}),
    "Columns": keyed("Columns", COLUMN_NAMES, array(ref("Entry"))),
    "Joker": closed(
        "Joker",
        {
            "card": enum(("X1", "X2")),
            "above": nullable(COLUMN) | {"description": "The other seat's column it hangs over."},
        },
    ),
    "Player": closed(
        "Player",
        {
            "columns": ref("Columns"),
            "reserve": CARDS | {"description": "Bottom first."},
            "joker": nullable(ref("Joker")) | {"description": "Null without Jokers."},
        },
    ),
    "Reaction": closed(
        "Reaction chain",
        {"mover": A_SEAT, "seat": A_SEAT, "passes": COUNT | {"maximum": 1}},
    ),
    "Outcome": closed(
        "Royal Assassin Duel outcome",
        {
            "result": enum(("win", "draw")),
            "winner": nullable(A_SEAT),
            "reason": enum(("wipe", "resign", "exhaustion")),
            "score": PAIR | {"description": "Each seat's total value of royals in its columns."},
        },
    ),
}

BOARD: dict[str, Json] = {
    **seated_board(SEATS),
    "round": COUNT,
    "phase": enum(("turn", "reaction", "over")),
    "turn": nullable(A_SEAT),
    "reaction": nullable(ref("Reaction")),
    "hand": nullable(CARDS) | {"description": "The viewer's own hand; null for a spectator."},
    "hand_counts": PAIR,
    "players": array(ref("Player"), length=SEATS),
    "stock_count": COUNT,
    "discard_count": COUNT,
    "reshuffles": COUNT,
}

_PLACED = {"seat": A_SEAT, "owner": A_SEAT, "column": COLUMN, "card": CARD}
_GONE = {"owner": A_SEAT, "column": COLUMN, "cards": CARDS}
EFFECTS: dict[str, Json] = {
    "attack": effect("attack", "Attack", {**_PLACED, "role": {"const": "attack"}}),
    "defense": effect("defense", "Defense", {**_PLACED, "role": {"const": "defense"}}),
    "react": effect("react", "Reaction", {**_PLACED, "role": enum(("attack", "defense"))}),
    "present": effect("present", "Royal presented", {"seat": A_SEAT, "card": CARD}),
    "discard": effect("discard", "Card to the reserve", {"seat": A_SEAT, "card": CARD}),
    "assassinate": effect(
        "assassinate",
        "Assassination",
        {"seat": A_SEAT, "card": CARD, "owner": A_SEAT, "column": COLUMN, "target": CARD},
    ),
    "joker": effect(
        "joker", "Joker placed", {"seat": A_SEAT, "card": enum(("X1", "X2")), "column": COLUMN}
    ),
    "joker_returns": effect("joker_returns", "Joker back", {"seat": A_SEAT, "column": COLUMN}),
    "killed": effect("killed", "Kill", _GONE),
    "exact_zero": effect("exact_zero", "Exact zero", _GONE),
    "reshuffle": effect("reshuffle", "Reshuffle", {"reshuffles": COUNT, "stock_count": COUNT}),
    "drew": effect("drew", "Cards dealt", {"seat": A_SEAT, "count": COUNT}),
    "round": effect("round", "New round", {"round": COUNT, "leader": A_SEAT}),
    "game_over": effect("game_over", "Game over", {"outcome": ref("Outcome")}),
}

CONTRACT = Contract("Royal Assassin Duel", STATUSES, BOARD, EFFECTS, DEFS, solitaire=False)
