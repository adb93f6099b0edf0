"""Risus Royale, a dice solitaire on a 4x4 map (rules, tables, bots, terminal drawing)."""

from domain.bots import from_view, random_policy
from domain.capabilities import GameEntry
from domain.games.risus_royale.bots import best_choice, greedy_choice
from domain.games.risus_royale.render import render
from domain.games.risus_royale.rules import RisusRoyale

RISUS_ROYALE = RisusRoyale()

GAME = GameEntry(
    ruleset=RISUS_ROYALE,
    policies={
        "random": random_policy,  # looks only at the legal moves it is given
        "greedy": from_view(greedy_choice),
        "best": from_view(best_choice),
    },
    renderer=render,
    example_seed="rr-1573",
    rating_playouts=100,  # a long game: 200 took 23 s on an emulated 512 MB Lambda
    group_by=lambda view: f"goal {view['goal']['number']}",
)
