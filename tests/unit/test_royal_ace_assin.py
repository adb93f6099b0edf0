"""Royal Ace-assin: the spec's two vectors, each rule, and the views of both seats and a
spectator (../shared/specs/royal-ace-assin.md)."""

import pytest

from domain.errors import IllegalMove, InvalidOptions
from domain.games.royal_ace_assin import GAME
from domain.games.royal_ace_assin import ROYAL_ACE_ASSIN as RAA
from domain.games.royal_ace_assin.bots import plan
from domain.replay import replay
from tests.helpers import strings_in


def place(k, q, j):
    return {"type": "place", "cards": {"king": k, "queen": q, "jack": j}}


def flip(*targets):
    return {"type": "flip", "targets": list(targets)}


def suit(name):
    return {"type": "choose_suit", "suit": name}


def kill(target):
    return {"type": "assassinate", "target": target}


EXAMPLE = [
    (0, suit("hearts")),
    (1, suit("spades")),
    (0, place("3H", "TH", "9H")),
    (1, place("TS", "8S", "7S")),
    (0, flip("queen")),
    (1, flip("king")),
    (0, place("6H", "7H", "4H")),
    (1, place("6S", "9S", "2S")),
    (0, flip("queen", "jack")),
    (1, flip("king", "jack")),
    (0, place("2H", "5H", "8H")),
    (1, place("4S", "3S", "5S")),
    (0, kill("king")),
    (1, kill("queen")),
]

TIEBREAK = [
    (0, suit("hearts")),
    (1, suit("spades")),
    (0, place("3H", "TH", "9H")),
    (1, place("3S", "TS", "9S")),
    (0, flip("queen")),
    (1, flip("queen")),
    (0, place("6H", "7H", "4H")),
    (1, place("6S", "7S", "4S")),
    (0, flip("queen", "jack")),
    (1, flip("jack", "queen")),
    (0, place("2H", "5H", "8H")),
    (1, place("2S", "5S", "8S")),
    (1, kill("queen")),
    (0, kill("queen")),
]


def after(events, seed="example"):
    return replay(RAA, seed, None, events).state


def face_up(state):
    view = RAA.view(state, None)
    return {
        (seat, f, s["card"])
        for seat, side in enumerate(view["sides"])
        for f, head in (side["figureheads"] or {}).items()
        for s in head["supporters"]
        if s["face_up"]
    }


def test_the_example_game_vector():
    assert face_up(after(EXAMPLE[:6])) == {(0, "king", "3H"), (1, "queen", "8S")}
    assert [s["exposed"] for s in RAA.view(after(EXAMPLE[:10]), None)["sides"]] == [13, 19]
    gambit = RAA.view(after(EXAMPLE[:12]), None)
    assert gambit["phase"] == "gambit" and gambit["first_assassin"] == 0
    assert [s["exposed"] for s in gambit["sides"]] == [28, 31] and gambit["to_move"] == [0]
    face_down = [
        s
        for side in gambit["sides"]
        for head in side["figureheads"].values()
        for s in head["supporters"]
        if not s["face_up"]
    ]
    assert len(face_down) == 6
    final = after(EXAMPLE)
    assert RAA.status(final) == "finished"
    assert RAA.outcome(final) == {
        "result": None,
        "score": None,
        "winner": 0,
        "ruler": "JH",
        "decided_by": "total",
        "totals": [
            {"king": 11, "queen": None, "jack": 21},
            {"king": None, "queen": 20, "jack": 14},
        ],
        "tiebreak": [],
    }
    assert RAA.view(final, 0)["outcome"] | {} == RAA.outcome(final) | {"result": "won", "score": 1}
    assert RAA.view(final, 1)["outcome"]["result"] == "lost"
    assert RAA.view(final, 1)["outcome"]["score"] == 0


def test_the_spec_view_of_seat_1_after_move_5():
    view = RAA.view(after(EXAMPLE[:5]), 1)
    assert view == {
        "status": "playing",
        "phase": "flip",
        "turn": 1,
        "seat": 1,
        "to_move": [1],
        "submitted": [True, False],
        "sealed": None,
        "first_assassin": None,
        "sides": [
            {
                "suit": "hearts",
                "hand": None,
                "hand_count": 6,
                "assassin": {"card": "AH", "target": None},
                "exposed": 0,
                "figureheads": {
                    "king": {
                        "card": "KH",
                        "alive": True,
                        "supporters": [{"card": None, "face_up": False}],
                    },
                    "queen": {
                        "card": "QH",
                        "alive": True,
                        "supporters": [{"card": None, "face_up": False}],
                    },
                    "jack": {
                        "card": "JH",
                        "alive": True,
                        "supporters": [{"card": None, "face_up": False}],
                    },
                },
            },
            {
                "suit": "spades",
                "hand": ["2S", "3S", "4S", "5S", "6S", "9S"],
                "hand_count": 6,
                "assassin": {"card": "AS", "target": None},
                "exposed": 0,
                "figureheads": {
                    "king": {
                        "card": "KS",
                        "alive": True,
                        "supporters": [{"card": "TS", "face_up": False}],
                    },
                    "queen": {
                        "card": "QS",
                        "alive": True,
                        "supporters": [{"card": "8S", "face_up": False}],
                    },
                    "jack": {
                        "card": "JS",
                        "alive": True,
                        "supporters": [{"card": "7S", "face_up": False}],
                    },
                },
            },
        ],
        "legal_moves": [flip("king"), flip("queen"), flip("jack"), {"type": "resign"}],
        "outcome": None,
    }
    mine = RAA.view(after(EXAMPLE[:5]), 0)
    assert mine["sealed"] == flip("queen") and mine["legal_moves"] == [{"type": "resign"}]


def test_the_tiebreak_vector():
    state = after(TIEBREAK, seed="royal")
    assert RAA.view(after(TIEBREAK[:12], seed="royal"), None)["first_assassin"] == 1
    outcome = RAA.outcome(state)
    assert outcome["totals"] == [{"king": 11, "queen": None, "jack": 21}] * 2
    assert outcome["decided_by"] == "tiebreak"
    assert outcome["tiebreak"] == [["6H", "6S"], ["7H", "5S"]]
    assert (outcome["winner"], outcome["ruler"]) == (0, "JH")


def test_rank_decides_among_the_tied_only():
    # seat 0: K 11, J 21 (Q killed); seat 1 mirrors but its King carries 21 and Jack 11
    moves = [
        *TIEBREAK[:3],
        (1, place("9S", "TS", "3S")),
        *TIEBREAK[4:7],
        (1, place("4S", "7S", "6S")),
        *TIEBREAK[8:11],
        (1, place("8S", "5S", "2S")),
        (0, kill("queen")),
        (1, kill("queen")),
    ]
    outcome = RAA.outcome(after(moves, seed="royal"))
    assert outcome["totals"][1] == {"king": 21, "queen": None, "jack": 11}
    assert (outcome["decided_by"], outcome["winner"], outcome["ruler"]) == ("rank", 1, "KS")


def test_legal_move_order_and_counts():
    state = after(EXAMPLE[:2])
    moves = RAA.legal_moves(state, 0)
    assert len(moves) == 505 and moves[-1] == {"type": "resign"}
    assert moves[0] == place("2H", "3H", "4H") and moves[1] == place("2H", "3H", "5H")
    assert moves[503] == place("TH", "9H", "8H")
    assert len(RAA.legal_moves(after(EXAMPLE[:6]), 0)) == 121
    assert len(RAA.legal_moves(after(EXAMPLE[:10]), 1)) == 7
    assert RAA.legal_moves(after(EXAMPLE[:8]), 1) == [
        flip("king", "queen"),
        flip("king", "jack"),
        flip("queen", "jack"),
        {"type": "resign"},
    ]
    assert RAA.legal_moves(after(EXAMPLE[:1]), 1) == [
        suit("clubs"),
        suit("diamonds"),
        suit("spades"),
        {"type": "resign"},
    ]
    assert RAA.legal_moves(after(EXAMPLE[:12]), 0) == [
        kill("king"),
        kill("queen"),
        kill("jack"),
        {"type": "resign"},
    ]


@pytest.mark.parametrize(
    "events, seat, move",
    [
        (EXAMPLE[:1], 1, suit("hearts")),  # seat 0's suit
        (EXAMPLE[:2], 0, place("3H", "3H", "9H")),  # not distinct
        (EXAMPLE[:2], 0, place("3S", "TH", "9H")),  # not in the hand
        (EXAMPLE[:4], 0, flip("queen", "jack")),  # turn 1 flips one
        (EXAMPLE[:8], 0, flip("queen")),  # turn 2 flips two
        (EXAMPLE[:2], 1, suit("clubs")),  # the suits are chosen
        (EXAMPLE[:12], 1, kill("king")),  # seat 0 sends first
        ([], 1, suit("clubs")),  # seat 0 chooses first
    ],
)
def test_illegal_moves(events, seat, move):
    with pytest.raises(IllegalMove):
        RAA.apply(after(events), seat, move)


@pytest.mark.parametrize(
    "move",
    [
        {"type": "flip", "targets": ["queen", "queen"]},
        {"type": "place", "cards": {"king": "2H", "queen": "3H"}},
        {"type": "place", "cards": {"king": "2H", "queen": "3H", "jack": "4H", "ace": "AH"}},
        {"type": "place", "cards": ["2H", "3H", "4H"]},
        {"type": "place", "cards": {"king": "AH", "queen": "3H", "jack": "4H"}},
        {"type": "choose_suit", "suit": "hearts", "extra": 1},
        {"type": "assassinate", "target": "ace"},
    ],
)
def test_malformed_moves_are_refused(move):
    with pytest.raises(IllegalMove):
        RAA.apply(after(EXAMPLE[:4]), 0, move)


def test_flip_targets_in_any_order_are_normalised():
    a = RAA.apply(after(EXAMPLE[:8]), 1, flip("jack", "king")).state
    b = RAA.apply(after(EXAMPLE[:8]), 1, flip("king", "jack")).state
    assert RAA.view(a, 1) == RAA.view(b, 1)
    assert RAA.view(a, 1)["sealed"] == flip("king", "jack")


def test_no_options():
    with pytest.raises(InvalidOptions):
        RAA.start("x", {"undo": True})
    assert RAA.deck("x") == []
    assert RAA.describe()["seats"] == {"min": 2, "max": 2}


def test_turn_3_flips_itself_and_starts_the_gambit():
    state = after(EXAMPLE[:11])
    assert RAA.view(state, None)["phase"] == "place"
    effects = RAA.apply(state, 1, EXAMPLE[11][1]).effects
    assert [e["type"] for e in effects][-7:] == ["revealed"] * 6 + ["gambit"]


def test_resign_at_any_time_by_either_seat_shows_everything():
    state = after(EXAMPLE[:5])
    over = RAA.apply(state, 1, {"type": "resign"}).state
    assert RAA.status(over) == "resigned"
    outcome = RAA.outcome(over)
    assert (outcome["winner"], outcome["decided_by"], outcome["ruler"], outcome["totals"]) == (
        0,
        "resignation",
        None,
        None,
    )
    spectator = RAA.view(over, None)
    assert spectator["sealed"] is None and spectator["submitted"] == [False, False]
    assert spectator["sides"][0]["hand"] == ["2H", "4H", "5H", "6H", "7H", "8H"]
    assert all(
        s["face_up"]
        for side in spectator["sides"]
        for head in side["figureheads"].values()
        for s in head["supporters"]
    )
    # seat 0 resigns while waiting for seat 1's flip: legal out of turn
    assert RAA.status(RAA.apply(state, 0, {"type": "resign"}).state) == "resigned"


def test_views_hide_the_other_seat_and_spectators_see_no_hidden_card():
    state = after(EXAMPLE[:9])
    for seat in (0, 1, None):
        shown = set(strings_in(RAA.view(state, seat)))
        assert not shown & RAA.hidden(state, seat)
    assert RAA.view(state, 1)["sealed"] is None  # seat 0's sealed flip is not shown


def test_public_log_filters_places_and_sealed_flips():
    state = after(EXAMPLE[:9])
    shown = RAA.public_log(state, EXAMPLE[:9], 1)
    assert shown[2] == {"type": "place"} and shown[6] == {"type": "place"}
    assert shown[4] == flip("queen")  # resolved in turn 1: public
    assert shown[8] == {"type": "flip"}  # still sealed
    assert shown[3] == EXAMPLE[3][1]  # its own
    assert RAA.public_log(after(EXAMPLE), EXAMPLE, None) == [m for _, m in EXAMPLE]


def test_best_plans_two_strong_figureheads():
    split = plan([r + "S" for r in "23456789T"])
    assert [sum("23456789T".index(c[0]) + 2 for c in split[f]) for f in split] == [23, 22, 9]


def test_a_bot_decides_from_its_view_alone():
    """Scramble what seat 1 cannot see (seat 0's hand and face-down cards): same decision."""
    base = EXAMPLE[:2]
    one = after([*base, (0, place("2H", "3H", "4H"))])
    other = after([*base, (0, place("TH", "9H", "8H"))])
    assert RAA.view(one, 1) == RAA.view(other, 1)
    for name, make in GAME.policies.items():
        from domain.deal import DealRandom

        a = make(DealRandom("s", "bot"))(RAA, one, 1, RAA.legal_moves(one, 1))
        b = make(DealRandom("s", "bot"))(RAA, other, 1, RAA.legal_moves(other, 1))
        assert a == b, name


def test_sealed_shows_the_viewers_own_placement_while_the_other_seat_has_not_placed():
    """The spec's `sealed`: the viewer's own submitted move of the current simultaneous step,
    a placement as well as a flip; never the other seat's, never to a spectator."""
    game = replay(RAA, "sealed", None, EXAMPLE[:3])  # seat 0 has placed, seat 1 not yet
    mine = RAA.view(game.state, 0)
    assert mine["sealed"] == place("3H", "TH", "9H") and mine["submitted"] == [True, False]
    assert RAA.view(game.state, 1)["sealed"] is None
    assert RAA.view(game.state, None)["sealed"] is None
    assert "3H" not in strings_in(RAA.view(game.state, 1))
    game.play(*EXAMPLE[3])  # both have placed: the step is over
    assert all(RAA.view(game.state, s)["sealed"] is None for s in (0, 1, None))
