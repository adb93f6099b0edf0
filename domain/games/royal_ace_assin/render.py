"""Royal Ace-assin drawn as plain text for `court play`: both sides, as the viewer sees them."""

from __future__ import annotations

from domain.errors import Json
from domain.games.royal_ace_assin.rules import FIGUREHEADS


def render(view: Json) -> str:
    """Each side's figureheads with their supporters (?? face down, [x] face up)."""
    turn = f" turn {view['turn']}" if view["turn"] else ""
    lines = [
        "",
        f"{view['phase']}{turn}   to move: {view['to_move'] or '-'}   "
        f"submitted: {view['submitted']}",
    ]
    for seat, side in enumerate(view["sides"]):
        who = "you" if seat == view["seat"] else "opponent" if view["seat"] is not None else "-"
        lines.append(
            f"  seat {seat} ({who}) {side['suit'] or '(no suit yet)'}   "
            f"exposed {side['exposed']}   hand {side['hand_count']}"
        )
        if side["figureheads"] is None:
            continue
        for f in FIGUREHEADS:
            head = side["figureheads"][f]
            cards = " ".join(
                (f"[{s['card']}]" if s["face_up"] else f"({s['card']})" if s["card"] else "??")
                for s in head["supporters"]
            )
            dead = "" if head["alive"] else "  DEAD"
            lines.append(f"    {head['card']} {f:<5} {cards or '-'}{dead}")
        if side["hand"] is not None:
            lines.append(f"    hand: {' '.join(side['hand']) or '-'}")
        if side["assassin"]["target"]:
            lines.append(
                f"    {side['assassin']['card']} killed the enemy {side['assassin']['target']}"
            )
    sealed = view["sealed"]
    if sealed and sealed["type"] == "flip":
        lines.append(f"  your sealed flip: {sealed['targets']}")
    elif sealed:
        placed = ", ".join(f"{card} under the {f}" for f, card in sealed["cards"].items())
        lines.append(f"  your placement, face down until both have placed: {placed}")
    if view["outcome"]:
        o = view["outcome"]
        lines.append(
            f"  winner: seat {o['winner']} ({o['decided_by']}), ruler {o['ruler']}, "
            f"totals {o['totals']}"
        )
    lines.append("  ([x] face up, (x) yours face down, ?? hidden)")
    return "\n".join(lines)
