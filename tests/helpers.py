"""Shared test helpers: stacked decks and effect filters."""

from __future__ import annotations

from pathlib import Path

from domain.cards import JOKERS, STANDARD_DECK, card
from domain.errors import IllegalMove
from domain.games.royal_assassin.rules import Options, RoyalAssassin, State
from domain.transition import Effect, Transition

RA = RoyalAssassin()


def stacked(*top: str, jokers: bool = False) -> list:
    """A full deck whose first cards (top first) are `top`, the rest in canonical order."""
    chosen = [card(code) for code in top]
    universe = list(STANDARD_DECK) + (list(JOKERS) if jokers else [])
    assert len(set(chosen)) == len(chosen), "a card appears twice in the stacked top"
    return chosen + [c for c in universe if c not in chosen]


def deal(*top: str, **options) -> tuple[State, list]:
    """Set up a stacked deck and play the forced moves, as `start` does for a seed."""
    opts = Options(**options)
    state = RA.set_up(stacked(*top, jokers=opts.jokers_in_deck), opts)
    return settle(RA, state)


def settle(ruleset, state) -> Transition:
    """Every forced move played from a hand-built `state` (left untouched), with its effects:
    what `start` does for a dealt one. Test-only: the rules' public path never needs it."""
    new_state = state.copy()
    effects: list[Effect] = []
    ruleset._play_forced(new_state, effects)
    return Transition(new_state, effects)


def apply_alone(ruleset, state, seat: int, move: dict):
    """`move` alone, the forced moves after it left unplayed: to check a search model that
    plays forced moves itself against the rules. Test-only, like `settle`."""
    typed = ruleset.parse_move(state, seat, move)
    if typed not in ruleset._legal(state, seat):
        raise IllegalMove(ruleset._why_illegal(state, seat, typed))
    new_state = state.copy()
    ruleset._play(new_state, seat, typed, [])
    return new_state


def play(state: State, move: dict) -> tuple[State, list]:
    return RA.apply(state, 0, move)


def kinds(effects: list) -> list[str]:
    return [e["type"] for e in effects]


def only(effects: list, kind: str) -> list[dict]:
    return [e for e in effects if e["type"] == kind]


def column(state: State, name: str) -> list[tuple[str, str]]:
    view = RA.view(state, 0)
    return [(e["card"], e["role"]) for e in view["columns"][name]]


def strength(state: State, name: str) -> int:
    return RA.view(state, 0)["pretenders"][name]["strength"]


def legal(state: State) -> list[dict]:
    return RA.legal_moves(state, 0)


def strings_in(value: object) -> set[str]:
    """Every string anywhere in a JSON value: what a view shows, for no-leak checks. (A loop,
    not a recursive generator: the secrecy properties call it on every response, and it was
    a tenth of their time.)"""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


RISUS_VECTORS = Path(__file__).resolve().parent / "vectors" / "risus-royale-vectors.jsonl"
"""The spec's Risus Royale vectors, vendored (tests/vectors/README.md)."""
