"""Royal Ace-assin: two seats, hidden hands, sealed simultaneous flips (rules, bots, drawing)."""

from domain.bots import from_view
from domain.capabilities import GameEntry
from domain.games.royal_ace_assin.bots import best_choice, greedy_choice, random_choice
from domain.games.royal_ace_assin.render import render
from domain.games.royal_ace_assin.rules import RoyalAceAssin

ROYAL_ACE_ASSIN = RoyalAceAssin()

GAME = GameEntry(
    ruleset=ROYAL_ACE_ASSIN,
    policies={
        "random": from_view(random_choice),
        "greedy": from_view(greedy_choice),
        "best": from_view(best_choice),
    },
    renderer=render,
    example_seed="example",
)
