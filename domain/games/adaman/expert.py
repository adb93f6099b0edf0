"""The `best` Adaman bot: a sampled two-step lookahead that reads only what the player sees.

It is given the seat's view and the game's options, never the state, so it cannot peek at the
stock: the unseen cards are deduced as the deck in use minus every card shown (rows, controlled
pile, discard pile), exactly as a player would. For each promising move it deals the refill a
few times from a random order of the unseen cards (drawn from the deal stream, label `bot`),
plays the best follow-up in each sample, and keeps the move with the best average position. A
sample in which the exact solver's bounds prove the refilled position lost, were that order
the deal, counts as stuck: the bot borrows the solver's knowledge of what cannot be paid for,
never the real stock.

The position evaluation's weights were tuned by simulation (docs/rules/adaman.md, Bots).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from functools import partial
from typing import Any

from domain.deal import DealRandom
from domain.errors import Json
from domain.games.adaman.decktet import BY_CODE, CARDS, EXCUSE, DecktetCard
from domain.games.adaman.rules import PALACE_LIMIT, ROW_SIZE, Options, State, deck_for, real_cards
from domain.games.adaman.solver import HAVE_LANES, RANK, SUIT, Solver, card_bits, minimal_groups
from domain.ruleset import Ruleset

Cards = list[DecktetCard]

WEIGHTS = {
    "controlled": 40.0,  # per personality controlled
    "resources": 0.2,  # per rank held in resources
    "cover": 8.0,  # per visible personality the resources can control now
    "future": 6.0,  # per unseen personality the resources could control
    "palace": 8.0,  # per card in the palace
    "risk": 30.0,  # scale of the palace-overflow penalty, exp(expected palace - 6)
}
SAMPLES = 6  # refills dealt per move examined
CANDIDATES = 6  # moves examined in depth, the best by static evaluation
LOSS = -1000.0  # a sixth palace card
STUCK = -800.0  # no move left: lost


Need = tuple[int, int]  # a personality as `score` reads it: (its lane's shift, its rank)
NEEDS: list[Need] = [(16 * c.suit_mask, c.rank) for c in CARDS]


def _mask(cards: Cards) -> int:
    return sum(1 << c.index for c in cards)


def share_lanes(cards: Sequence[DecktetCard]) -> int:
    """The cards' ranks summed per set of suits, one 16-bit lane per set (the solver's
    HAVE_LANES): lane U holds the rank of the cards sharing a suit with U, so whether they
    can pay for a target is one shift and compare, whatever their number."""
    return sum(HAVE_LANES[c.index] for c in cards)


class Unseen:
    """What the evaluation needs of the cards still to come, worked out once for every
    position that shares them (every follow-up of one sampled refill)."""

    __slots__ = ("_risks", "count", "personalities")

    def __init__(self, unseen: Sequence[DecktetCard]) -> None:
        self.count = len(unseen)
        self.personalities = [NEEDS[c.index] for c in unseen if c.is_personality]
        self._risks: dict[tuple[int, int, int], float] = {}

    def risk(self, capital_size: int, palace_size: int, resources_size: int) -> float:
        """The palace-overflow penalty: exponential in the palace size expected after the
        refill (remembered: a refill's follow-ups differ in a row's size by a card at most)."""
        key = (capital_size, palace_size, resources_size)
        found = self._risks.get(key)
        if found is None:
            n, p = self.count, len(self.personalities)
            # The capital is refilled first; then each resource dealt may bring personalities.
            drawn_by_capital = min(max(0, ROW_SIZE - capital_size), n)
            p_left = p - drawn_by_capital * (p / n if n else 0.0)
            others_left = (n - drawn_by_capital) - p_left
            resources_needed = max(0, ROW_SIZE - resources_size)
            expected = resources_needed * p_left / (others_left + 1) if others_left > 0 else p_left
            found = WEIGHTS["risk"] * math.exp(palace_size + expected - PALACE_LIMIT)
            self._risks[key] = found
        return found


def score(
    controlled: int,
    capital_size: int,
    palace_size: int,
    persons_in_view: Sequence[Need],
    resources_size: int,
    resources_rank: int,
    lanes: int,
    unseen: Unseen,
) -> float:
    """`evaluate` on a position's numbers alone: the bot's lookahead scores thousands of
    positions a game, each a control and refill away from the last, and rebuilding rows of
    cards for each cost most of its time."""
    w = WEIGHTS
    cover = len([1 for shift, rank in persons_in_view if (lanes >> shift) & 0xFFFF >= rank])
    future = len([1 for shift, rank in unseen.personalities if (lanes >> shift) & 0xFFFF >= rank])
    return (
        w["controlled"] * controlled
        + w["resources"] * resources_rank
        + w["cover"] * cover
        + w["future"] * future
        - w["palace"] * palace_size
        - unseen.risk(capital_size, palace_size, resources_size)
    )


def evaluate(
    capital: Cards, palace: Cards, resources: Cards, controlled: int, unseen: Cards
) -> float:
    """How promising a position is before its refill, from the player's knowledge only: the
    personalities controlled, the resources' rank, how many visible and unseen
    personalities the resources could pay for, and the risk of a sixth palace card."""
    return score(
        controlled,
        len(capital),
        len(palace),
        [NEEDS[t.index] for t in (*palace, *capital) if t.is_personality],
        len(resources),
        sum(r.rank for r in resources),
        share_lanes(resources),
        Unseen(unseen),
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


_PAYMENTS: dict[tuple[tuple[int, ...], int], list[tuple[int, int, int]]] = {}


def _payments(eligible: tuple[int, ...], rank: int) -> list[tuple[int, int, int]]:
    """Each minimal payment from `eligible` (card indexes, highest rank first) reaching
    `rank`, as what it takes from the resources: (its share lanes, its rank, its size).
    Memoised: a resource row changes by a card or two a turn, and every sampled refill of
    every candidate move asks again."""
    key = (eligible, rank)
    found = _PAYMENTS.get(key)
    if found is None:
        found = []
        for group in minimal_groups(list(eligible), rank):
            paid = card_bits(group)
            found.append((sum(HAVE_LANES[i] for i in paid), sum(RANK[i] for i in paid), len(paid)))
        if len(_PAYMENTS) > 50_000:
            _PAYMENTS.clear()
        _PAYMENTS[key] = found
    return found


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
        # Each sampled order as the solver would see it, were it the deal: its bounds tell
        # which refills leave that order lost whatever follows.
        solvers = [Solver(order) for order in orders]
        best_move, best_value = scored[0][1], -math.inf
        for _, move, after in scored[:CANDIDATES]:
            value = sum(map(partial(self._after_refill, *after), orders, solvers)) / SAMPLES
            if value > best_value:
                best_move, best_value = move, value
        return best_move

    @staticmethod
    def _after_refill(
        capital: Cards,
        palace: Cards,
        resources: Cards,
        controlled: int,
        order: Cards,
        solver: Solver,
    ) -> float:
        """The best follow-up's score once the rows are refilled from `order`; as bad as
        being stuck when the solver's bounds (`solver` is `order` as a deal) prove the refilled
        position lost under that order. Only minimal payments are tried: overpaying only
        lowers the resources' rank and what they cover.

        The bounds see what the evaluation cannot: that the personalities still to come, in
        this order, need more of some suits than the cards still to come can pay. On 6,000
        deals they took the bot from 13.8 % to 19.7 % won at the same samples. An unseen
        Excuse is not in `order`, so with the Excuse option they are a little pessimistic."""
        dealt = _refill(capital, palace, resources, order)
        if dealt is None:
            return LOSS
        capital, palace, resources, rest = dealt
        stuck = STUCK + WEIGHTS["controlled"] * controlled
        position = (_mask(capital), _mask(palace), _mask(resources), len(order) - len(rest), 0)
        if solver.hopeless(position):
            return stuck
        unseen = Unseen(rest)
        lanes = share_lanes(resources)
        rank = sum(r.rank for r in resources)
        persons = [t for t in (*palace, *capital) if t.is_personality]
        needs = [NEEDS[t.index] for t in persons]
        by_rank = sorted((r.index for r in resources), key=RANK.__getitem__, reverse=True)
        capital_size, palace_size, resources_size = len(capital), len(palace), len(resources)
        best = -math.inf
        for target in (*capital, *palace):
            person = target.is_personality
            in_capital = target in capital
            view = [NEEDS[t.index] for t in persons if t is not target] if person else needs
            suits = target.suit_mask
            eligible = tuple(i for i in by_rank if SUIT[i] & suits)
            for paid_lanes, paid_rank, paid_count in _payments(eligible, target.rank):
                after_lanes = lanes - paid_lanes
                after_rank = rank - paid_rank
                after_size = resources_size - paid_count
                if not person:  # a bought card joins the resources
                    after_lanes += HAVE_LANES[target.index]
                    after_rank += target.rank
                    after_size += 1
                value = score(
                    controlled + person,
                    capital_size - in_capital,
                    palace_size - (not in_capital),
                    view,
                    after_size,
                    after_rank,
                    after_lanes,
                    unseen,
                )
                if value > best:
                    best = value
        return best if best > -math.inf else stuck

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
