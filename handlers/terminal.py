"""Plain-text drawings of a view for `court play`: what a person at a terminal needs to see."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Json = dict[str, Any]


def describe_move(move: Json) -> str:
    """`{"type": "attack", "column": "hearts"}` -> `attack hearts`; lists read `with a + b`."""
    parts = [move["type"]]
    for key, value in move.items():
        if key == "type" or value is None:
            continue
        parts.append(f"{key} {' + '.join(value)}" if isinstance(value, list) else str(value))
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


def _royal_assassin(view: Json) -> str:
    lines = [
        "",
        f"stock {view['stock_count']}   discard {view['discard_count']}   "
        f"jokers in hand: {' '.join(view['jokers']['in_hand']) or '-'}",
    ]
    above = view["jokers"]["above"]
    for name, column in view["columns"].items():
        cards = " ".join(
            e["card"] + {"royal": "", "attack": "+", "defense": "-"}[e["role"]] for e in column
        )
        line = f"  {name:<9} {cards or '.'}"
        if name in above:
            line += f"   [Joker {above[name]} above]"
        pretender = view["pretenders"][name]
        if pretender:
            line += (
                f"   Pretender {pretender['card']} at {pretender['strength']}"
                f" (attack {pretender['attack']}, defense {pretender['defense']})"
            )
        lines.append(line)
    lines.append("  (+ attack card, - defense card)")
    lines.append(f"reserve, top last: {' '.join(view['reserve']) or '-'}")
    lines.append(f"current card: {view['current'] or '-'}")
    if view["outcome"]:
        lines.append(f"outcome: {json.dumps(view['outcome'])}")
    return "\n".join(lines)


def _adaman(view: Json) -> str:
    from domain.decktet import BY_CODE

    def row(codes: list[str]) -> str:
        cards = []
        for code in codes:
            card = BY_CODE[code]
            tag = "" if card.is_excuse else f" {card.rank}:{'/'.join(s[:2] for s in card.suits)}"
            star = "*" if card.is_personality else ""
            cards.append(f"{code}{star}{tag}")
        return ", ".join(cards) or "-"

    lines = [
        "",
        f"stock {view['stock_count']}   discard {view['discard_count']}   "
        f"personalities left {view['personalities_left']}",
        f"  palace    ({len(view['palace'])}/5) {row(view['palace'])}",
        f"  capital   {row(view['capital'])}",
        f"  resources {row(view['resources'])}",
        f"  controlled {row(view['controlled'])}",
        "  (* personality; rank:suits)",
    ]
    if view["excuse"]:
        lines.append(f"The Excuse waits in the {view['excuse']}: play it first.")
    if view["outcome"]:
        lines.append(f"outcome: {json.dumps(view['outcome'])}")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[Json], str]] = {"royal-assassin": _royal_assassin, "adaman": _adaman}


def render(ruleset_id: str, view: Json) -> str:
    renderer = RENDERERS.get(ruleset_id)
    return renderer(view) if renderer else json.dumps(view, indent=2)
