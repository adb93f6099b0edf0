"""How Royal Assassin's moves are made on its `tableau` board (domain/gestures.py): the stock
is clicked to draw; the current card, the reserve's top card or a Joker in hand is picked up
and put on a column (or the current card on the reserve)."""

from __future__ import annotations

from domain.gestures import Gesture, Gestures

GESTURES: Gestures = {
    "draw": (Gesture(target="stock"),),
    "attack": (Gesture(source="current", target="column:{column}"),),
    "reserve": (Gesture(source="current", target="reserve"),),
    "continue": (Gesture(source="reserve-top", target="column:{column}"),),
    "joker": (Gesture(source="joker", target="column:{column}"),),
}
