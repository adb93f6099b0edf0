"""Adaman drawn as plain text for `court play`: the rows, each card with rank and suits."""

from __future__ import annotations

import json

from domain.errors import Json
from domain.games.adaman.decktet import BY_CODE


def render(view: Json) -> str:
    """The palace, capital and resources with each card's rank and suits."""

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
