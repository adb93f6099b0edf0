"""How Adaman's moves are made on its `capital` board (domain/gestures.py): resources are
picked to pay, then the card of the capital or the palace they control is clicked; the waiting
Excuse is played by clicking the card it swaps with (or the Excuse, when none can move)."""

from __future__ import annotations

from domain.gestures import Gesture, Gestures, Pick

GESTURES: Gestures = {
    "control": (Gesture(pick=Pick("with", "card:{item}"), target="card:{target}"),),
    "excuse": (Gesture(target="card:{card}"), Gesture(target="card:excuse")),
}
