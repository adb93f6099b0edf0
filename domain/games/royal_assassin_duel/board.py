"""How Royal Assassin Duel's moves are made on its `facing-tableaux` board
(domain/gestures.py): a card of the hand is put on a column (an enemy one to attack or
assassinate, your own to defend, your column of its suit to present a royal) or on your
reserve; your Joker on an enemy column; in a reaction, your reserve's top card on the column it
goes to (your own column of its suit defends, else it continues an attack)."""

from __future__ import annotations

from domain.gestures import Gesture, Gestures

_HAND = "card:{card}"
GESTURES: Gestures = {
    "attack": (Gesture(source=_HAND, target="column:{them}:{column}"),),
    "defend": (Gesture(source=_HAND, target="column:{me}:{column}"),),
    "present": (Gesture(source=_HAND, target="column:{me}:{source.suit}"),),
    "assassinate": (Gesture(source=_HAND, target="column:{them}:{column}"),),
    "discard": (Gesture(source=_HAND, target="reserve:{me}"),),
    "joker": (Gesture(source="joker:{me}", target="column:{them}:{column}"),),
    "react": (
        Gesture(
            source="reserve-top:{me}",
            target="column:{me}:{column}",
            when=("{column}", "{source.suit}"),
        ),
        Gesture(source="reserve-top:{me}", target="column:{them}:{column}"),
    ),
}
