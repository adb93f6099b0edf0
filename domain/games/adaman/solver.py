"""An exact Adaman solver: knows the deck order and decides whether the deal can be won.

Depth-first search with memoisation on a compact model of the game: a position is five
integers (capital, palace and resources as bitmasks over card indexes, how many cards are
dealt, where the Excuse waits). The model's moves and refills are the engine's rules
(domain/games/adaman/rules.py) restated on bitmasks for speed; a test checks, position by position,
that every move the model keeps is the engine's, leading to the same position.

Overpaying is searched too while cards remain to be dealt: with a fixed deck order,
discarding more resources changes which later cards become resources, so no payment is
dominated in general. Three kinds of move are, and are left out (each has a test):

- spending a card where a weaker spare one would do (no higher rank, no suit it lacks): the
  refill is the same, and the stronger card kept can do whatever the weaker one could;
- spending a card beyond need when the refill deals out the stock either way: the same cards
  land in the same rows, and with nothing more to come a card more in hand never hurts;
- once the stock is out, every payment but the minimal ones, and the controls of
  personalities while some must still be bought first: a buy only ever needs cards a
  personality's control would spend, so a winning line can always buy first and then pay for
  every personality at once, which `_cover` finds directly when the hand can.

The Excuse, which moves a card between the rows for free, turns the first two off while it
is still to be played.

A position is pruned as hopeless by four sound bounds on what is left to pay for (`hopeless`
and the `short_*` methods): the rank total, the fractional transportation bound over every
set of suits, the same with whole cards (each pays for one personality), and, near the end
of the stock, the cards in hand and still to come alone. Proving a deal lost is what costs:
the bounds took the share of `court solve --games 100` decided at the default budget from 63
to 82 of 100, the limited discrepancy search (domain/algorithms/search.py) to 88, and the
dominated moves, the endgame key, the in-hand bound near the end and early discrepancies
first to 89 (docs/rules/adaman.md). A node budget makes the search give up honestly
(`complete=False`) instead of running for ever.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

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


def _dominates(strong: int, weak: int) -> bool:
    """As a resource, card `strong` can do all that `weak` can: no lower rank, every suit of
    it. Ties (the same rank and suits) go to the higher index, so that no two cards dominate
    each other and a chain of swaps always ends."""
    if strong == weak or PERSON[strong] or PERSON[weak] or EXCUSE.index in (strong, weak):
        return False
    if RANK[strong] < RANK[weak] or SUIT[weak] & ~SUIT[strong]:
        return False
    return RANK[strong] > RANK[weak] or SUIT[strong] != SUIT[weak] or strong > weak


WEAKER = [sum(1 << w for w in range(len(CARDS)) if _dominates(s, w)) for s in range(len(CARDS))]
"""Per card, the mask of the cards it dominates as a resource (see `_dominates`)."""


_BITS: dict[int, tuple[int, ...]] = {}


def card_bits(mask: int) -> tuple[int, ...]:
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
        if len(_SUBSETS) > 20_000:
            _SUBSETS.clear()
        _SUBSETS[cards] = found
    return found


_COVERABLE: dict[int, bool] = {}


def _coverable(targets: int, open_targets: int, payers: int) -> bool:
    """Can disjoint groups of `payers` pay for every card of `targets` (all card masks)?

    A group must reach its target's rank and, unless the target is in `open_targets`, share
    a suit with it. Only minimal groups are tried (a group that pays still pays with a spare
    card dropped), for the target with the fewest candidate payers first. Memoised: the same
    few cards meet again and again at the ends of a search.
    """
    if not targets:
        return True
    key = targets << 128 | open_targets << 64 | payers
    found = _COVERABLE.get(key)
    if found is not None:
        return found
    payer_bits = card_bits(payers)
    chosen: tuple[int, tuple[int, ...]] | None = None
    for target in card_bits(targets):
        if open_targets >> target & 1:
            eligible = payer_bits
        else:
            suits = SUIT[target]
            eligible = tuple(r for r in payer_bits if SUIT[r] & suits)
        if sum(RANK[r] for r in eligible) < RANK[target]:
            chosen = None
            break
        if chosen is None or len(eligible) < len(chosen[1]):
            chosen = (target, eligible)
    found = False
    if chosen is not None:
        target, eligible = chosen
        bit = 1 << target
        others, open_others = targets & ~bit, open_targets & ~bit
        found = any(
            _coverable(others, open_others, payers & ~group)
            for group in minimal_groups(
                sorted(eligible, key=RANK.__getitem__, reverse=True), RANK[target]
            )
        )
    if len(_COVERABLE) > 50_000:
        _COVERABLE.clear()
    _COVERABLE[key] = found
    return found


def minimal_groups(
    cards: list[int], rank: int, start: int = 0, total: int = 0, group: int = 0
) -> Iterator[int]:
    """Every minimal group of `cards` (highest rank first) reaching `rank`, as a mask.

    Cards are added in order while the total falls short; the card that reaches `rank` is
    then the group's lowest, and dropping it falls short: so each group met is minimal, and
    every minimal group is met (its cards, highest first, fall short until the last).
    """
    for i in range(start, len(cards)):
        card = cards[i]
        reached = total + RANK[card]
        if reached >= rank:
            yield group | 1 << card
        else:
            yield from minimal_groups(cards, rank, i + 1, reached, group | 1 << card)


IN_HAND_REST = 2
"""`short_in_hand` waits until no more than this many cards but personalities remain to come."""


def _swappable(paid: tuple[int, ...], eligible: int, spare_rank: int) -> bool:
    """Could a card of `paid` be swapped for a weaker card of `eligible` (a mask) left
    unpaid, the total still reaching the target (`spare_rank` is what the payment has over
    it)?"""
    unpaid = eligible
    for r in paid:
        unpaid &= ~(1 << r)
    for r in paid:
        weaker = WEAKER[r] & unpaid
        while weaker:
            low = weaker & -weaker
            if RANK[r] - RANK[low.bit_length() - 1] <= spare_rank:
                return True
            weaker ^= low
    return False


def _cover(targets: int, payers: int) -> tuple[int, int] | None:
    """When disjoint groups of `payers`, each sharing a suit with its target, can pay for
    every card of `targets` at once: one target and its group from such a cover (None if
    there is none, or no target)."""
    if not targets or not _coverable(targets, 0, payers):
        return None
    payer_bits = card_bits(payers)
    for target in card_bits(targets):
        suits = SUIT[target]
        eligible = sorted(
            (r for r in payer_bits if SUIT[r] & suits), key=RANK.__getitem__, reverse=True
        )
        for group in minimal_groups(eligible, RANK[target]):
            if _coverable(targets & ~(1 << target), 0, payers & ~group):
                return target, group
    raise AssertionError("a coverable set of targets has a first group")


class Solver:
    """One deal as a search problem (domain/algorithms/search.py). `deck` is the full deal,
    top first, as the engine dealt it."""

    def __init__(self, deck: list[DecktetCard]) -> None:
        self.deck = [c.index for c in deck]
        # Masks of the cards not yet dealt, by how many are dealt.
        n = len(self.deck)
        self.rest = [0] * (n + 1)
        # The bounds' sums over the undealt cards, by how many are dealt: summed once, here.
        # Lanes for the transportation bound; rank totals of personalities and of payers.
        self.rest_need = [0] * (n + 1)
        self.rest_have = [0] * (n + 1)
        self.rest_need_total = [0] * (n + 1)
        self.rest_have_total = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            card = self.deck[i]
            self.rest[i] = self.rest[i + 1] | (1 << card)
            person = PERSON[card]
            self.rest_need[i] = self.rest_need[i + 1] + (NEED_LANES[card] if person else 0)
            excluded = person or card == EXCUSE.index
            self.rest_have[i] = self.rest_have[i + 1] + (0 if excluded else HAVE_LANES[card])
            self.rest_need_total[i] = self.rest_need_total[i + 1] + (RANK[card] if person else 0)
            self.rest_have_total[i] = self.rest_have_total[i + 1] + (0 if person else RANK[card])

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

    def key(self, pos: Position) -> int:
        """The five integers packed into one (card masks are 45 bits wide): a memo of a
        million positions then holds a million small ints instead of a million tuples of
        five, a third of the memory. With the stock out nothing is dealt any more, so the
        palace can no longer overflow and a personality waiting there is no different from
        one in the capital: the two rows are keyed as one."""
        capital, palace, resources, dealt, excuse = pos
        if dealt == len(self.deck) and not excuse:
            return capital | palace | resources << 96 | dealt << 144
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
            for card in card_bits(movable):
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
        payer_bits = card_bits(resources & ~EXCUSE_BIT)  # ascending index: canonical order
        # With the stock dealt out, more resources can only help (nothing is dealt any more,
        # so what is left in hand is all there is): a payment from which a card could be
        # dropped is dominated by the payment without it, and only minimal ones are searched.
        n = len(self.deck)
        endgame = dealt == n
        # Without an Excuse in play, keeping the stronger of two cards never hurts (module
        # docstring): a payment that could swap a card for a weaker spare one is left out.
        prune_strong = not self._excuse_pending(pos)
        targets = (capital & ~EXCUSE_BIT) | palace
        if endgame and prune_strong:
            persons = targets & ALL_PERSONS
            cover = _cover(persons, resources)
            if cover is not None:
                # Every personality left can be paid for at once: play the first payment.
                target, group = cover
                after = (
                    capital & ~(1 << target),
                    palace & ~(1 << target),
                    resources & ~group,
                    dealt,
                    0,
                )
                return [(("control", target, card_bits(group)), after)]
            # Otherwise a win must buy first (buys can always be played before the controls
            # of personalities, which only spend): only buys are searched.
            targets &= ~ALL_PERSONS
        scored = []
        for target in card_bits(targets):
            rank, suits, bit = RANK[target], SUIT[target], 1 << target
            eligible = [r for r in payer_bits if SUIT[r] & suits]
            eligible_mask = sum(1 << r for r in eligible)
            if sum(RANK[r] for r in eligible) < rank:
                continue
            person = PERSON[target]
            in_palace = 0 if bit & palace else 1
            rest_capital, rest_palace = capital & ~bit, palace & ~bit
            for paid in _subsets(tuple(eligible)):
                total = sum(RANK[r] for r in paid)
                if total < rank or (endgame and total - min(RANK[r] for r in paid) >= rank):
                    continue
                if prune_strong and _swappable(paid, eligible_mask, total - rank):
                    continue
                new_resources = resources
                for r in paid:
                    new_resources &= ~(1 << r)
                if not person:
                    new_resources |= bit
                new = self.refill(rest_capital, rest_palace, new_resources, dealt, excuse)
                if (
                    prune_strong
                    and not endgame
                    and new is not None
                    and new[3] == n
                    and self._emptied_anyway(
                        rest_capital, rest_palace, new_resources, dealt, paid, total - rank
                    )
                ):
                    continue
                # Search order: personalities first (palace ones first), least overpaid first.
                order = (0 if person else 1, in_palace, total - rank)
                scored.append((order, ("control", target, paid), new))
        scored.sort(key=lambda item: item[0])
        out.extend((spec, new) for _, spec, new in scored)
        return out

    def _emptied_anyway(
        self,
        capital: int,
        palace: int,
        resources: int,
        dealt: int,
        paid: tuple[int, ...],
        spare_rank: int,
    ) -> bool:
        """A payment whose refill deals out the whole stock is dominated when one card of it
        could stay in hand, the payment still sufficing and the refill still reaching the
        bottom: the same cards are then dealt to the same rows, nothing more is ever dealt,
        and the smaller payment leaves a card more in hand."""
        n = len(self.deck)
        for r in paid:
            if RANK[r] <= spare_rank:
                kept = self.refill(capital, palace, resources | 1 << r, dealt, 0)
                if kept is not None and kept[3] == n:
                    return True
        return False

    def won(self, pos: Position) -> bool:
        capital, palace, _, dealt, _ = pos
        return not ((capital | palace | self.rest[dealt]) & ALL_PERSONS)

    def hopeless(self, pos: Position) -> bool:
        """True only when no line from here wins: four sound bounds on what is left to pay
        for, cheapest first (most positions a lost deal's search meets fall to one of them)."""
        return (
            self.short_of_rank(pos)
            or self.short_by_suits(pos)
            or self.short_card_by_card(pos)
            or self.short_in_hand(pos)
        )

    def _excuse_pending(self, pos: Position) -> bool:
        """An Excuse still to play can move a capital card to the resources for free."""
        return pos[4] == IN_RESOURCES or bool(self.rest[pos[3]] & EXCUSE_BIT)

    def short_of_rank(self, pos: Position) -> bool:
        """Every personality still to control costs at least its rank in resources, and the
        resources' rank total grows only by cards dealt straight to them (controlling a
        capital card pays at least its rank to gain it): so the personalities left must not
        need more rank than the resources hold plus every card still to be dealt."""
        if self._excuse_pending(pos):
            return False
        capital, palace, resources, dealt, _ = pos
        need = self.rest_need_total[dealt]
        for card in card_bits((capital | palace) & ALL_PERSONS):
            need += RANK[card]
        have = self.rest_have_total[dealt]
        for card in card_bits(resources & ~EXCUSE_BIT):
            have += RANK[card]
        return need > have

    def short_by_suits(self, pos: Position) -> bool:
        """The transportation bound: for every set of suits U, the personalities still to
        control whose suits all lie in U must not need more rank than the cards that could
        still pay (capital cards included: they can be bought with other suits) and share a
        suit with U. All 64 sets are checked at once, one 16-bit lane per set (_LANES)."""
        capital, palace, resources, dealt, _ = pos
        need = self.rest_need[dealt]
        for card in card_bits((capital | palace) & ALL_PERSONS):
            need += NEED_LANES[card]
        have = self.rest_have[dealt]
        for card in card_bits((resources | capital) & ~ALL_PERSONS & ~EXCUSE_BIT):
            have += HAVE_LANES[card]
        return (have + LANE_BIAS - need) & LANE_BIAS != LANE_BIAS

    def short_card_by_card(self, pos: Position) -> bool:
        """The same payers as `short_by_suits`, but whole cards: each pays for one
        personality only, so no rank is shared out between two (a 9 paying for a 2 wastes 7)."""
        capital, palace, resources, dealt, _ = pos
        rest = self.rest[dealt] & ~EXCUSE_BIT
        targets = (capital | palace | rest) & ALL_PERSONS
        payers = (resources | capital | rest) & ~ALL_PERSONS & ~EXCUSE_BIT
        return not _coverable(targets, 0, payers)

    def short_in_hand(self, pos: Position) -> bool:
        """Near the end of the stock, only cards in hand and cards still to be dealt can pay:
        a capital card (or a card dealt there later) pays only once bought, with at least its
        rank in other cards. Follow each payment back through the cards bought and every
        personality is paid by such cards, each card once, with at least its rank: in its own
        suits, unless some card that can be bought (in the capital, or still to come) shares
        a suit with it and can carry any suit over. With many cards still to come nearly
        every personality is open that way and the check costs more than it prunes, so it
        waits for the last IN_HAND_REST cards that are not personalities. Measured on the
        proof that solve-66 is lost: 1.65 million positions without it, 1.47 million from
        the last 2 cards, 1.45 from 3, no less past 5; each card more costs about 15 % more
        time per position on the deals left undecided."""
        capital, palace, resources, dealt, _ = pos
        rest = self.rest[dealt]
        if (rest & ~ALL_PERSONS).bit_count() > IN_HAND_REST or self._excuse_pending(pos):
            return False
        buyable_suits = 0
        for card in card_bits((capital | rest) & ~ALL_PERSONS & ~EXCUSE_BIT):
            buyable_suits |= SUIT[card]
        targets = (capital | palace | rest) & ALL_PERSONS
        open_targets = 0
        for card in card_bits(targets):
            if SUIT[card] & buyable_suits:
                open_targets |= 1 << card
        return not _coverable(
            targets, open_targets, (resources | rest) & ~ALL_PERSONS & ~EXCUSE_BIT
        )


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
    _COVERABLE.clear()  # another deal's cards: its entries would rarely meet again
    root = solver.position(state, len(deck) - len(state.stock))
    return solve(solver, root, node_budget, ruleset, state, solver.move_json, discrepancies=True)
