"""Royal Assassin Duel: the spec's vectors and scenario tests, and one test per rule
(../shared/specs/royal-assassin-duel.md)."""

import json
from pathlib import Path

import pytest

from domain.deal import DealRandom
from domain.errors import IllegalMove, InvalidOptions
from domain.games.royal_assassin_duel import ROYAL_ASSASSIN_DUEL as DUEL
from domain.games.royal_assassin_duel.rules import CANONICAL, Column, Entry, State, all_codes
from tests.helpers import settle

ROLE = {"+": "attack", "#": "defense"}


def column(*cards):
    """`KC`, then `9H+` (attack) or `2C#` (defense)."""
    return Column([Entry(c[:-1], ROLE[c[-1]]) if c[-1] in ROLE else Entry(c, "royal")
                   for c in cards])  # fmt: skip


def position(turn, a, b, round_=1):
    """A position built by hand with one deck and Jokers: a and b are dicts of columns,
    reserve (bottom first) and hand; the stock and the discard hold every other card."""
    state = State("scenario", 1, True, 4)
    used = set()
    for seat, side in enumerate((a, b)):
        for name, cards in side.get("columns", {}).items():
            state.columns[seat][name] = column(*cards)
            used.update(c.rstrip("+#") for c in cards)
        state.reserves[seat] = list(side.get("reserve", []))
        state.hands[seat] = list(side.get("hand", []))
        used.update(state.reserves[seat] + state.hands[seat])
    state.stock = [c for c in all_codes(1) if c not in used][::-1]
    state.round, state.phase, state.turn = round_, "turn", turn
    return state


def play(state, seat, move):
    return DUEL.apply(state, seat, move).state


def view(state, seat):
    return DUEL.view(state, seat)


def col(state, seat, name):
    return [e["card"] + {"royal": "", "attack": "+", "defense": "#"}[e["role"]]
            for e in view(state, None)["players"][seat]["columns"][name]]  # fmt: skip


def cards(text):
    return text.split()


def test_the_deal_vectors():
    first_30 = cards("4D2 6C1 QD1 AS2 JS1 4S2 2H1 8H2 9C1 9H2 TC2 9H1 5H1 QS2 8S1 3C2 KD2 TD2")
    first_30 += cards("2H2 KH2 8S2 6D1 TH1 KH1 5S2 8C1 5D1 7H1 3C1 6H1")
    assert DUEL.deck("duel", {"decks": 2})[:30] == first_30
    assert DUEL.deck("duel", {"decks": 1})[:12] == cards("9H JS 5H 9S 3D KH QH KD 9D QC QS 6H")
    pile = sorted(cards("KC1 5H1 3C1 2H1 9H1 QS2 AS2"), key=CANONICAL.__getitem__)
    assert DealRandom("duel", "reshuffle-1").shuffle(pile) == cards("9H1 QS2 5H1 KC1 AS2 3C1 2H1")
    assert DealRandom("duel", "reshuffle-2").shuffle(pile) == cards("5H1 QS2 2H1 9H1 3C1 KC1 AS2")


def test_the_spec_view_of_seed_duel():
    state = DUEL.start("duel")
    assert view(state, 0) == {
        "status": "playing", "seat": 0, "round": 1, "phase": "turn", "to_move": [0], "turn": 0,
        "reaction": None, "hand": ["KH2", "8S2", "6D1"], "hand_counts": [3, 3],
        "players": [
            {"columns": {"clubs": [], "diamonds": [{"card": "QD1", "role": "royal"}],
                         "hearts": [], "spades": [{"card": "JS1", "role": "royal"}]},
             "reserve": ["4D2", "6C1", "AS2", "4S2", "2H1"],
             "joker": {"card": "X1", "above": None}},
            {"columns": {"clubs": [], "diamonds": [{"card": "KD2", "role": "royal"}],
                         "hearts": [], "spades": [{"card": "QS2", "role": "royal"}]},
             "reserve": ["8H2", "9C1", "9H2", "TC2", "9H1", "5H1", "8S1", "3C2", "TD2", "2H2"],
             "joker": {"card": "X2", "above": None}}],
        "stock_count": 79, "discard_count": 0, "reshuffles": 0,
        "legal_moves": [
            {"type": "present", "card": "KH2"},
            {"type": "assassinate", "card": "KH2", "column": "spades"},
            {"type": "defend", "card": "8S2", "column": "spades"},
            {"type": "attack", "card": "8S2", "column": "diamonds"},
            {"type": "defend", "card": "6D1", "column": "diamonds"},
            {"type": "attack", "card": "6D1", "column": "spades"},
            {"type": "resign"}],
        "outcome": None,
    }  # fmt: skip
    assert view(state, 1)["hand"] == ["TH1", "KH1", "5S2"]
    assert view(state, None)["hand"] is None and view(state, None)["legal_moves"] == []
    assert view(state, 1)["legal_moves"] == []


def test_example_1_the_king_of_clubs_chain():
    state = position(0, {"columns": {"diamonds": ["JD"]}, "reserve": ["9H", "2H"],
                         "hand": ["5H", "3D", "7S"]},
                     {"columns": {"clubs": ["KC"], "spades": ["JS"]}, "reserve": ["6H", "3C"],
                      "hand": ["4C", "8D", "TS"]})  # fmt: skip
    state = play(state, 0, {"type": "attack", "card": "5H", "column": "clubs"})
    assert col(state, 1, "clubs") == ["KC", "5H+"]
    assert view(state, 1)["phase"] == "reaction" and view(state, 1)["to_move"] == [1]
    assert view(state, 1)["legal_moves"] == [{"type": "react", "column": "clubs"},
                                             {"type": "pass"}, {"type": "resign"}]  # fmt: skip
    state = play(state, 1, {"type": "react", "column": "clubs"})
    assert col(state, 1, "clubs") == ["KC", "5H+", "3C#"] and DUEL.to_move(state) == (0,)
    assert view(state, 0)["legal_moves"] == [{"type": "react", "column": "clubs"},
                                             {"type": "pass"}, {"type": "resign"}]  # fmt: skip
    state = play(state, 0, {"type": "react", "column": "clubs"})
    assert col(state, 1, "clubs") == ["KC", "5H+", "3C#", "2H+"]
    assert view(state, 0)["reaction"] == {"mover": 0, "seat": 0, "passes": 1}
    state = play(state, 0, {"type": "react", "column": "clubs"})
    assert col(state, 1, "clubs") == []
    assert view(state, None)["discard_count"] == len(state.discard)
    assert {"KC", "5H", "3C", "2H", "9H"} <= set(state.discard)
    assert view(state, 1)["phase"] == "turn" and DUEL.to_move(state) == (1,)


def test_example_2_the_jack_of_spades_exact_zero():
    state = position(1, {"columns": {"spades": ["JS"], "hearts": ["QH"]},
                         "reserve": ["7D", "5S"], "hand": ["2S", "6H"]},
                     {"columns": {"clubs": ["KC"]}, "reserve": ["8C", "5H"],
                      "hand": ["2H", "9D", "4S"]})  # fmt: skip
    state = play(state, 1, {"type": "attack", "card": "2H", "column": "spades"})
    assert DUEL.to_move(state) == (0,)
    state = play(state, 0, {"type": "react", "column": "spades"})
    assert col(state, 0, "spades") == ["JS", "2H+", "5S#"] and DUEL.to_move(state) == (1,)
    state = play(state, 1, {"type": "react", "column": "spades"})
    assert col(state, 0, "spades") == ["JS", "2H+", "5S#", "5H+"]
    assert view(state, 0)["phase"] == "turn" and DUEL.to_move(state) == (0,)
    state = play(state, 0, {"type": "defend", "card": "2S", "column": "spades"})
    assert col(state, 0, "spades") == ["JS"]
    assert {"2H", "5S", "5H", "2S"} <= set(state.discard)
    assert DUEL.to_move(state) == (1,)


def test_assassination_needs_an_unprotected_royal_of_the_other_colour_and_no_higher():
    state = position(0, {"columns": {"diamonds": ["JD"]}, "reserve": ["5C"],
                         "hand": ["KH", "TD"]},
                     {"columns": {"spades": ["JS", "QS"], "clubs": ["KC", "9H+", "2C#"]},
                      "hand": ["2D"]})  # fmt: skip
    legal = DUEL.legal_moves(state, 0)
    assert {"type": "assassinate", "card": "KH", "column": "spades"} in legal
    assert {"type": "assassinate", "card": "KH", "column": "clubs"} not in legal
    state = play(state, 0, {"type": "assassinate", "card": "KH", "column": "spades"})
    assert col(state, 1, "spades") == ["JS"] and {"QS", "KH"} <= set(state.discard)


def test_present_suspends_and_the_joker_takes_the_whole_column():
    def before(**a):
        return position(1, {"columns": {"diamonds": ["JD"]}, "reserve": ["3H"],
                            "hand": ["TH", "5S", "4D"], **a},
                        {"columns": {"clubs": ["QC", "9H+"]}, "hand": ["KC", "2D"]})  # fmt: skip

    state = play(before(), 1, {"type": "present", "card": "KC"})
    assert col(state, 1, "clubs") == ["QC", "9H+", "KC"]
    legal = DUEL.legal_moves(state, 0)
    assert {"type": "attack", "card": "TH", "column": "clubs"} in legal
    assert not any(m["type"] == "joker" for m in legal)
    assert {"type": "attack", "card": "5S", "column": "clubs"} not in legal  # hearts only
    state = play(state, 0, {"type": "attack", "card": "TH", "column": "clubs"})
    # seat 1 has no reaction: skipped; seat 0's step
    assert view(state, 0)["legal_moves"] == [
        {"type": "react", "column": "clubs"}, {"type": "joker", "column": "clubs"},
        {"type": "pass"}, {"type": "resign"}]  # fmt: skip
    with_joker = play(play(state, 0, {"type": "joker", "column": "clubs"}), 0,
                      {"type": "react", "column": "clubs"})  # fmt: skip
    assert DUEL.outcome(with_joker) == {"result": "win", "winner": 0, "reason": "wipe",
                                        "score": [11, 0]}  # fmt: skip
    without = play(state, 0, {"type": "react", "column": "clubs"})
    assert col(without, 1, "clubs") == ["QC", "9H+"]  # KC died alone; QC faces the 9H again


def test_discard_only_when_nothing_else_is_possible_and_forced_when_alone():
    state = position(0, {"columns": {"hearts": ["JH"]}, "hand": ["2D"]},
                     {"columns": {"diamonds": ["QD"]}, "hand": ["3C"]})  # fmt: skip
    # 2D: no diamonds column of its own, and no black enemy royal: only a discard, forced
    assert state.hands[0] == ["2D"]
    settled = settle(DUEL, state)
    assert settled.effects[0] == {"type": "forced", "seat": 0,
                                  "move": {"type": "discard", "card": "2D"}}  # fmt: skip
    assert settled.state.reserves[0] == ["2D"]


@pytest.mark.parametrize("theirs, winner, result", [("QC", 0, "win"), ("KC", None, "draw")])
def test_exhaustion_ends_on_royal_value_and_a_draw_is_possible(theirs, winner, result):
    state = position(0, {"columns": {"hearts": ["KH"]}, "hand": ["2H", "3H"]},
                     {"columns": {"clubs": [theirs]}})  # fmt: skip
    state.stock, state.discard = [], []
    state = play(state, 0, {"type": "attack", "card": "2H", "column": "clubs"})
    # no reaction anywhere; seat 1 has no hand, so seat 0 again
    assert DUEL.to_move(state) == (0,)
    state = play(state, 0, {"type": "attack", "card": "3H", "column": "clubs"})
    # both hands empty: the next round deals nothing (stock and discard empty): exhaustion
    assert DUEL.outcome(state) == {"result": result, "winner": winner, "reason": "exhaustion",
                                   "score": [13, 13 if theirs == "KC" else 12]}  # fmt: skip
    # `round` counts the rounds dealt: the one that dealt nothing is not among them
    assert all(view(state, seat)["round"] == 1 for seat in (0, 1, None))


def test_options_are_checked():
    with pytest.raises(InvalidOptions):
        DUEL.start("x", {"decks": 3})
    with pytest.raises(InvalidOptions):
        DUEL.start("x", {"max_reshuffles": 11})
    state = DUEL.start("x", {"decks": 1, "jokers": False})
    assert view(state, 0)["players"][0]["joker"] is None
    assert all(len(c) == 2 for c in DUEL.inventory(state))


def test_only_the_seat_to_move_may_resign():
    state = DUEL.start("duel")
    with pytest.raises(IllegalMove):
        DUEL.apply(state, 1, {"type": "resign"})
    over = DUEL.apply(state, 0, {"type": "resign"}).state
    assert DUEL.outcome(over)["reason"] == "resign" and DUEL.outcome(over)["winner"] == 1
    assert view(over, 0)["hand"] == ["KH2", "8S2", "6D1"]  # its own, not the other's
    assert view(over, 1)["hand"] == ["TH1", "KH1", "5S2"]
    assert "KH2" not in json.dumps(view(over, 1))


def test_the_rules_page_exists():
    text = Path("docs/rules/royal-assassin-duel.md").read_text(encoding="utf-8")
    assert "| seed says | resolution |" in text
