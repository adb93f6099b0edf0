"""An exact Adaman solver: knows the deck order and decides whether the deal can be won.

Depth-first search with memoisation on a compact model of the game: a position is five
integers (capital, palace and resources as bitmasks over card indexes, how many cards are
dealt, where the Excuse waits). The model's moves and refills are the engine's rules
(domain/games/adaman.py) restated on bitmasks for speed; a test checks, position by position,
that the two produce exactly the same successors.

Overpaying is searched too: with a fixed deck order, discarding more resources changes which
later cards become resources, so no payment is dominated in general. One sound pruning rule:
a position is hopeless when, for some set of suits, the personalities still to control whose
suits all lie in it need more rank than all the cards that could still pay for them (the
fractional transportation bound). A node budget makes the search give up honestly
(`complete=False`) instead of running for ever.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.algorithms.search import Solution, solve
from domain.errors import Json
from domain.games.adaman.decktet import CARDS, EXCUSE, DecktetCard
from domain.games.adaman.rules import PALACE_LIMIT, ROW_SIZE, Adaman, Move, State

RANK = [c.rank for c in CARDS]
SUIT = [c.suit_mask for c in CARDS]
PERSON = [c.is_personality for c in CARDS]
CODE = [c.code for c in CARDS]
EXCUSE_BIT = 1 << EXCUSE.index
ALL_PERSONS = sum(1 << c.index for c in CARDS if c.is_personality)
NO_EXCUSE, IN_CAPITAL, IN_RESOURCES = 0, 1, 2
assert len(CARDS) <= 48, "Solver.key packs card masks into 48-bit fields"

Position = tuple[int, int, int, int, int]  # capital, palace, resources, dealt, excuse
Spec = tuple[str, int, tuple[int, ...]]  # ("control", target, paid) or ("excuse", card or -1, ())

# The transportation bound, packed: lane U (16 bits at 16 * U) of a card's NEED_LANES holds its
# rank when its suits all lie in the suit set U; of HAVE_LANES, its rank when it shares a suit
# with U. Summing lanes over cards and subtracting, a lane whose bias bit is cleared is a set
# of suits whose personalities need more than can be paid (no lane exceeds 0x7FFF).
_LANES = range(64)
NEED_LANES = [sum(RANK[i] << (16 * u) for u in _LANES if SUIT[i] & ~u == 0) for i in range(45)]
HAVE_LANES = [sum(RANK[i] << (16 * u) for u in _LANES if SUIT[i] & u) for i in range(45)]
LANE_BIAS = sum(0x8000 << (16 * u) for u in _LANES)


_BITS: dict[int, tuple[int, ...]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    """The card indexes in `mask`, ascending (memoised: the same small masks recur)."""
    found = _BITS.get(mask)
    if found is None:
        out = []
        rest = mask
        while rest:
            low = rest & -rest
            out.append(low.bit_length() - 1)
            rest ^= low
        if len(_BITS) > 32_768:
            _BITS.clear()
        found = _BITS[mask] = tuple(out)
    return found


def _count(mask: int) -> int:
    return mask.bit_count()


_SUBSETS: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _subsets(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every non-empty subset, each in the order given (memoised: resources repeat a lot)."""
    found = _SUBSETS.get(cards)
    if found is None:
        n = len(cards)
        found = [
            tuple(cards[i] for i in range(n) if choice >> i & 1) for choice in range(1, 1 << n)
        ]
        if len(_SUBSETS) > 100_000:
            _SUBSETS.clear()
        _SUBSETS[cards] = found
    return found


class Solver:
    """One deal as a search problem (domain/algorithms/search.py). `deck` is the full deal,
    top first, as the engine dealt it."""

    def __init__(self, deck: list[DecktetCard]) -> None:
        self.deck = [c.index for c in deck]
        # Masks of the cards not yet dealt, by how many are dealt.
        n = len(self.deck)
        self.rest = [0] * (n + 1)
        # The bound's lanes for the undealt cards, by how many are dealt: summed once, here.
        self.rest_need = [0] * (n + 1)
        self.rest_have = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            card = self.deck[i]
            self.rest[i] = self.rest[i + 1] | (1 << card)
            person = PERSON[card]
            self.rest_need[i] = self.rest_need[i + 1] + (NEED_LANES[card] if person else 0)
            excluded = person or card == EXCUSE.index
            self.rest_have[i] = self.rest_have[i + 1] + (0 if excluded else HAVE_LANES[card])

    # ---- positions -----------------------------------------------------------------------------

    @staticmethod
    def position(state: State, dealt: int) -> Position:
        excuse = {None: NO_EXCUSE, "capital": IN_CAPITAL, "resources": IN_RESOURCES}
        return (
            sum(1 << c.index for c in state.capital),
            sum(1 << c.index for c in state.palace),
            sum(1 << c.index for c in state.resources),
            dealt,
            excuse[state.excuse_row],
        )

    def refill(
        self, capital: int, palace: int, resources: int, dealt: int, excuse: int
    ) -> Position | None:
        """Capital to five real cards, then resources (personalities to the palace); None when
        a sixth card reaches the palace."""
        deck, n = self.deck, len(self.deck)
        while dealt < n and _count(capital & ~EXCUSE_BIT) < ROW_SIZE:
            card = deck[dealt]
            dealt += 1
            capital |= 1 << card
            if card == EXCUSE.index:
                excuse = IN_CAPITAL
        while dealt < n and _count(resources & ~EXCUSE_BIT) < ROW_SIZE:
            card = deck[dealt]
            dealt += 1
            if PERSON[card]:
                palace |= 1 << card
                if _count(palace) >= PALACE_LIMIT:
                    return None
            else:
                resources |= 1 << card
                if card == EXCUSE.index:
                    excuse = IN_RESOURCES
        return capital, palace, resources, dealt, excuse

    @staticmethod
    def key(pos: Position) -> int:
        """The five integers packed into one (card masks are 45 bits wide): a memo of a
        million positions then holds a million small ints instead of a million tuples of
        five, a third of the memory."""
        capital, palace, resources, dealt, excuse = pos
        return capital | palace << 48 | resources << 96 | dealt << 144 | excuse << 152

    @staticmethod
    def move_json(spec: Spec) -> Json:
        """A move as the engine writes it (built only for the winning line)."""
        kind, card, paid = spec
        if kind == "excuse":
            return Move("excuse", None if card < 0 else CODE[card]).to_json()
        return Move("control", CODE[card], tuple(CODE[r] for r in paid)).to_json()

    def successors(self, pos: Position) -> list[tuple[Spec, Position | None]]:
        """Every move but resign, as a plain tuple, and where it leads (None: lost utterly),
        in search order."""
        capital, palace, resources, dealt, excuse = pos
        out: list[tuple[Spec, Position | None]] = []
        if excuse:
            if excuse == IN_CAPITAL:
                movable = resources & ~EXCUSE_BIT
            else:
                movable = capital & ~EXCUSE_BIT & ~ALL_PERSONS
            for card in _bits(movable):
                bit = 1 << card
                if excuse == IN_CAPITAL:
                    nxt = (capital & ~EXCUSE_BIT | bit, palace, resources & ~bit, dealt, 0)
                else:
                    nxt = (capital & ~bit, palace, resources & ~EXCUSE_BIT | bit, dealt, 0)
                out.append((("excuse", card, ()), nxt))
            if not movable:
                bare = (capital & ~EXCUSE_BIT, palace, resources & ~EXCUSE_BIT, dealt, 0)
                out.append((("excuse", -1, ()), bare))
            return out
        payer_bits = _bits(resources & ~EXCUSE_BIT)  # ascending index: canonical order
        scored = []
        for target in _bits((capital & ~EXCUSE_BIT) | palace):
            rank, suits, bit = RANK[target], SUIT[target], 1 << target
            eligible = [r for r in payer_bits if SUIT[r] & suits]
            if sum(RANK[r] for r in eligible) < rank:
                continue
            person = PERSON[target]
            in_palace = 0 if bit & palace else 1
            rest_capital, rest_palace = capital & ~bit, palace & ~bit
            for paid in _subsets(tuple(eligible)):
                total = sum(RANK[r] for r in paid)
                if total < rank:
                    continue
                new_resources = resources
                for r in paid:
                    new_resources &= ~(1 << r)
                if not person:
                    new_resources |= bit
                new = self.refill(rest_capital, rest_palace, new_resources, dealt, excuse)
                # Search order: personalities first (palace ones first), least overpaid first.
                order = (0 if person else 1, in_palace, total - rank)
                scored.append((order, ("control", target, paid), new))
        scored.sort(key=lambda item: item[0])
        out.extend((spec, new) for _, spec, new in scored)
        return out

    def won(self, pos: Position) -> bool:
        capital, palace, _, dealt, _ = pos
        return not ((capital | palace | self.rest[dealt]) & ALL_PERSONS)

    def hopeless(self, pos: Position) -> bool:
        """The transportation bound: sound, since paying cards only ever leave play.

        For every set of suits U: the personalities still to control whose suits all lie in U
        must not need more rank than the cards that could still pay and share a suit with U.
        All 64 sets are checked at once, one 16-bit lane per set (see _LANES below).
        """
        capital, palace, resources, dealt, _ = pos
        need = self.rest_need[dealt]
        for card in _bits((capital | palace) & ALL_PERSONS):
            need += NEED_LANES[card]
        have = self.rest_have[dealt]
        for card in _bits((resources | capital) & ~ALL_PERSONS & ~EXCUSE_BIT):
            have += HAVE_LANES[card]
        return (have + LANE_BIAS - need) & LANE_BIAS != LANE_BIAS


def solve_deal(
    ruleset: Adaman,
    seed: str,
    options: Mapping[str, object] | None = None,
    node_budget: int | None = 1_000_000,
) -> Solution:
    """Solve the deal of `seed`. The winning line lists only real choices (forced moves are
    the engine's), so it replays as is with `Ruleset.replay` or `court replay`."""
    full = ruleset.validate_options(options)
    deck = ruleset.deal_cards(seed, full)
    state = ruleset.start(seed, full)
    if state.status == "won":
        return Solution(True, [], 0)
    if state.status != "playing":
        return Solution(False, None, 0)
    solver = Solver(deck)
    root = solver.position(state, len(deck) - len(state.stock))
    return solve(solver, root, node_budget, ruleset, state, solver.move_json)
