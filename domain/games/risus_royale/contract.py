"""Risus Royale's view, effects and outcome, declared (see domain/contracts.py).

The view is the one ../shared/specs/risus-royale.md fixes; the effects and the outcome are
what `RisusRoyale` emits. The conformance suite holds every view, effect and outcome of random
games to this.
"""

from __future__ import annotations

from domain.contracts import (
    BOOLEAN,
    COUNT,
    STRING,
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
from domain.games.risus_royale.tables import CLASSES, CLICHES, GOAL_TEXT, RACES

STATUSES = ("playing", "won", "lost")
REASONS = ("goal", "resigned", "cornered", "out_of_turns", "goal_unreachable")
CARD: Json = {"type": "string", "pattern": "^[2-9TAJQK][CDHS]$"}
CARDS = array(CARD)
CLICHE = enum(CLICHES)
DIE: Json = {"type": "integer", "minimum": 1, "maximum": 6}
DICE = array(DIE)
CELL: Json = {"$ref": "#/$defs/Cell"}

_ESCAPE = {
    "kind": {"const": "escape"},
    "cliche": CLICHE,
    "player": DICE,
    "foe": DICE,
    "player_total": COUNT,
    "foe_total": COUNT,
    "success": BOOLEAN,
}
_ABILITY = {
    "kind": {"const": "ability"},
    "item": CARD,
    "dice": DICE,
    "total": COUNT,
    "needed": COUNT,
    "success": BOOLEAN,
}
_ROUND = {
    "kind": {"const": "round"},
    "cliche": CLICHE,
    "player": DICE,
    "foe": DICE,
    "ignored": nullable(DIE) | {"description": "The foe's die an X item ignores."},
    "player_total": COUNT,
    "foe_total": COUNT,
    "winner": enum(("player", "foe")),
}

DEFS: dict[str, Json] = {
    "Cell": array({"type": "integer", "minimum": 0, "maximum": 3}, length=2)
    | {"title": "Cell", "description": "[row, column] on the 4x4 map."},
    "Goal": closed(
        "Goal",
        {
            "number": {"type": "integer", "minimum": min(GOAL_TEXT), "maximum": max(GOAL_TEXT)},
            "text": enum(GOAL_TEXT.values()),
            "deuces": array({"type": "string", "pattern": "^2[CDHS]$"}, length=2),
        },
    ),
    "Cliches": keyed("Dice by cliche", CLICHES, COUNT),
    "SomeCliches": keyed("Dice by cliche (the foe's)", CLICHES, COUNT, all_present=False),
    "Character": closed("Character", {"cliches": ref("Cliches"), "wounds": ref("Cliches")}),
    "Pile": closed(
        "Pile",
        {
            "cleared": BOOLEAN,
            "cut_off": BOOLEAN,
            "guard": nullable(CARD),
            "opponent": nullable(CARD),
            "treasure": nullable(CARD),
            "face_down": COUNT | {"maximum": 3},
        },
    ),
    "Foe": closed(
        "Foe",
        {
            "card": CARD,
            "role": enum(("guard", "opponent")),
            "class": nullable(enum(CLASSES)),
            "race": nullable(enum(RACES.values())),
            "name": STRING,
            "cliches": ref("SomeCliches"),
        },
    ),
    "Battle": closed(
        "Battle",
        {
            "foe": ref("Foe"),
            "foe_dice": ref("SomeCliches"),
            "player_dice": ref("Cliches"),
            "plus": nullable(CARD),
            "minus": nullable(CARD),
            "x": CARDS,
            "tried": CARDS,
            "escape_tried": BOOLEAN,
            "rounds": COUNT,
        },
    ),
    "Treasure": closed(
        "Treasure",
        {
            "card": CARD,
            "name": STRING,
            "kind": enum(("plus", "minus", "x", "w")),
            "against": enum(("creature", "opponent", "both")),
            "suit": CLICHE,
            "number": COUNT,
        },
    ),
    "EscapeRoll": closed("Escape roll", _ESCAPE),
    "AbilityRoll": closed("Ability roll", _ABILITY),
    "RoundRoll": closed("Round roll", _ROUND),
    "Outcome": closed(
        "Risus Royale outcome",
        {
            "result": enum(STATUSES[1:]),
            "reason": enum(REASONS),
            "score": COUNT,
            "defeated": COUNT,
            "treasures": COUNT,
        },
    ),
}

BOARD: dict[str, Json] = {
    "phase": enum(("create", "enter", "move", "retreat", "prepare", "rounds", "over")),
    "goal": ref("Goal"),
    "character": nullable(ref("Character")),
    "position": nullable(CELL),
    "map": array(array(ref("Pile"), length=4), length=4) | {"description": "Rows, then columns."},
    "battle": nullable(ref("Battle")),
    "treasures": array(ref("Treasure")),
    "victory": CARDS,
    "discard": CARDS,
    "defeated": COUNT,
    "turn": COUNT | {"maximum": 100, "description": "Arrivals so far."},
    "lost_battles": COUNT,
    "dice_rolled": COUNT,
    "last_roll": {
        "oneOf": [{"type": "null"}, ref("EscapeRoll"), ref("AbilityRoll"), ref("RoundRoll")]
    },
}

EFFECTS: dict[str, Json] = {
    "roll": {
        "title": "Roll",
        "oneOf": [
            effect("roll", "Escape roll effect", _ESCAPE),
            effect("roll", "Ability roll effect", _ABILITY),
            effect("roll", "Round roll effect", _ROUND),
        ],
    },
    "flip": effect("flip", "Guard turned up", {"pile": CELL, "card": CARD}),
    "reveal": effect("reveal", "Opponent turned up", {"pile": CELL, "card": CARD}),
    "treasure": effect("treasure", "Treasure won", {"pile": CELL, "card": CARD}),
    "cut_off": effect("cut_off", "Pile cut off", {"pile": CELL, "cards": CARDS}),
    "destroyed": effect("destroyed", "Items destroyed", {"items": CARDS}),
    "overwhelmed": effect("overwhelmed", "Foe overwhelmed", {"cliche": CLICHE}),
    "won_battle": effect("won_battle", "Battle won", {"foe": CARD}),
    "lost_battle": effect("lost_battle", "Battle lost", {"foe": CARD}),
    "end": effect("end", "Game over", {"result": enum(STATUSES[1:]), "reason": enum(REASONS)}),
}

CONTRACT = Contract("Risus Royale", STATUSES, BOARD, EFFECTS, DEFS, solitaire=True)
