"""Adaman invariants over random seeds, options and legal play; the solver against the engine;
the expert bot against peeking."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.algorithms.search import depth_first
from domain.deal import SEED_PATTERN, DealRandom
from domain.games.adaman.decktet import BY_CODE, CARDS, EXCUSE
from domain.games.adaman.rules import Adaman, Options
from domain.games.adaman.solver import Solver, solve_deal
from domain.replay import replay
from domain.transition import UNHEARD
from tests.helpers import apply_alone

AD = Adaman()
seeds = st.from_regex(SEED_PATTERN, fullmatch=True)
options = st.fixed_dictionaries(
    {
        "pawns_and_courts": st.booleans(),
        "extra_personalities": st.integers(0, 3),
        "excuse": st.booleans(),
    }
)
picks = st.lists(st.integers(0, 10_000), max_size=60)


@settings(max_examples=100)
@given(seeds, options, picks)
def test_the_palace_never_holds_more_than_six(seed, opts, choices):
    """Adaman's own invariant; those every game shares are in tests/conformance."""
    state = AD.start(seed, opts)
    for step in range(200):
        assert len(state.palace) <= 6
        assert (len(state.palace) == 6) == (state.status == "lost_utterly")
        if AD.is_over(state):
            return
        real = [m for m in AD.legal_moves(state, 0) if m["type"] != "resign"]
        pick = choices[step] if step < len(choices) else 0
        state = AD.apply(state, 0, real[pick % len(real)]).state
    raise AssertionError("an Adaman game did not end")


def engine_key(state):
    # Cards are interned and hash by identity (decktet.py), so a row's set of cards is its set
    # of codes, made in C: the plain searches ask this of every position they meet.
    return (
        frozenset(state.capital),
        frozenset(state.palace),
        frozenset(state.resources),
        len(state.stock),
        state.excuse_row,
        state.status,
    )


@pytest.mark.slow
@settings(max_examples=80)
@given(seeds, options, picks)
def test_solver_moves_are_the_engines_moves(seed, opts, choices):
    full = AD.validate_options(opts)
    deck = AD.deal_cards(seed, full)
    solver = Solver(deck)
    state = AD.set_up(deck, Options(**opts))
    for step in range(40):
        if AD.is_over(state):
            break
        dealt = len(deck) - len(state.stock)
        ours = {}
        for spec, pos in solver.successors(solver.position(state, dealt)):
            move = json.dumps(Solver.move_json(spec))
            if pos is None:
                ours[move] = "lost_utterly"
            else:
                capital, palace, resources, n, excuse = pos
                names = lambda m: frozenset(CARDS[i] for i in range(45) if m >> i & 1)  # noqa: E731
                ours[move] = (
                    names(capital),
                    names(palace),
                    names(resources),
                    len(deck) - n,
                    {0: None, 1: "capital", 2: "resources"}[excuse],
                )
        theirs = {}
        for move, child in children(state):
            key = engine_key(child)
            theirs[json.dumps(move)] = "lost_utterly" if key[-1] == "lost_utterly" else key[:-1]
        # The solver leaves dominated moves out (see the next test), and keeps the rest as
        # the engine plays them.
        assert all(theirs.get(move) == child for move, child in ours.items())
        if state.stock and state.excuse_row is None:
            kept_targets = {json.loads(m).get("target") for m in ours}
            assert kept_targets == {json.loads(m).get("target") for m in theirs}
        options = children(state)
        state = options[choices[step] % len(options)][1] if step < len(choices) else options[0][1]


def small_deal(order, size, excuse, choices):
    """The first `size` cards of `order` (the Excuse put in somewhere if asked), dealt."""
    deck = [CARDS[i] for i in order[:size]]
    if excuse:
        deck.insert(choices[0] % size if choices else 0, EXCUSE)
    return deck, AD.set_up(deck, Options(excuse=excuse)), Solver(deck)


@pytest.mark.slow
@settings(max_examples=150)
@given(st.permutations(range(36)), st.integers(11, 16), st.booleans(), picks)
def test_the_moves_the_solver_leaves_out_never_hold_the_only_win(order, size, excuse, choices):
    """At every position of a random game on a small deck: some move the solver keeps leads
    to a win exactly when some move of the engine does. Dominated payments (a stronger card
    spent where a weaker one would do; a card spent beyond need when the refill deals out
    the stock anyway) and, with the stock out, the controls of personalities before the
    buys are left out; this checks that none of them ever held the only win."""
    deck, state, solver = small_deal(order, size, excuse, choices)
    memo = {}
    for step in range(40):
        if AD.is_over(state):
            break
        engine = {json.dumps(move): child for move, child in children(state)}
        kept = [
            json.dumps(Solver.move_json(spec))
            for spec, _ in solver.successors(solver.position(state, len(deck) - len(state.stock)))
        ]
        wins = any(exhaustive(child, memo) for child in engine.values())
        assert any(exhaustive(engine[move], memo) for move in kept) == wins
        options = children(state)
        pick = choices[step] if step < len(choices) else 0
        state = options[pick % len(options)][1]


def covers(strong, weak):
    """Each card of `weak` matched to its own card of `strong` that is the same card or does
    all it can as a resource (no lower rank, every suit of it): the engine's card data only."""
    if not weak:
        return True
    first, rest = weak[0], weak[1:]
    return any(
        (card is first or (card.rank >= first.rank and not first.suit_mask & ~card.suit_mask))
        and covers(strong[:i] + strong[i + 1 :], rest)
        for i, card in enumerate(strong)
    )


@pytest.mark.slow
@settings(max_examples=150)
@given(seeds, options, picks)
def test_every_payment_left_out_has_a_kept_witness(seed, opts, choices):
    """While cards remain to be dealt (and no Excuse is waiting to be dealt or played), the
    solver leaves a payment out only for a kept payment of the same target that leaves the
    same rows and palace and resources at least as good card for card: with as many cards
    dealt, or with the stock dealt out after both (when more cards in hand can only help)."""
    state = AD.start(seed, opts)
    deck = AD.deal_cards(seed, AD.validate_options(opts))
    solver = Solver(deck)
    for step in range(40):
        if AD.is_over(state):
            break
        if state.stock and state.excuse_row is None and EXCUSE not in state.stock:
            engine = {json.dumps(move): (move, child) for move, child in children(state)}
            pos = solver.position(state, len(deck) - len(state.stock))
            kept = {json.dumps(Solver.move_json(spec)) for spec, _ in solver.successors(pos)}
            for text, (move, child) in engine.items():
                if text in kept or child.status == "lost_utterly":
                    continue
                witnesses = [engine[k][1] for k in kept if engine[k][0]["target"] == move["target"]]
                assert any(
                    w.status != "lost_utterly"
                    and set(w.capital) == set(child.capital)
                    and set(w.palace) == set(child.palace)
                    and (len(w.stock) == len(child.stock) or (not w.stock and not child.stock))
                    and len(w.resources) >= len(child.resources)
                    and covers(w.resources, child.resources)
                    for w in witnesses
                ), text
        options = children(state)
        state = options[choices[step] % len(options)][1] if step < len(choices) else options[0][1]


def children(state):
    """Every real move and the position right after it, forced moves left unplayed."""
    return [
        (move, apply_alone(AD, state, 0, move))
        for move in AD.legal_moves(state, 0)
        if move["type"] != "resign"
    ]


def successors(state):
    """The positions `children` reaches, from the engine's moves as it holds them (what
    `legal_moves` lists, before they are written as JSON): the plain search's millions of
    steps need no JSON round trip."""
    after = []
    for move in AD._legal(state, 0):
        if move.kind != "resign":
            child = state.copy()
            AD._play(child, 0, move, UNHEARD)  # effects unheard, as the engine's fast path
            after.append(child)
    return after


def exhaustive(state, memo):
    """Plain search over the engine's own moves: no pruning, no ordering."""
    if state.status != "playing":
        return state.status == "won"
    key = engine_key(state)
    if key not in memo:
        memo[key] = any(exhaustive(child, memo) for child in successors(state))
    return memo[key]


def test_the_plain_search_steps_as_the_engine_moves():
    """`successors` (typed moves) reaches exactly the positions `children` (the engine's
    JSON moves) does, in the same order, along a game."""
    state = AD.start("0" * 32, {"excuse": True, "extra_personalities": 2})
    for _ in range(30):
        if AD.is_over(state):
            break
        mine = [engine_key(child) for child in successors(state)]
        assert mine == [engine_key(child) for _, child in children(state)]
        state = successors(state)[-1]


@pytest.mark.slow
@settings(max_examples=120)
@given(st.permutations(range(36)), st.integers(11, 15), st.integers(-1, 15))
def test_solver_agrees_with_plain_search_on_small_decks(order, size, excuse_at):
    """Pruning and the minimal payments of an empty stock never change a verdict, with or
    without the Excuse (which moves a card between the rows for free)."""
    deck = [CARDS[i] for i in order[:size]]
    if excuse_at >= 0:
        deck.insert(excuse_at, EXCUSE)
    state = AD.set_up(deck, Options(excuse=excuse_at >= 0))
    solver = Solver(deck)
    root = solver.position(state, len(deck) - len(state.stock))
    winnable, line, _, complete = depth_first(solver, root, None)
    assert complete and winnable == (state.status == "won" or exhaustive(state, {}))
    if winnable:  # the line really wins, move by move, in the engine
        for spec in line:
            state = apply_alone(AD, state, 0, Solver.move_json(spec))
        assert state.status == "won"


@pytest.mark.slow
@settings(max_examples=150)
@given(st.permutations(range(36)), st.integers(11, 15), st.booleans(), picks)
def test_every_bound_refutes_only_lost_positions(order, size, with_excuse, choices):
    """Each bound on its own, at every position of a random game on a small deck: a
    position it calls hopeless is lost under plain search of the engine's moves."""
    deck, state, solver = small_deal(order, size, with_excuse, choices)
    memo = {}
    bounds = (
        solver.short_of_rank,
        solver.short_by_suits,
        solver.short_card_by_card,
        solver.short_in_hand,
    )
    for step in range(40):
        if AD.is_over(state):
            break
        pos = solver.position(state, len(deck) - len(state.stock))
        for bound in bounds:
            if bound(pos):
                assert not exhaustive(state, memo), bound.__name__
        options = children(state)
        pick = choices[step] if step < len(choices) else 0
        state = options[pick % len(options)][1]


@pytest.mark.slow
@settings(max_examples=200)
@given(st.permutations(range(36)), st.integers(12, 16), st.booleans(), picks)
def test_no_bound_refutes_a_winnable_position(order, size, with_excuse, choices):
    """Along random winning lines of small decks (every position on them winnable, found by
    plain search of the engine's moves), no bound ever calls a position hopeless: random
    play alone meets winnable positions too seldom to catch a bound that prunes too much."""
    deck, state, solver = small_deal(order, size, with_excuse, choices)
    memo = {}
    for step in range(40):
        if AD.is_over(state) or not exhaustive(state, memo):
            break
        pos = solver.position(state, len(deck) - len(state.stock))
        assert not solver.hopeless(pos)
        for bound in (solver.short_of_rank, solver.short_by_suits, solver.short_card_by_card):
            assert not bound(pos), bound.__name__
        assert not solver.short_in_hand(pos)
        winning = [child for _, child in children(state) if exhaustive(child, memo)]
        state = winning[(choices[step] if step < len(choices) else 0) % len(winning)]


# ---- `make unit`'s brief run of the slow properties --------------------------------------------
# Each property marked slow above (seconds to over a minute at full strength, which `make test`
# runs) on a few examples and the smallest decks, so that `make unit` still exercises each one.
small_decks = st.permutations(range(36)), st.integers(11, 13)


@settings(max_examples=8)
@given(seeds, options, picks)
def test_solver_moves_are_the_engines_moves_in_brief(seed, opts, choices):
    test_solver_moves_are_the_engines_moves.hypothesis.inner_test(seed, opts, choices)


@settings(max_examples=10)
@given(*small_decks, st.booleans(), picks)
def test_the_moves_the_solver_leaves_out_never_hold_the_only_win_in_brief(
    order, size, excuse, choices
):
    test = test_the_moves_the_solver_leaves_out_never_hold_the_only_win.hypothesis.inner_test
    test(order, size, excuse, choices)


@settings(max_examples=10)
@given(seeds, options, picks)
def test_every_payment_left_out_has_a_kept_witness_in_brief(seed, opts, choices):
    test_every_payment_left_out_has_a_kept_witness.hypothesis.inner_test(seed, opts, choices)


@settings(max_examples=6)
@given(*small_decks, st.integers(-1, 13))
def test_solver_agrees_with_plain_search_on_small_decks_in_brief(order, size, excuse_at):
    test = test_solver_agrees_with_plain_search_on_small_decks.hypothesis.inner_test
    test(order, size, excuse_at)


@settings(max_examples=10)
@given(*small_decks, st.booleans(), picks)
def test_every_bound_refutes_only_lost_positions_in_brief(order, size, with_excuse, choices):
    test = test_every_bound_refutes_only_lost_positions.hypothesis.inner_test
    test(order, size, with_excuse, choices)


@settings(max_examples=40)  # about one small deck in four can be won, and only those count here
@given(st.permutations(range(36)), st.integers(12, 13), st.booleans(), picks)
def test_no_bound_refutes_a_winnable_position_in_brief(order, size, with_excuse, choices):
    test_no_bound_refutes_a_winnable_position.hypothesis.inner_test(
        order, size, with_excuse, choices
    )


def test_a_solved_line_replays_to_a_win():
    solution = solve_deal(AD, "solve-3")
    assert solution.complete and solution.winnable
    final = replay(AD, "solve-3", None, [(0, m) for m in solution.line]).state
    assert AD.status(final) == "won"


def test_the_expert_cannot_see_the_stock_order():
    """Two positions that look the same to the player get the same move."""
    from domain.games.adaman.expert import AdamanExpert

    state = AD.start("peek")
    other = state.copy()
    other.stock.reverse()  # the same unseen cards, another order
    assert AD.view(other, 0) == AD.view(state, 0)
    first = AdamanExpert(DealRandom("s", "bot")).choose(AD.view(state, 0), {})
    second = AdamanExpert(DealRandom("s", "bot")).choose(AD.view(other, 0), {})
    assert first == second


def test_card_codes_round_trip():
    assert all(BY_CODE[c.code] is c for c in CARDS)


def plain_transportation_bound(solver, pos):
    from domain.games.adaman.solver import ALL_PERSONS, EXCUSE_BIT, RANK, SUIT, card_bits

    capital, palace, resources, dealt, _ = pos
    waiting = (capital | palace | solver.rest[dealt]) & ALL_PERSONS
    payers = (resources | capital | solver.rest[dealt]) & ~ALL_PERSONS & ~EXCUSE_BIT
    for suits in range(1, 64):
        need = sum(RANK[p] for p in card_bits(waiting) if SUIT[p] & ~suits == 0)
        have = sum(RANK[c] for c in card_bits(payers) if SUIT[c] & suits)
        if need > have:
            return True
    return False


@settings(max_examples=300)
@given(
    seeds,
    st.sets(st.integers(0, 44), max_size=6),
    st.sets(st.integers(0, 44), max_size=5),
    st.sets(st.integers(0, 44), max_size=5),
    st.integers(10, 36),
)
def test_packed_bound_equals_the_plain_one(seed, capital, palace, resources, dealt):
    from domain.games.adaman.solver import ALL_PERSONS

    solver = Solver(AD.deal_cards(seed, AD.validate_options({})))
    mask = lambda cards: sum(1 << c for c in cards)  # noqa: E731
    dealt_cards = ~solver.rest[dealt]  # a card in a row has been dealt: positions are consistent
    pos = (
        mask(capital) & dealt_cards,
        mask(palace) & ALL_PERSONS & dealt_cards,
        mask(resources) & ~ALL_PERSONS & dealt_cards,
        dealt,
        0,
    )
    assert solver.short_by_suits(pos) == plain_transportation_bound(solver, pos)


# ---- the expert's lookahead against plain definitions ---------------------------------------


def plain_evaluate(capital, palace, resources, controlled, unseen):
    """The evaluation as docs/rules/adaman.md words it, on rows of cards, with "could pay"
    found by trying every group of resources."""
    import math
    from itertools import combinations

    from domain.games.adaman.expert import WEIGHTS as w

    def could_pay(target):
        eligible = [r for r in resources if r.suit_mask & target.suit_mask]
        return any(
            sum(r.rank for r in group) >= target.rank
            for size in range(1, len(eligible) + 1)
            for group in combinations(eligible, size)
        )

    unseen_persons = [c for c in unseen if c.is_personality]
    n, p = len(unseen), len(unseen_persons)
    drawn_by_capital = min(max(0, 5 - len(capital)), n)
    p_left = p - drawn_by_capital * (p / n if n else 0.0)
    others_left = (n - drawn_by_capital) - p_left
    resources_needed = max(0, 5 - len(resources))
    expected = resources_needed * p_left / (others_left + 1) if others_left > 0 else p_left
    risk = w["risk"] * math.exp(len(palace) + expected - 6)
    cover = sum(1 for t in (*palace, *capital) if t.is_personality and could_pay(t))
    future = sum(1 for t in unseen_persons if could_pay(t))
    return (
        w["controlled"] * controlled
        + w["resources"] * sum(r.rank for r in resources)
        + w["cover"] * cover
        + w["future"] * future
        - w["palace"] * len(palace)
        - risk
    )


def plain_best_follow_up(capital, palace, resources, controlled, rest):
    """The best evaluation after any control by a minimal payment (no card of it spare)."""
    from itertools import combinations

    best = None
    for target in (*capital, *palace):
        eligible = [r for r in resources if r.suit_mask & target.suit_mask]
        for size in range(1, len(eligible) + 1):
            for group in combinations(eligible, size):
                total = sum(r.rank for r in group)
                if total < target.rank or any(total - r.rank >= target.rank for r in group):
                    continue
                left = [r for r in resources if r not in group]
                if not target.is_personality:
                    left.append(target)
                value = plain_evaluate(
                    [c for c in capital if c is not target],
                    [c for c in palace if c is not target],
                    left,
                    controlled + target.is_personality,
                    rest,
                )
                best = value if best is None else max(best, value)
    return best


REAL = [c for c in CARDS if c is not EXCUSE]
rows = st.permutations(
    REAL
).flatmap(
    lambda cards: st.tuples(
        st.just([c for c in cards[:12] if not c.is_personality][:5]),  # capital
        st.just([c for c in cards[12:20] if c.is_personality][:5]),  # palace
        st.just([c for c in cards[20:32] if not c.is_personality][:5]),  # resources
        st.just(list(cards[32:])),  # unseen
        st.integers(0, 5),  # capital size
        st.integers(0, 5),  # palace size
        st.integers(0, 5),  # resources size
        st.integers(0, 11),  # personalities controlled
    )
)


@settings(max_examples=300)
@given(rows)
def test_the_expert_evaluation_is_its_plain_definition(drawn):
    """`evaluate` (share lanes, remembered risks) is exactly the evaluation on rows of cards."""
    from domain.games.adaman.expert import evaluate

    capital, palace, resources, unseen, nc, np_, nr, controlled = drawn
    capital = capital[:nc] + [c for c in unseen if c.is_personality][:1]
    args = capital, palace[:np_], resources[:nr], controlled, unseen[1:]
    assert evaluate(*args) == plain_evaluate(*args)


@settings(max_examples=200)
@given(rows, st.integers(0, 10_000))
def test_the_expert_lookahead_is_its_plain_definition(drawn, shuffle):
    """A sampled refill's value is the best evaluation over every control by a minimal
    payment, with the rest of the order as the cards unseen; stuck when the solver, given
    the order as the deal, proves the refilled position lost."""
    from domain.games.adaman.expert import STUCK, WEIGHTS, AdamanExpert, _refill

    capital, palace, resources, unseen, nc, np_, nr, controlled = drawn
    order = DealRandom(str(shuffle), "test").shuffle(unseen)
    capital, palace, resources = capital[:nc], palace[: min(np_, 4)], resources[:nr]
    solver = Solver(order)
    value = AdamanExpert._after_refill(capital, palace, resources, controlled, order, solver)
    dealt = _refill(capital, palace, resources, order)
    if dealt is None:
        assert value == -1000.0
        return
    stuck = STUCK + WEIGHTS["controlled"] * controlled
    masks = [sum(1 << c.index for c in row) for row in dealt[:3]]
    if solver.hopeless((*masks, len(order) - len(dealt[3]), 0)):
        assert value == stuck
        return
    plain = plain_best_follow_up(*dealt[:3], controlled, dealt[3])
    assert value == (stuck if plain is None else plain)
