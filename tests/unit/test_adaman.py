"""Adaman: the card table, the deal, controls, the palace, the deck running out, the Excuse."""

import pytest

from domain.errors import IllegalMove
from domain.games.adaman.decktet import BASIC, BY_CODE, CARDS
from domain.games.adaman.rules import Adaman, Options, deck_for
from tests.helpers import settle

AD = Adaman()


def stacked(*top, **options):
    """The deck in use with `top` first (top card first), the rest in canonical order."""
    opts = Options(**options)
    chosen = [BY_CODE[c] for c in top]
    return chosen + [c for c in deck_for(opts) if c not in chosen], opts


def deal(*top, **options):
    deck, opts = stacked(*top, **options)
    return settle(AD, AD.set_up(deck, opts))


def short(*cards, **options):
    """A deck of exactly these cards, for endings that need the stock to run out."""
    return settle(AD, AD.set_up([BY_CODE[c] for c in cards], Options(**options)))


def codes(cards):
    return [c.code for c in cards]


def control(target, *paid):
    return {"type": "control", "target": target, "with": list(paid)}


# ---- cards --------------------------------------------------------------------------------------


def test_the_table_in_canonical_order():
    assert len(CARDS) == 45 and len(BASIC) == 36
    assert codes(CARDS[:8]) == [
        "ace-moons",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        "ace-knots",
        "author",
        "desert",
    ]
    assert codes(CARDS[-9:]) == [
        "watchman",
        "light-keeper",
        "borderland",
        "harvest",
        "consul",
        "island",
        "rite",
        "window",
        "excuse",
    ]
    assert BY_CODE["chance-meeting"].suits == ("moons", "leaves")
    assert BY_CODE["light-keeper"].suits == ("suns", "waves", "knots")
    people = [c for c in BASIC if c.is_personality]
    assert len(people) == 11 and sum(c.rank for c in people) == 66
    assert BY_CODE["excuse"].rank == 0 and BY_CODE["excuse"].suits == ()


@pytest.mark.parametrize(
    "options, size, personalities",
    [
        ({}, 36, 11),
        ({"extra_personalities": 2}, 38, 13),
        ({"pawns_and_courts": True}, 44, 14),
        ({"pawns_and_courts": True, "extra_personalities": 3}, 44, 14),  # ignored
        ({"excuse": True}, 37, 11),
    ],
)
def test_deck_in_use(options, size, personalities):
    deck = deck_for(Options(**options))
    assert len(deck) == size and sum(c.is_personality for c in deck) == personalities
    assert [c.index for c in deck] == sorted(c.index for c in deck)
    assert sorted(AD.deck("x", options)) == sorted(codes(deck))


# ---- dealing and controlling ------------------------------------------------------------------

OPENING = (
    "author",
    "desert",
    "origin",
    "journey",
    "mountain",
    "painter",
    "ace-moons",
    "ace-knots",
    "ace-suns",
    "ace-waves",
    "ace-leaves",
)


def test_a_personality_dealt_to_the_resources_goes_to_the_palace():
    state, _ = deal(*OPENING)
    assert codes(state.capital) == ["author", "desert", "origin", "journey", "mountain"]
    assert codes(state.palace) == ["painter"]
    assert codes(state.resources) == [
        "ace-moons",
        "ace-knots",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
    ]
    assert AD.legal_moves(state, 0) == [
        control("author", "ace-moons", "ace-knots"),
        control("origin", "ace-waves", "ace-leaves"),
        {"type": "resign"},
    ]


def test_control_with_several_cards_then_refill_capital_then_resources():
    state, _ = deal(*OPENING)
    state, effects = AD.apply(state, 0, control("author", "ace-knots", "ace-moons"))  # any order
    assert effects[0] == {
        "type": "control",
        "target": "author",
        "with": ["ace-moons", "ace-knots"],
        "to": "controlled",
    }
    deals = [(e["card"], e["to"]) for e in effects if e["type"] == "deal"]
    assert deals == [
        ("ace-wyrms", "capital"),
        ("savage", "palace"),
        ("battle", "resources"),
        ("sailor", "palace"),
        ("discovery", "resources"),
    ]
    assert codes(state.controlled) == ["author"]
    assert codes(state.palace) == ["painter", "savage", "sailor"]
    assert len(state.resources) == 5 and len(state.capital) == 5


def test_a_controlled_card_that_is_no_personality_joins_the_resources():
    state, _ = deal(*OPENING)
    state, effects = AD.apply(state, 0, control("origin", "ace-waves", "ace-leaves"))
    assert effects[0]["to"] == "resources" and "origin" in codes(state.resources)


def test_payments_must_share_a_suit_and_reach_the_rank():
    state, _ = deal(*OPENING)
    for bad, reason in [
        (control("author", "ace-moons"), "ranks 1 fall short of author's rank 2"),
        (control("author", "ace-moons", "ace-suns"), "ace-suns share no suit with author"),
        (control("painter", "ace-suns", "ace-knots"), "ranks 2 fall short of painter's rank 3"),
        (control("sea", "ace-waves"), "sea is not in the capital or the palace"),
        (control("author", "battle"), "not among the resources: battle"),
    ]:
        with pytest.raises(IllegalMove) as err:
            AD.apply(state, 0, bad)
        assert err.value.reason == reason
    for malformed in (
        control("author"),
        control("author", "ace-moons", "ace-moons"),
        {"type": "control", "target": "author"},
        {"type": "fly"},
    ):
        with pytest.raises(IllegalMove):
            AD.apply(state, 0, malformed)


def test_overpaying_is_legal_and_listed_in_canonical_order():
    state, _ = short(
        "desert",
        "origin",
        "journey",
        "mountain",
        "author",
        "battle",
        "castle",
        "forest",
        "ace-knots",
        "ace-moons",
    )
    legal = AD.legal_moves(state, 0)
    assert control("author", "ace-moons", "ace-knots") in legal
    assert control("author", "ace-moons", "ace-knots", "forest", "battle", "castle") not in legal
    assert control("author", "ace-moons", "ace-knots", "battle", "forest", "castle") in legal


def test_the_sixth_palace_card_loses_utterly():
    state, effects = deal(
        "desert",
        "origin",
        "journey",
        "mountain",
        "battle",
        "author",
        "painter",
        "savage",
        "sailor",
        "soldier",
        "lunatic",
    )
    assert state.status == "lost_utterly" and effects == []
    assert AD.outcome(state) == {"result": "lost_utterly", "score": 0}
    assert len(state.palace) == 6 and AD.legal_moves(state, 0) == []


def test_the_deck_running_out_play_goes_on_and_a_win_scores_the_resources():
    state, _ = short(
        "author",
        "desert",
        "origin",
        "journey",
        "mountain",
        "ace-moons",
        "ace-knots",
        "battle",
        "forest",
        "castle",
    )
    assert len(state.stock) == 0 and state.status == "playing"
    state, _ = AD.apply(state, 0, control("desert", "battle"))
    assert state.status == "playing" and len(state.capital) == 4  # nothing left to deal
    state, effects = AD.apply(state, 0, control("author", "ace-moons", "ace-knots"))
    assert effects[-1] == {"type": "end", "result": "won"}
    # Won: the personalities controlled (Author 2) plus the resources left (5 + 7 + 2).
    assert AD.outcome(state) == {"result": "won", "score": 2 + 5 + 7 + 2}


def test_no_move_left_loses_and_scores_the_personalities_controlled():
    state, _ = short(
        "huntress",
        "bard",
        "sea",
        "end",
        "calamity",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        "ace-knots",
        "desert",
    )
    assert state.status == "lost" and AD.outcome(state) == {"result": "lost", "score": 0}


def test_a_single_legal_control_is_forced():
    state, effects = short(
        "author",
        "huntress",
        "bard",
        "sea",
        "end",
        "ace-moons",
        "ace-knots",
        "ace-waves",
        "calamity",
        "ace-leaves",
    )
    assert {
        "type": "forced",
        "seat": 0,
        "move": control("author", "ace-moons", "ace-knots"),
    } in effects
    assert codes(state.controlled) == ["author"]


# ---- the Excuse ----------------------------------------------------------------------------------


def test_excuse_in_the_capital_takes_a_resource_into_the_capital():
    state, _ = deal(
        "excuse",
        "desert",
        "origin",
        "journey",
        "mountain",
        "battle",
        "ace-moons",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        excuse=True,
    )
    assert codes(state.capital) == ["excuse", "desert", "origin", "journey", "mountain", "battle"]
    assert AD.view(state, 0)["excuse"] == "capital"
    legal = AD.legal_moves(state, 0)
    assert legal[:-1] == [
        {"type": "excuse", "card": c}
        for c in ("ace-moons", "ace-suns", "ace-waves", "ace-leaves", "ace-wyrms")
    ]
    with pytest.raises(IllegalMove) as err:
        AD.apply(state, 0, control("origin", "ace-waves", "ace-leaves"))
    assert err.value.reason == "the Excuse must be played first"
    state, _ = AD.apply(state, 0, {"type": "excuse", "card": "ace-moons"})
    # Moved, the Excuse discarded, and no refill until the next control.
    assert codes(state.capital) == [
        "desert",
        "origin",
        "journey",
        "mountain",
        "battle",
        "ace-moons",
    ]
    assert len(state.resources) == 4 and "excuse" in codes(state.discard)
    state, _ = AD.apply(state, 0, control("origin", "ace-waves", "ace-leaves"))
    assert len(state.resources) == 5 and len(state.capital) == 5


def test_excuse_in_the_resources_never_takes_a_personality():
    state, _ = deal(
        "author",
        "desert",
        "origin",
        "journey",
        "mountain",
        "ace-moons",
        "excuse",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        excuse=True,
    )
    assert AD.view(state, 0)["excuse"] == "resources"
    assert [m["card"] for m in AD.legal_moves(state, 0)[:-1]] == [
        "desert",
        "origin",
        "journey",
        "mountain",
    ]
    state, _ = AD.apply(state, 0, {"type": "excuse", "card": "journey"})
    assert "journey" in codes(state.resources) and len(state.capital) == 4


def test_excuse_with_nothing_to_move_is_simply_discarded():
    state, effects = deal(
        "author",
        "painter",
        "savage",
        "sailor",
        "soldier",
        "excuse",
        "ace-moons",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        excuse=True,
    )
    assert {"type": "forced", "seat": 0, "move": {"type": "excuse", "card": None}} in effects
    assert state.excuse_row is None and "excuse" in codes(state.discard)


def test_excuse_does_not_count_in_its_row():
    state, _ = deal(
        "desert",
        "origin",
        "excuse",
        "journey",
        "mountain",
        "battle",
        "ace-moons",
        "ace-suns",
        "ace-waves",
        "ace-leaves",
        "ace-wyrms",
        excuse=True,
    )
    assert len(state.capital) == 6 and len(state.resources) == 5
