"""Golden playthroughs: a few games of every ruleset, with every view they produce, as files.

A rules change shows up as a diff of these files, to be reviewed like code. Regenerate them
after an intended change with:

    .venv/bin/python -m tests.conformance.golden      # or: make golden

Each file holds the ruleset, seed, options and moves, and after the deal and after each move
the effects, the status, and the view of every seat and of the spectator.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from domain.deal import DealRandom
from tests.games import EVERY_GAME

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def _flipped_options(game: Any) -> dict[str, Any]:
    """Every boolean option switched on: the alternate rules get their playthrough too."""
    return {s.name: True for s in game.ruleset.option_specs if s.kind == "boolean"}


def playthroughs(game: Any) -> list[tuple[str, str, dict[str, Any], str]]:
    """(name, seed, options, bot policy) of each golden game of `game`."""
    games = [
        ("greedy-defaults", "golden-1", {}, "greedy"),
        ("random-defaults", "golden-2", {}, "random"),
    ]
    if _flipped_options(game):
        games.append(("random-alternate-rules", "golden-3", _flipped_options(game), "random"))
    return games


VIEWED_STEPS = 80
"""Views are written for the first steps and the last: a long game (a Duel runs ~160 moves)
would otherwise make files of megabytes; its moves and effects are all still written."""
LONG_LIST = 200
"""Legal-move lists longer than this are written as their count and SHA-256 (Royal Ace-assin
lists 504 placements): the files stay reviewable, and any change still shows."""


def _compact(view: dict[str, Any]) -> dict[str, Any]:
    moves = view.get("legal_moves")
    if isinstance(moves, list) and len(moves) > LONG_LIST:
        text = json.dumps(moves, sort_keys=True).encode("utf-8")
        return {**view, "legal_moves": {"count": len(moves),
                                        "sha256": hashlib.sha256(text).hexdigest()}}  # fmt: skip
    return view


def views(ruleset: Any, state: Any, options: dict[str, Any]) -> dict[str, Any]:
    seats = [*range(ruleset.seat_count(options)), None]
    return {("spectator" if s is None else str(s)): _compact(ruleset.view(state, s))
            for s in seats}  # fmt: skip


def record(game: Any, seed: str, options: dict[str, Any], policy: str) -> dict[str, Any]:
    """Play one game with a bot and write down everything a client would be shown."""
    ruleset = game.ruleset
    choose = game.policies[policy](DealRandom(seed, "bot"))
    state = ruleset.start(seed, options)
    steps = [{"move": None, "seat": None, "status": ruleset.status(state),
              "views": views(ruleset, state, options)}]  # fmt: skip
    while not ruleset.is_over(state):
        seat = ruleset.to_move(state)[0]
        move = choose(ruleset, state, seat, ruleset.legal_moves(state, seat))
        transition = ruleset.apply(state, seat, move)
        state = transition.state
        step = {"move": move, "seat": seat, "effects": transition.effects,
                "status": ruleset.status(state)}  # fmt: skip
        if len(steps) <= VIEWED_STEPS or ruleset.is_over(state):
            step["views"] = views(ruleset, state, options)
        steps.append(step)
    return {
        "ruleset": ruleset.id,
        "seed": seed,
        "options": options,
        "policy": policy,
        "outcome": ruleset.outcome(state),
        "steps": steps,
    }


def dump(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def golden_files() -> dict[Path, str]:
    """Every golden file as it should read today."""
    files = {}
    for game_id, game in EVERY_GAME.items():
        for name, seed, options, policy in playthroughs(game):
            files[GOLDEN_DIR / game_id / f"{name}.json"] = dump(record(game, seed, options, policy))
    return files


def main() -> None:
    for path, text in golden_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{'updated' if changed else 'same   '} {path.relative_to(GOLDEN_DIR.parent)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
