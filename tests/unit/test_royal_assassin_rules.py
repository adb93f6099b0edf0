"""Royal Assassin rules beyond the worked examples: setup, legality, every option, the ruler."""

import pytest

from domain.cards import card
from domain.errors import GameOver, IllegalMove
from domain.games.royal_assassin.rules import Entry, Options, State
from tests.helpers import RA, column, deal, legal, only, play, settle, stacked, strength

HEARTS = "hearts"


def attack(col):
    return {"type": "attack", "column": col}


# ---- setup ---------------------------------------------------------------------------------


def test_setup_ends_on_a_low_number_card_and_aces_never_end_it():
    state = RA.set_up(stacked("QH", "AC", "9C", "KH", "2C"), Options())
    assert [c.code for c in state.reserve] == ["AC", "9C", "2C"]
    assert column(state, HEARTS) == [("QH", "royal"), ("KH", "royal")]
    assert len(state.stock) == 52 - 5


def test_setup_royals_option_stops_at_the_nth_royal():
    state = RA.set_up(stacked("2C", "QH", "3C", "KS", "JD", "KD"), Options(setup_royals=3))
    royals = [e.card.code for col in state.columns for e in col]
    assert sorted(royals) == ["JD", "KS", "QH"]
    assert [c.code for c in state.reserve] == ["2C", "3C"]


def test_default_game_has_the_joker_in_hand_and_52_cards():
    state = RA.start("royal")
    assert [j.code for j in state.jokers_in_hand] == ["X1"]
    assert len(state.all_cards()) == 53  # 52 dealt plus the Joker in hand


def test_jokers_in_deck_deals_54_and_a_setup_joker_goes_to_the_reserve():
    state = RA.set_up(stacked("X1", "QH", "KH", "2C", jokers=True), Options(jokers_in_deck=True))
    assert state.jokers_in_hand == []
    assert [c.code for c in state.reserve] == ["X1", "2C"]
    assert len(state.all_cards()) == 54
    assert len(RA.deck("royal", {"jokers_in_deck": True})) == 54


# ---- legality --------------------------------------------------------------------------------


def test_attack_needs_the_other_colour():
    state, effects = deal("QH", "2H", setup_royals=1)
    # The Two of Hearts could only go to the reserve: the engine played that and drew on.
    assert {"type": "forced", "seat": 0, "move": {"type": "reserve"}} in effects
    assert state.current.code == "AC"
    state, _ = deal("QH", "KS", "2H", setup_royals=2)
    assert legal(state) == [attack("spades"), {"type": "reserve"}, {"type": "resign"}]
    with pytest.raises(IllegalMove) as err:
        play(state, attack(HEARTS))
    assert err.value.reason == "2H cannot attack QH: same colour"


def test_a_suit_attacks_one_column_and_a_column_one_suit():
    # Hearts and Diamonds Pretenders; Spades attack Hearts, so the next Spade may not attack
    # Diamonds, and a Club may not join the attack on Hearts.
    state, _ = deal("QH", "QD", "3S", "4S", "5C", setup_royals=2)
    state, _ = play(state, attack(HEARTS))
    assert state.current.code == "4S"
    assert legal(state) == [attack(HEARTS), {"type": "reserve"}, {"type": "resign"}]
    with pytest.raises(IllegalMove) as err:
        play(state, attack("diamonds"))
    assert "spades already attack another column" in err.value.reason
    assert attack(HEARTS) in err.value.legal_moves
    state, _ = play(state, {"type": "reserve"})
    assert {"type": "continue", "column": HEARTS} in legal(state)  # the Four is back on top
    state, _ = play(state, {"type": "draw"})
    assert state.current.code == "5C"
    assert legal(state) == [
        attack("diamonds"),
        {"type": "reserve"},
        {"type": "continue", "column": HEARTS},
        {"type": "resign"},
    ]
    with pytest.raises(IllegalMove) as err:
        play(state, attack(HEARTS))
    assert "already attacked by spades" in err.value.reason


def test_continue_needs_an_attack_card_on_the_pretender():
    # An attack must begin from the stock: with nothing on the Queen, a Spade on top of the
    # reserve cannot start one.
    state, _ = deal("5S", "QH", "2D", setup_royals=1)
    assert {"type": "continue", "column": HEARTS} not in legal(state)
    with pytest.raises(IllegalMove) as err:
        play(state, {"type": "continue", "column": HEARTS})
    assert "continue" in err.value.reason


def test_malformed_moves_are_refused_with_a_reason():
    state = RA.start("royal")
    for bad in (
        "draw",
        {"type": "fly"},
        {"type": "draw", "extra": 1},
        {"type": "attack"},
        {"type": "attack", "column": "moons"},
        {"type": "attack", "column": HEARTS, "card": "6C"},
    ):
        with pytest.raises(IllegalMove):
            RA.apply(state, 0, bad)


def test_only_seat_zero_plays():
    state = RA.start("royal")
    with pytest.raises(IllegalMove) as err:
        RA.apply(state, 1, {"type": "reserve"})
    assert "one seat" in err.value.reason
    assert RA.legal_moves(state, 1) == []


def test_no_move_after_the_end():
    state = RA.start("royal")
    state, effects = play(state, {"type": "resign"})
    assert effects[-1] == {"type": "end", "result": "lost"}
    assert RA.legal_moves(state, 0) == []
    with pytest.raises(GameOver):
        play(state, {"type": "draw"})


def test_apply_never_mutates_its_input():
    state = RA.start("royal")
    before = RA.view(state, 0)
    play(state, attack(HEARTS))
    assert RA.view(state, 0) == before


# ---- options -------------------------------------------------------------------------------


def test_jokers_in_deck_joker_played_from_the_current_card():
    state, _ = deal("QH", "KH", "3S", "X1", setup_royals=2, jokers_in_deck=True)
    state, _ = play(state, attack(HEARTS))
    assert state.current.code == "X1"
    assert legal(state) == [
        {"type": "reserve"},
        {"type": "joker", "column": HEARTS},
        {"type": "resign"},
    ]
    state, effects = play(state, {"type": "joker", "column": HEARTS})
    assert only(effects, "joker")[0]["from"] == "current"
    assert RA.view(state, 0)["jokers"]["above"] == {HEARTS: "X1"}


def test_jokers_in_deck_joker_played_from_the_reserve():
    state, _ = deal("QH", "KH", "3S", "X1", setup_royals=2, jokers_in_deck=True)
    state, _ = play(state, attack(HEARTS))
    state, _ = play(state, {"type": "reserve"})
    assert state.reserve[-1].code == "X1"
    assert {"type": "joker", "column": HEARTS} in legal(state)
    state, effects = play(state, {"type": "joker", "column": HEARTS})
    assert only(effects, "joker")[0]["from"] == "reserve"


def test_the_joker_in_hand_is_used_before_the_current_card():
    state = RA.set_up(
        stacked("QH", "KH", "3S", "X2", jokers=True), Options(setup_royals=2, jokers_in_deck=True)
    )
    state.jokers_in_hand.append(card("X1"))  # as if it had come back from a destroyed column
    state, _ = settle(RA, state)
    state, _ = play(state, attack(HEARTS))
    state, _ = play(state, {"type": "draw"})
    assert state.current.code == "X2"
    state, effects = play(state, {"type": "joker", "column": HEARTS})
    assert only(effects, "joker")[0] == {
        "type": "joker",
        "card": "X1",
        "column": HEARTS,
        "from": "hand",
    }
    # With no column left for it, the Joker turned up could only go to the reserve.
    assert {"type": "reserve", "card": "X2"} in effects


def test_new_royal_beneath_the_jack_comes_into_play_already_dead():
    top = ("QH", "5S", "6S", "JH")
    state, _ = deal(*top, setup_royals=1, new_royal_beneath=True)
    state, _ = play(state, attack(HEARTS))
    state, effects = play(state, attack(HEARTS))
    assert only(effects, "attack")[0]["strength"] == 1  # 11 points against the Queen
    kill = only(effects, "kill")[0]
    assert kill["royal"] == "JH" and kill["cards"] == ["JH", "5S", "6S"]
    assert column(state, HEARTS)[0] == ("QH", "royal")
    assert strength(state, HEARTS) == 12
    # Under the standard rule the Jack interrupts, untouched, on top.
    state, _ = deal(*top, setup_royals=1)
    state, _ = play(state, attack(HEARTS))
    state, _ = play(state, attack(HEARTS))
    assert column(state, HEARTS)[3] == ("JH", "royal") and strength(state, HEARTS) == 11


def test_joker_discarded_option():
    top = ("QH", "KH", "3S", "9S", "TS")
    state, _ = deal(*top, setup_royals=2, joker_discarded=True)
    state, _ = play(state, attack(HEARTS))
    state, _ = play(state, {"type": "joker", "column": HEARTS})
    state, _ = play(state, attack(HEARTS))
    state, effects = play(state, attack(HEARTS))
    kill = only(effects, "kill")[0]
    assert kill["joker_to"] == "discard" and "X1" not in kill["cards"]
    assert RA.view(state, 0)["jokers"] == {"in_hand": [], "above": {}}
    assert card("X1") in state.discard


def test_exact_cancel_only_keeps_an_overwhelming_defense():
    top = ("JC", "JS", "QS", "KS", "TD", "4C", "6H", "3C")
    state, _ = deal(*top, exact_cancel_only=True)
    state, effects = play(state, attack("clubs"))
    assert only(effects, "cancel") == []
    assert [c for c, _ in column(state, "clubs")][:4] == ["JC", "6H", "4C", "3C"]
    assert only(effects, "defense")[-1]["strength"] == 12  # 11 - 6 + 4 + 3, and it stays


def test_cancel_on_equal_totals_in_both_modes():
    for exact in (False, True):
        state, _ = deal("2C", "4C", "QS", "JC", "6H", setup_royals=2, exact_cancel_only=exact)
        state, effects = play(state, attack("clubs"))
        cancel = only(effects, "cancel")[0]
        assert (cancel["attack"], cancel["defense"]) == (6, 6)


def test_ace_low_after_play_counts_eleven_only_as_it_is_placed():
    # The Ace of Spades hits the Queen of Hearts for 11, then counts 1: the Two of Hearts
    # can now defend (0 <= 1) and, being more than 1, cancels the attack.
    state, _ = deal("2H", "QH", "AS", setup_royals=1, ace_low_after_play=True)
    state, effects = play(state, attack(HEARTS))
    assert only(effects, "attack")[0]["strength"] == 1
    assert only(effects, "cancel")[0]["cards"] == ["AS", "2H"]
    # Standard rule: the Ace stays 11, the Two defends, and the Queen stands at 3.
    state, effects = deal("2H", "QH", "AS", setup_royals=1)
    state, effects = play(state, attack(HEARTS))
    assert only(effects, "cancel") == [] and strength(state, HEARTS) == 3


def test_ace_low_after_play_a_fresh_ace_can_still_kill():
    state, _ = deal("QH", "2S", "AS", setup_royals=1, ace_low_after_play=True)
    state, _ = play(state, attack(HEARTS))
    state, effects = play(state, attack(HEARTS))
    assert only(effects, "kill")[0]["cards"] == ["QH", "2S", "AS"]


def short_game(recycle):
    """A five-card deck: one King, one attack, two dead cards, then the stock runs out."""
    deck = [card(c) for c in ("KH", "2S", "3C", "4C")]
    state = RA.set_up(deck, Options(setup_royals=1, recycle_reserve=recycle))
    state, _ = settle(RA, state)
    return RA.apply(state, 0, attack(HEARTS))


def test_running_out_of_stock_loses():
    state, effects = short_game(recycle=False)
    assert RA.status(state) == "lost" and effects[-1] == {"type": "end", "result": "lost"}
    assert RA.outcome(state) == {"result": "lost", "ruler": "KH", "score": 0}


def test_recycle_reserve_turns_the_reserve_over_once_per_attack():
    state, effects = short_game(recycle=True)
    recycle = only(effects, "recycle")
    assert recycle == [{"type": "recycle", "cards": 2}]
    draws = [e["card"] for e in only(effects, "draw")]
    assert draws == ["3C", "4C", "3C", "4C"]  # the first card placed comes back first
    assert RA.status(state) == "lost"  # no attack since the reserve was turned: game over


# ---- end, ruler and score ---------------------------------------------------------------------


def lost_with(columns):
    state = State(Options(), [], [])
    for name, entries in columns.items():
        idx = ["clubs", "diamonds", "hearts", "spades"].index(name)
        state.columns[idx] = [Entry(card(code), role) for code, role in entries]
    state.status = "lost"
    return state


R = "royal"


def test_ruler_highest_rank():
    state = lost_with({"hearts": [("QH", R)], "spades": [("KS", R)], "diamonds": [("JD", R)]})
    assert RA.ruler(state) == "KS"


def test_ruler_then_strongest():
    state = lost_with({"diamonds": [("QD", R)], "clubs": [("QC", R), ("3H", "attack")]})
    assert RA.ruler(state) == "QD"


def test_ruler_then_largest_entourage_then_its_ranks():
    at_seven = [("5S", "attack")]
    state = lost_with(
        {
            "diamonds": [("KD", R), ("QD", R), *at_seven],
            "clubs": [("JC", R), ("QC", R), ("5H", "attack")],
        }
    )
    assert RA.ruler(state) == "QD"
    state = lost_with(
        {
            "diamonds": [("JD", R), ("KD", R), ("QD", R), *at_seven],
            "clubs": [("KC", R), ("QC", R), ("5H", "attack")],
        }
    )
    assert RA.ruler(state) == "QD"


def test_ruler_joker_on_a_complete_tie():
    state = lost_with({"diamonds": [("QD", R)], "clubs": [("QC", R)]})
    assert RA.ruler(state) == "joker"


def test_scores():
    state, _ = deal("6D", "7S", "QH", "3S", "KH", "5C", "2S", "JH", "9S", "TS", setup_royals=1)
    for move in (
        attack(HEARTS),
        {"type": "continue", "column": HEARTS},
        attack(HEARTS),
        {"type": "joker", "column": HEARTS},
        attack(HEARTS),
        attack(HEARTS),
    ):
        state, _ = play(state, move)
    outcome = RA.outcome(state)
    assert outcome == {"result": "won", "ruler": None, "score": 200 + 36 + len(state.stock)}
