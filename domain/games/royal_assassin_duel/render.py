"""Royal Assassin Duel drawn as plain text for `court play`: both sides, your hand only."""

from __future__ import annotations

from domain.errors import Json


def render(view: Json) -> str:
    lines = ["", f"round {view['round']}   {view['phase']}   to move: {view['to_move'] or '-'}"
             f"   stock {view['stock_count']}   discard {view['discard_count']}"
             f"   reshuffles {view['reshuffles']}"]  # fmt: skip
    if view["reaction"]:
        r = view["reaction"]
        lines.append(f"  reaction to seat {r['mover']}'s move; passes so far {r['passes']}")
    for seat, player in enumerate(view["players"]):
        who = "you" if seat == view["seat"] else "opponent" if view["seat"] is not None else "-"
        joker = player["joker"]
        extra = ""
        if joker is not None:
            extra = f"   Joker {joker['card']}: " + (
                f"above the enemy {joker['above']}" if joker["above"] else "in hand"
            )
        lines.append(f"  seat {seat} ({who})   hand {view['hand_counts'][seat]}{extra}")
        for name, entries in player["columns"].items():
            cells = " ".join(
                e["card"]
                if e["role"] == "royal"
                else f"{e['card']}{'+' if e['role'] == 'attack' else '#'}"
                for e in entries
            )
            lines.append(f"    {name:<8} {cells or '-'}")
        lines.append(f"    reserve  {' '.join(player['reserve']) or '-'}  (top last)")
    if view["hand"] is not None:
        lines.append(f"  your hand: {' '.join(view['hand']) or '-'}")
    if view["outcome"]:
        lines.append(f"  outcome: {view['outcome']}")
    lines.append("  (X+ attack, X# defense)")
    return "\n".join(lines)
