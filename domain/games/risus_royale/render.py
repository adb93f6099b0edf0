"""Risus Royale drawn as plain text for `court play`: the map as a 4x4 grid, the character,
the battle and the last roll."""

from __future__ import annotations

from domain.errors import Json

CELL_WIDTH = 13


def _pile(pile: Json, here: bool) -> str:
    """One map cell: the face-up cards top first (guard/opponent/treasure), `?` per face-down
    card, `.` once cleared; `@` marks the player's pile, `x` a cut-off one."""
    if pile["cleared"]:
        text = "."
    else:
        shown = [pile[k] for k in ("guard", "opponent", "treasure") if pile[k] is not None]
        text = "/".join(shown + ["?"] * pile["face_down"])
    mark = "@" if here else "x" if pile["cut_off"] else " "
    return f"{mark}{text}".ljust(CELL_WIDTH)


def _roll(roll: Json) -> str:
    if roll["kind"] == "ability":
        verdict = "success" if roll["success"] else "failed"
        return (
            f"ability roll for {roll['item']}: {roll['dice']} = {roll['total']}"
            f" (needs {roll['needed']}): {verdict}"
        )
    if roll["kind"] == "escape":
        verdict = "escaped" if roll["success"] else "no escape"
        return (
            f"escape in {roll['cliche']}: you {roll['player']} = {roll['player_total']}"
            f" vs {roll['foe']} = {roll['foe_total']}: {verdict}"
        )
    ignored = f", {roll['ignored']} ignored" if roll["ignored"] is not None else ""
    return (
        f"round in {roll['cliche']}: you {roll['player']} = {roll['player_total']}"
        f" vs {roll['foe']}{ignored} = {roll['foe_total']}: {roll['winner']} wins"
    )


def render(view: Json) -> str:
    goal = view["goal"]
    lines = [
        "",
        f"goal {goal['number']}: {goal['text']}   (deuces {' '.join(goal['deuces'])})",
        f"turn {view['turn']}/100   phase {view['phase']}   defeated {view['defeated']}"
        f"   lost battles {view['lost_battles']}   dice rolled {view['dice_rolled']}",
    ]
    position = view["position"]
    lines.append("      " + "".join(f" col {c}".ljust(CELL_WIDTH) for c in range(4)))
    for r, row in enumerate(view["map"]):
        cells = "".join(_pile(p, position == [r, c]) for c, p in enumerate(row))
        lines.append(f"  row {r} {cells}")
    lines.append("  (@ you, x cut off, ? face down, . cleared; cards top first)")
    character = view["character"]
    if character is not None:
        dice = "  ".join(
            f"{name} {n}" + (f"-{character['wounds'][name]}" if character["wounds"][name] else "")
            for name, n in character["cliches"].items()
        )
        lines.append(f"  you: {dice}")
    battle = view["battle"]
    if battle is not None:
        foe = battle["foe"]
        lines.append(
            f"  battle vs {foe['card']} {foe['name']} ({foe['role']}):"
            f" foe dice {battle['foe_dice']}   your dice {battle['player_dice']}"
        )
        in_play = [c for c in (battle["plus"], battle["minus"]) if c] + battle["x"]
        lines.append(
            f"    in play {in_play or '-'}   tried {battle['tried'] or '-'}"
            f"   rounds {battle['rounds']}"
        )
    if view["treasures"]:
        lines.append(
            "  treasures: "
            + ", ".join(
                f"{t['card']} {t['name']} ({t['kind']}/{t['against']})" for t in view["treasures"]
            )
        )
    lines.append(f"  victory {' '.join(view['victory']) or '-'}   discard {len(view['discard'])}")
    if view["last_roll"] is not None:
        lines.append("  last roll: " + _roll(view["last_roll"]))
    if view["outcome"]:
        lines.append(f"  outcome: {view['outcome']}")
    return "\n".join(lines)
