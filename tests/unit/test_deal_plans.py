"""Each game's deal plan is the deal it plays: the published plan (what a client shuffles to
check a finished game) and the game's own typed deal can never drift apart."""

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.deal import shuffled
from domain.games.adaman.rules import Options, deck_for
from domain.registry import get_ruleset

RA = get_ruleset("royal-assassin")
DUEL = get_ruleset("royal-assassin-duel")
ADAMAN = get_ruleset("adaman")
RISUS = get_ruleset("risus-royale")
ACE = get_ruleset("royal-ace-assin")


def seeds():
    return st.text(alphabet="abcxyz0123456789-.:", min_size=1, max_size=16)


@settings(max_examples=25, deadline=None)
@given(seed=seeds(), jokers=st.booleans())
def test_royal_assassin_deals_its_plan(seed, jokers):
    options = {"jokers_in_deck": jokers}
    typed = RA._deck_cards(seed, RA._own(options))
    assert [c.code for c in typed] == RA.deck(seed, options)
    (step,) = RA.deal_plan(options)
    assert step.label == "deal" and len(step.cards) == (54 if jokers else 52)
    assert sorted(step.cards) == sorted(c.code for c in typed)


@settings(max_examples=25, deadline=None)
@given(seed=seeds(), decks=st.sampled_from([1, 2]))
def test_the_duel_stocks_its_plan(seed, decks):
    state = DUEL.start(seed, {"decks": decks})
    deck = DUEL.deck(seed, {"decks": decks})
    assert len(deck) == 52 * decks
    # Everything still in the stock is the deck's tail, in order (the stock's top is last).
    assert state.stock[::-1] == deck[len(deck) - len(state.stock) :]


@settings(max_examples=25, deadline=None)
@given(seed=seeds(), excuse=st.booleans(), extra=st.integers(0, 3), courts=st.booleans())
def test_adaman_deals_its_plan(seed, excuse, extra, courts):
    options = {"excuse": excuse, "extra_personalities": extra, "pawns_and_courts": courts}
    assert [c.code for c in ADAMAN.deal_cards(seed, options)] == ADAMAN.deck(seed, options)
    (step,) = ADAMAN.deal_plan(options)
    in_use = deck_for(Options(**ADAMAN._own(options)))
    assert step.cards == tuple(c.code for c in in_use)


@settings(max_examples=25, deadline=None)
@given(seed=seeds())
def test_risus_royale_lays_out_its_plan(seed):
    state = RISUS.start(seed)
    deck = RISUS.deck(seed)
    goal, opponents, deal = deck[:4], deck[4:20], deck[20:]
    assert state.discard == goal
    assert [pile[1] for pile in state.piles] == opponents
    assert [pile[0] for pile in state.piles] + [pile[2] for pile in state.piles] == deal
    assert [step.label for step in RISUS.deal_plan()] == ["goal", "opponents", "deal"]


def test_nothing_is_dealt_in_royal_ace_assin():
    assert ACE.deal_plan() == () and ACE.deck("x") == []


def test_every_plan_is_canonical_and_shuffles_into_the_deck():
    for ruleset in (RA, DUEL, ADAMAN, RISUS, ACE):
        deck = []
        for step in ruleset.deal_plan():
            assert len(set(step.cards)) == len(step.cards), ruleset.id
            deck += shuffled("court-42", step.label, step.cards)
        assert deck == ruleset.deck("court-42"), ruleset.id
