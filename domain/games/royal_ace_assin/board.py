"""How Royal Ace-assin's moves are made on its `figureheads` board (domain/gestures.py): three
cards of the hand are put under your three figureheads, then confirmed; enemy figureheads are
picked to flip their new supporters; your Ace is sent onto an enemy figurehead. The suit is
chosen beside the board (no element stands for it)."""

from __future__ import annotations

from domain.gestures import Assign, Gesture, Gestures, Pick

GESTURES: Gestures = {
    "place": (Gesture(assign=Assign("cards", "card:{value}", "figurehead:{me}:{name}")),),
    "flip": (Gesture(pick=Pick("targets", "figurehead:{them}:{item}")),),
    "assassinate": (Gesture(source="assassin:{me}", target="figurehead:{them}:{target}"),),
}
