"""Every golden playthrough replays exactly from its stored moves: the deal, then after each
move its effects, the status, and every seat's and the spectator's view.

On a failure, read the diff; if the rules change was intended, regenerate the files with
`make golden` and commit them with the change, so that reviewers see what moved.
"""

import json

import pytest

from tests.conformance.golden import GOLDEN_DIR, playthroughs, views
from tests.games import EVERY_GAME

FILES = sorted(GOLDEN_DIR.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_playthrough_replays_exactly(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    ruleset = EVERY_GAME[golden["ruleset"]].ruleset
    state = ruleset.start(golden["seed"], golden["options"])
    first, *steps = golden["steps"]
    assert views(ruleset, state, golden["options"]) == first["views"], "the deal changed"
    for i, step in enumerate(steps, start=1):
        transition = ruleset.apply(state, step["seat"], step["move"])
        state = transition.state
        now = {"effects": transition.effects, "status": ruleset.status(state)}
        if "views" in step:  # written for the first steps and the last (golden.VIEWED_STEPS)
            now["views"] = views(ruleset, state, golden["options"])
        for key, value in now.items():
            assert value == step[key], f"step {i} ({step['move']}): {key} differs"
    assert ruleset.outcome(state) == golden["outcome"]


def test_every_game_has_its_golden_playthroughs():
    expected = {
        GOLDEN_DIR / game_id / f"{name}.json"
        for game_id, game in EVERY_GAME.items()
        for name, *_ in playthroughs(game)
    }
    assert set(FILES) == expected, "run `make golden` and commit the files"
