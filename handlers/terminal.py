"""Plain-text drawings of a view for `court play`: what a person at a terminal needs to see."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Json = dict[str, Any]


def describe_move(move: Json) -> str:
    """`{"type": "attack", "column": "hearts"}` -> `attack hearts`."""
    rest = " ".join(str(v) for k, v in move.items() if k != "type")
    return f"{move['type']} {rest}".strip()


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


RENDERERS: dict[str, Callable[[Json], str]] = {"royal-assassin": _royal_assassin}


def render(ruleset_id: str, view: Json) -> str:
    renderer = RENDERERS.get(ruleset_id)
    return renderer(view) if renderer else json.dumps(view, indent=2)
