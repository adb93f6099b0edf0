"""How Risus Royale's moves are made on its `map` board (domain/gestures.py): the character's
dice are set with steppers; a pile of the map is clicked to enter, move or retreat to it; a
treasure is clicked to declare or use it; a cliché of the character to fight a round in it.
Fighting and escaping are chosen beside the board."""

from __future__ import annotations

from domain.gestures import Gesture, Gestures, Tune

GESTURES: Gestures = {
    "create": (Gesture(tune=Tune("cliches", "character")),),
    "enter": (Gesture(target="cell:{pile}"),),
    "move": (Gesture(target="cell:{to}"),),
    "retreat": (Gesture(target="cell:{to}"),),
    "declare": (Gesture(target="card:{item}"),),
    "use": (Gesture(target="card:{item}"),),
    "round": (Gesture(target="cliche:{cliche}"),),
}
