"""Moves and effects as short text for `court play`; each game draws its own view
(its registry entry's renderer)."""

from __future__ import annotations

import json

from domain.errors import Json


def describe_move(move: Json) -> str:
    """`{"type": "attack", "column": "hearts"}` -> `attack hearts`; lists read `with a + b`,
    a map cell `[1, 2]` reads `to [1, 2]`."""
    parts = [move["type"]]
    for key, value in move.items():
        if key == "type" or value is None:
            continue
        if isinstance(value, dict):
            parts.append(" ".join(f"{k} {v}" for k, v in value.items()))
        elif isinstance(value, list) and all(isinstance(v, int) for v in value):
            parts.append(f"{key} [{', '.join(str(v) for v in value)}]")
        elif isinstance(value, list):
            parts.append(f"{key} {' + '.join(str(v) for v in value)}")
        else:
            parts.append(str(value))
    return " ".join(parts)


def describe_effect(effect: Json) -> str:
    """One line per thing a move set off: `forced: draw`, `kill column hearts royal JH ...`."""
    if effect.get("type") == "forced":
        return f"forced move: {describe_move(effect['move'])}"
    parts = [str(effect.get("type", "?"))]
    for key, value in effect.items():
        if key == "type" or value is None:
            continue
        if isinstance(value, list):
            value = " ".join(str(v) for v in value) or "-"
        elif isinstance(value, dict):
            value = json.dumps(value)
        parts.append(f"{key} {value}")
    return " ".join(parts)
