"""The gestures each ruleset declares (domain/gestures.py): they name only moves and fields
the ruleset has, every field of a move is shown by one of its gestures (so that two legal
moves never look alike on the board), and `GET /v1/rulesets` serves them."""

import pytest

from domain.gestures import Assign, Gesture, Pick, Tune, gesture_problems, gestures_json
from domain.moves import FieldSpec, MoveShape
from domain.registry import GAMES, get_ruleset

CARD = FieldSpec("enum", values=("a", "b"))
SHAPES = (
    MoveShape("play", {"card": CARD, "to": FieldSpec("enum", values=("x", "y"))}),
    MoveShape("pay", {"with": FieldSpec("string_list", values=("a", "b"))}),
    MoveShape("set", {"dice": FieldSpec("object", members=(("a", FieldSpec("integer")),))}),
    MoveShape("pass"),
)


def _fields_shown(gestures):
    """The move fields a move's gestures name, all of them together."""
    shown = set()
    for g in gestures:
        text = " ".join(filter(None, [g.source, g.target, *(g.when or ())]))
        for part in (g.pick, g.assign, g.tune):
            if part is not None:
                shown.add(part.field)
        for name in text.replace("}", "{").split("{")[1::2]:
            shown.add(name.split(".")[0])
    return shown


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_declares_sound_gestures(game_id):
    ruleset = get_ruleset(game_id)
    assert gesture_problems(ruleset.moves_offered, ruleset.gestures) == []
    shapes = {s.type: s for s in ruleset.moves_offered}
    for kind, ways in ruleset.gestures.items():
        assert set(shapes[kind].fields) <= _fields_shown(ways), kind
    assert ruleset.describe()["gestures"] == gestures_json(ruleset.gestures)


def test_every_board_game_makes_most_of_its_moves_on_the_board():
    """Resign (and undo) stay beside the board; a move left without a gesture is one a board
    has no element for (a suit to choose, fight or flee)."""
    for game_id in GAMES:
        ruleset = get_ruleset(game_id)
        if ruleset.board == "generic":
            continue
        kinds = {s.type for s in ruleset.moves_offered} - {"resign", "undo"}
        assert len(set(ruleset.gestures) & kinds) * 2 >= len(kinds), game_id


@pytest.mark.parametrize(
    ("gestures", "problem"),
    [
        ({"fly": (Gesture(target="x"),)}, "fly: not a move of the ruleset"),
        ({"play": ()}, "play: no gesture"),
        ({"play": (Gesture(),)}, "play: a gesture names a source, a target, or a pick"),
        ({"play": (Gesture(target="pile:{pile}"),)}, "play: {pile} is not a field of the move"),
        ({"play": (Gesture(source="{source.suit}"),)}, "play: {source.suit} is not a field"),
        ({"pay": (Gesture(pick=Pick("card", "card:{item}")),)}, "pay: pick: card is not a"),
        ({"pay": (Gesture(pick=Pick("with", "card:{value}")),)}, "pay: {value} is not a field"),
        ({"set": (Gesture(tune=Tune("dice", "z"), target="z"),)}, "set: tune takes no source"),
        (
            {"set": (Gesture(assign=Assign("dice", "{value}", "{name}"), tune=Tune("dice", "z")),)},
            "set: one of pick, assign and tune at most",
        ),
    ],
)
def test_problems_are_found(gestures, problem):
    assert any(p.startswith(problem) for p in gesture_problems(SHAPES, gestures)), gesture_problems(
        SHAPES, gestures
    )


def test_sound_declarations_pass():
    gestures = {
        "play": (
            Gesture(source="card:{card}", target="pile:{to}", when=("{to}", "{source.suit}")),
            Gesture(source="card:{card}", target="pile:{them}:{to}"),
        ),
        "pay": (Gesture(pick=Pick("with", "card:{item}"), target="bank"),),
        "set": (Gesture(tune=Tune("dice", "sheet")),),
    }
    assert gesture_problems(SHAPES, gestures) == []
    assert gestures_json(gestures)["play"][0] == {
        "source": "card:{card}",
        "target": "pile:{to}",
        "when": ["{to}", "{source.suit}"],
    }
