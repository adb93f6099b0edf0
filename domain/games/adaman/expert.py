"""The `best` Adaman bot: a sampled two-step lookahead that reads only what the player sees.

It is given the seat's view and the game's options, never the state, so it cannot peek at the
stock: the unseen cards are deduced as the deck in use minus every card shown (rows, controlled
pile, discard pile), exactly as a player would. For each promising move it deals the refill a
few times from a random order of the unseen cards (drawn from the deal stream, label `bot`),
plays the best follow-up in each sample, and keeps the move with the best average position.

The position evaluation's weights were tuned by simulation (docs/rules/adaman.md, Bots).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from itertools import combinations
from typing import Any

from domain.deal import DealRandom
from domain.games.adaman.decktet import BY_CODE, EXCUSE, DecktetCard
from domain.games.adaman.rules import PALACE_LIMIT, ROW_SIZE, Options, State, deck_for, real_cards
from domain.ruleset import Ruleset

Json = dict[str, Any]
Cards = list[DecktetCard]

WEIGHTS = {
    "controlled": 40.0,  # per personality controlled
    "resources": 0.2,  # per rank held in resources
    "cover": 8.0,  # per visible personality the resources can control now
    "future": 6.0,  # per unseen personality the resources could control
    "palace": 8.0,  # per card in the palace
    "risk": 30.0,  # scale of the palace-overflow penalty, exp(expected palace - 6)
}
SAMPLES = 4  # refills dealt per move examined
CANDIDATES = 6  # moves examined in depth, the best by static evaluation
LOSS = -1000.0  # a sixth palace card
STUCK = -800.0  # no move left: lost


def cheapest(target: DecktetCard, resources: Sequence[DecktetCard]) -> int | None:
    """The lowest rank total that controls `target`, or None when the resources cannot."""
    ranks = [r.rank for r in resources if r.suit_mask & target.suit_mask]
    if sum(ranks) < target.rank:
        return None
    best = sum(ranks)
    for size in range(1, len(ranks)):
        for group in combinations(ranks, size):
            total = sum(group)
            if target.rank <= total < best:
                best = total
    return best


def minimal_payments(
    target: DecktetCard, resources: Sequence[DecktetCard]
) -> list[tuple[Any, ...]]:
    """Payments from which no card could be dropped: overpaying beyond them never helps now."""
    eligible = [r for r in resources if r.suit_mask & target.suit_mask]
    found: list[tuple[Any, ...]] = []
    for size in range(1, len(eligible) + 1):
        for group in combinations(eligible, size):
            total = sum(r.rank for r in group)
            if total >= target.rank and all(total - r.rank < target.rank for r in group):
                found.append(group)
    return found


def evaluate(
    capital: Cards, palace: Cards, resources: Cards, controlled: int, unseen: Cards
) -> float:
    """How promising a position is before its refill, from the player's knowledge only."""
    w = WEIGHTS
    unseen_personalities = [c for c in unseen if c.is_personality]
    n, p = len(unseen), len(unseen_personalities)
    # The capital is refilled first; then each resource dealt may bring personalities along.
    drawn_by_capital = min(max(0, ROW_SIZE - len(capital)), n)
    p_left = p - drawn_by_capital * (p / n if n else 0.0)
    others_left = (n - drawn_by_capital) - p_left
    resources_needed = max(0, ROW_SIZE - len(resources))
    expected = resources_needed * p_left / (others_left + 1) if others_left > 0 else p_left
    risk = w["risk"] * math.exp(len(palace) + expected - PALACE_LIMIT)
    cover = sum(
        1 for t in (*palace, *capital) if t.is_personality and cheapest(t, resources) is not None
    )
    future = sum(
        1
        for t in unseen_personalities
        if sum(r.rank for r in resources if r.suit_mask & t.suit_mask) >= t.rank
    )
    return (
        w["controlled"] * controlled
        + w["resources"] * sum(r.rank for r in resources)
        + w["cover"] * cover
        + w["future"] * future
        - w["palace"] * len(palace)
        - risk
    )


def _control(
    capital: Cards,
    palace: Cards,
    resources: Cards,
    controlled: int,
    target: DecktetCard,
    paid: Sequence[DecktetCard],
) -> tuple[Cards, Cards, Cards, int]:
    capital, palace, resources = capital[:], palace[:], resources[:]
    for card in paid:
        resources.remove(card)
    (palace if target in palace else capital).remove(target)
    if target.is_personality:
        controlled += 1
    else:
        resources.append(target)
    return capital, palace, resources, controlled


def _refill(
    capital: Cards, palace: Cards, resources: Cards, order: Cards
) -> tuple[Cards, Cards, Cards, Cards] | None:
    """The rows after dealing from `order`; None when a sixth card reaches the palace."""
    capital, palace, resources = capital[:], palace[:], resources[:]
    i = 0
    while len(capital) < ROW_SIZE and i < len(order):
        capital.append(order[i])
        i += 1
    while len(resources) < ROW_SIZE and i < len(order):
        card = order[i]
        i += 1
        if card.is_personality:
            palace.append(card)
            if len(palace) >= PALACE_LIMIT:
                return None
        else:
            resources.append(card)
    return capital, palace, resources, order[i:]


def heuristic(state: State, seat: int) -> float:
    """The greedy bot's guide: `evaluate`, with the stock used only as the set of unseen
    cards (which a player can deduce), never in its order."""
    if state.status == "won":
        return 1e6
    if state.status != "playing":
        return -1e6
    return evaluate(
        real_cards(state.capital),
        state.palace,
        real_cards(state.resources),
        len(state.controlled),
        [c for c in state.stock if c is not EXCUSE],
    )


class AdamanExpert:
    """Chooses a move from a view; one instance per game, holding its random stream."""

    def __init__(self, rng: DealRandom) -> None:
        self.rng = rng

    def policy(self, ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Json]) -> Json:
        """As a bot policy: the seat's view and the options are all it is handed."""
        return self.choose(ruleset.view(state, seat), asdict(state.options))

    def choose(self, view: Json, options: Mapping[str, Any]) -> Json:
        legal: list[Json] = [m for m in view["legal_moves"] if m["type"] != "resign"]
        if len(legal) <= 1:
            return legal[0] if legal else {"type": "resign"}
        seen = {
            *view["capital"],
            *view["palace"],
            *view["resources"],
            *view["controlled"],
            *view["discard"],
        }
        deck = deck_for(Options(**options))
        unseen = [c for c in deck if c.code not in seen and c is not EXCUSE]
        capital = [BY_CODE[c] for c in view["capital"] if c != EXCUSE.code]
        palace = [BY_CODE[c] for c in view["palace"]]
        resources = [BY_CODE[c] for c in view["resources"] if c != EXCUSE.code]
        controlled = len(view["controlled"])
        total = controlled + view["personalities_left"]
        if legal[0]["type"] == "excuse":
            return max(
                legal,
                key=lambda m: self._excuse_value(
                    view, m, capital, palace, resources, controlled, unseen
                ),
            )
        scored = []
        for move in legal:
            target = BY_CODE[move["target"]]
            paid = [BY_CODE[c] for c in move["with"]]
            after = _control(capital, palace, resources, controlled, target, paid)
            if after[3] == total:
                return move  # the last personality: won
            scored.append((evaluate(*after, unseen), move, after))
        scored.sort(key=lambda s: -s[0])
        orders = [self.rng.shuffle(unseen) for _ in range(SAMPLES)]
        best_move, best_value = scored[0][1], -math.inf
        for _, move, after in scored[:CANDIDATES]:
            value = sum(self._after_refill(*after, order) for order in orders) / SAMPLES
            if value > best_value:
                best_move, best_value = move, value
        return best_move

    @staticmethod
    def _after_refill(
        capital: Cards, palace: Cards, resources: Cards, controlled: int, order: Cards
    ) -> float:
        dealt = _refill(capital, palace, resources, order)
        if dealt is None:
            return LOSS
        capital, palace, resources, rest = dealt
        best = -math.inf
        for target in (*capital, *palace):
            for paid in minimal_payments(target, resources):
                after = _control(capital, palace, resources, controlled, target, paid)
                best = max(best, evaluate(*after, rest))
        return best if best > -math.inf else STUCK + WEIGHTS["controlled"] * controlled

    @staticmethod
    def _excuse_value(
        view: Json,
        move: Json,
        capital: Cards,
        palace: Cards,
        resources: Cards,
        controlled: int,
        unseen: Cards,
    ) -> float:
        capital, resources = capital[:], resources[:]
        if move["card"] is not None:
            card = BY_CODE[move["card"]]
            source, dest = (
                (resources, capital) if view["excuse"] == "capital" else (capital, resources)
            )
            source.remove(card)
            dest.append(card)
        return evaluate(capital, palace, resources, controlled, unseen)
