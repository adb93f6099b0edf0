"""Invariants of every Royal Assassin game, over random seeds, options and legal play."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import STANDARD_DECK
from domain.deal import SEED_PATTERN
from tests.helpers import RA, strings_in

seeds = st.from_regex(SEED_PATTERN, fullmatch=True)
options = st.fixed_dictionaries(
    {
        "jokers_in_deck": st.booleans(),
        "setup_royals": st.none() | st.integers(1, 12),
        "new_royal_beneath": st.booleans(),
        "joker_discarded": st.booleans(),
        "exact_cancel_only": st.booleans(),
        "ace_low_after_play": st.booleans(),
        "recycle_reserve": st.booleans(),
    }
)
choices = st.lists(st.integers(0, 1000), max_size=300)
MAX_STEPS = 3000  # far above any real game: a game that outlasts it is a bug


def check_position(state, expected_cards):
    # Every card accounted for exactly once.
    assert Counter(c.code for c in state.all_cards()) == expected_cards
    # The view never shows a stock card (the stock is face down, its order secret).
    view = RA.view(state, 0)
    shown = set(strings_in(view))
    assert not shown & {c.code for c in state.stock}
    assert view["stock_count"] == len(state.stock)
    # Every listed legal move applies.
    for move in RA.legal_moves(state, 0):
        RA.apply(state, 0, move)


def play_game(seed, opts, picks):
    state = RA.start(seed, opts)
    log = []
    for step in range(MAX_STEPS):
        if RA.is_over(state):
            return state, log
        real = [m for m in RA.legal_moves(state, 0) if m["type"] != "resign"]
        pick = picks[step] if step < len(picks) else 0
        move = real[pick % len(real)] if real else {"type": "resign"}
        log.append(move)
        state = RA.apply(state, 0, move).state
    raise AssertionError("game did not terminate")


@settings(max_examples=120)
@given(seeds, options, choices)
def test_invariants_hold_at_every_step(seed, opts, picks):
    expected = Counter(c.code for c in STANDARD_DECK)
    expected.update(["X1", "X2"] if opts["jokers_in_deck"] else ["X1"])
    state = RA.start(seed, opts)
    check_position(state, expected)
    for step in range(MAX_STEPS):
        if RA.is_over(state):
            break
        real = [m for m in RA.legal_moves(state, 0) if m["type"] != "resign"]
        assert real, "a game still playing always offers a real move"
        pick = picks[step] if step < len(picks) else step
        state = RA.apply(state, 0, real[pick % len(real)]).state
        check_position(state, expected)
    else:
        raise AssertionError("game did not terminate")
    outcome = RA.outcome(state)
    assert outcome["result"] in ("won", "lost")
    assert (outcome["ruler"] is None) == (outcome["result"] == "won")


@settings(max_examples=80)
@given(seeds, options, choices)
def test_replay_is_deterministic(seed, opts, picks):
    final, log = play_game(seed, opts, picks)
    again = RA.replay(seed, opts, [(0, m) for m in log])
    assert RA.view(again, 0) == RA.view(final, 0)
    assert RA.status(final) != "playing"


@settings(max_examples=60)
@given(seeds, options)
def test_the_deal_is_a_permutation_and_depends_only_on_seed_and_deck(seed, opts):
    deck = RA.deck(seed, opts)
    assert sorted(deck) == sorted(
        [c.code for c in STANDARD_DECK] + (["X1", "X2"] if opts["jokers_in_deck"] else [])
    )
    assert RA.deck(seed, opts) == deck
    other = dict(opts, exact_cancel_only=not opts["exact_cancel_only"])
    assert RA.deck(seed, other) == deck  # rule options never change the shuffle
