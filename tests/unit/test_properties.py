"""Royal Assassin's own invariants over random seeds, options and legal play."""

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import STANDARD_DECK
from domain.deal import SEED_PATTERN
from domain.games.royal_assassin.rules import _column_scan
from tests.helpers import RA

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


@settings(max_examples=80)
@given(seeds, options, choices)
def test_a_lost_game_names_a_ruler_and_a_won_one_none(seed, opts, picks):
    """Royal Assassin's own outcome rule; the invariants every game shares (conservation,
    secrecy, legal moves apply, termination, determinism) are in tests/conformance."""
    state = RA.start(seed, opts)
    step = 0
    while not RA.is_over(state):
        real = [m for m in RA.legal_moves(state, 0) if m["type"] != "resign"]
        pick = picks[step] if step < len(picks) else step
        state = RA.apply(state, 0, real[pick % len(real)]).state
        step += 1
    outcome = RA.outcome(state)
    assert outcome["result"] in ("won", "lost")
    assert (outcome["ruler"] is None) == (outcome["result"] == "won")
    if outcome["ruler"] not in (None, "joker"):
        assert (
            outcome["ruler"]
            in RA.view(state, 0)["pretenders"][
                {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[outcome["ruler"][1]]
            ]["card"]
        )


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


def _fresh_scans(state):
    """The column scans read again from the columns, as if no cached one existed."""
    copy = state.copy()
    copy.scans = [None, None, None, None]
    return [_column_scan(copy, c) for c in range(4)]


@settings(max_examples=80)
@given(seeds, options, choices)
def test_the_scans_laid_cards_update_in_place_equal_a_fresh_read_of_each_column(seed, opts, picks):
    """Attacks, defenses and new royals update their column's cached scan instead of reading
    the column again: after every move each cached scan, and so the listing, must be what a
    fresh read gives."""
    state = RA.start(seed, opts)
    step = 0
    while True:
        fresh = _fresh_scans(state)
        assert [s for s in state.scans if s is not None] == [
            f for s, f in zip(state.scans, fresh, strict=True) if s is not None
        ]
        relisted = state.copy()
        relisted.scans, relisted.legal_cache = [None, None, None, None], None
        assert RA.legal_moves(relisted, 0) == RA.legal_moves(state, 0)
        if RA.is_over(state):
            break
        real = [m for m in RA.legal_moves(state, 0) if m["type"] != "resign"]
        pick = picks[step] if step < len(picks) else step
        state = RA.apply(state, 0, real[pick % len(real)]).state
        step += 1
