"""Royal Assassin drawn as plain text for `court play`: what a person at a terminal needs."""

from __future__ import annotations

import json

from domain.errors import Json


def render(view: Json) -> str:
    """The columns with their Pretenders' arithmetic, the reserve and the current card."""
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
