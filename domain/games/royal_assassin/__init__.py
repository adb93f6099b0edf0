"""Royal Assassin solitaire: rules, the greedy bot's evaluation and the terminal drawing."""

from domain.bots import greedy_policy, random_policy
from domain.capabilities import GameEntry
from domain.games.royal_assassin.evaluation import heuristic
from domain.games.royal_assassin.render import render
from domain.games.royal_assassin.rules import RoyalAssassin

_greedy = greedy_policy(heuristic)

GAME = GameEntry(
    ruleset=RoyalAssassin(),
    # No stronger bot yet: `best` is the greedy one-ply search.
    policies={"random": random_policy, "greedy": _greedy, "best": _greedy},
    renderer=render,
)
