"""Tally: the test-only game of three or four seats (rules, bots, drawing), registered only by tests
(`tests.games.registered`), never in production."""

from __future__ import annotations

from domain.bots import from_view
from domain.capabilities import GameEntry
from domain.deal import DealRandom
from domain.errors import Json
from tests.games.tally.rules import Tally, value

TALLY = Tally()


def _random_choice(view: Json, rng: DealRandom) -> Json:
    plays = [m for m in view["legal_moves"] if m["type"] != "resign"]
    return plays[rng.uniform(len(plays))]


def _greedy_choice(view: Json, rng: DealRandom) -> Json:
    """The highest card of the hand: all a seat can know (its view) and all that counts."""
    plays = [m for m in view["legal_moves"] if m["type"] != "resign"]
    return max(plays, key=lambda m: value(m["card"]))


def render(view: Json) -> str:
    """Each seat's pile and total, and the viewer's hand."""
    lines = [f"stock {view['stock_count']}   to move: {view['to_move'] or '-'}"]
    for seat, pile in enumerate(view["piles"]):
        lines.append(f"  seat {seat + 1}: {' '.join(pile) or '-'}  ({view['totals'][seat]})")
    if view["hand"] is not None:
        lines.append(f"  your hand: {' '.join(view['hand'])}")
    return "\n".join(lines)


GAME = GameEntry(
    ruleset=TALLY,
    policies={"random": from_view(_random_choice), "greedy": from_view(_greedy_choice)},
    renderer=render,
    example_seed="tally",
)
