"""Royal Assassin Duel: the two-player Royal Assassin (rules, bots, terminal drawing)."""

from domain.bots import from_view, random_policy
from domain.capabilities import GameEntry
from domain.games.royal_assassin_duel.bots import best_choice, greedy_choice
from domain.games.royal_assassin_duel.render import render
from domain.games.royal_assassin_duel.rules import RoyalAssassinDuel

ROYAL_ASSASSIN_DUEL = RoyalAssassinDuel()

GAME = GameEntry(
    ruleset=ROYAL_ASSASSIN_DUEL,
    policies={
        "random": random_policy,  # looks only at the legal moves it is given
        "greedy": from_view(greedy_choice),
        "best": from_view(best_choice),
    },
    renderer=render,
    example_seed="duel",
)
