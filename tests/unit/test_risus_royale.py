"""Risus Royale: the spec's 25 vectors, its tables cell by cell, and one test per rule the
vectors do not pin down on their own (../shared/specs/risus-royale.md)."""

import json
from pathlib import Path

import pytest

from domain.deal import DealRandom
from domain.errors import IllegalMove, InvalidOptions
from domain.games.risus_royale import GAME
from domain.games.risus_royale import RISUS_ROYALE as RR
from domain.games.risus_royale.rules import Battle, reachable
from domain.games.risus_royale.tables import (
    CREATURE,
    EDGE,
    GOAL_ALTERNATIVES,
    GOAL_CHART,
    LINES,
    NEIGHBOURS,
    OPPONENT,
    RELEVANT,
    TREASURE,
)
from domain.replay import replay
from tests.helpers import RISUS_VECTORS, strings_in

VECTOR_FILE = RISUS_VECTORS
VECTORS = [json.loads(line) for line in VECTOR_FILE.read_text().splitlines()]
SPEC_FILE = Path(__file__).resolve().parents[3] / "shared" / "specs" / VECTOR_FILE.name


def play(seed, options, moves):
    state = RR.start(seed, options)
    effects = []
    for move in moves:
        state, new = RR.apply(state, 0, move)
        effects += new
    return state, effects


def create(s, c, d, h):
    return {"type": "create", "cliches": {"spades": s, "clubs": c, "diamonds": d, "hearts": h}}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_the_spec_vectors_view_by_view(vector):
    given = vector["input"]
    assert given["ruleset"] == "risus-royale" and given["seat"] == 0
    state, _ = play(given["seed"], given["options"], given["moves"])
    assert RR.view(state, 0) == vector["view"]
    spectator = dict(vector["view"], legal_moves=[])
    assert RR.view(state, None) == spectator


@pytest.mark.skipif(not SPEC_FILE.exists(), reason="the spec folder is not next to this clone")
def test_vendored_vectors_match_the_spec():
    assert VECTOR_FILE.read_bytes() == SPEC_FILE.read_bytes()


def test_there_are_25_vectors_and_the_replay_path_agrees():
    assert len(VECTORS) == 25
    for vector in VECTORS:
        given = vector["input"]
        final = replay(RR, given["seed"], given["options"], [(0, m) for m in given["moves"]])
        assert RR.view(final.state, 0) == vector["view"]


def test_the_deal_of_seed_royal():
    deck = RR.deck("royal")
    assert deck[:4] == ["2D", "2C", "2H", "2S"] and len(deck) == 52 and len(set(deck)) == 52
    rows = [
        "9S/JC/8S",
        "9D/JS/6S",
        "7D/QS/4S",
        "4C/KD/5C",
        "3S/JH/6D",
        "3C/KS/6H",
        "7C/JD/5S",
        "8C/QC/TS",
        "3H/QH/8D",
        "TD/KH/3D",
        "6C/QD/4D",
        "9C/AD/TH",
        "5H/AH/7H",
        "5D/AC/4H",
        "8H/KC/7S",
        "TC/AS/9H",
    ]
    state = RR.start("royal")
    assert [state.piles[i] for i in range(16)] == [cell.split("/") for cell in rows]
    assert state.goal == 8 and RR.view(state, 0)["goal"]["text"] == "Defeat all Elves"


def test_the_creature_table_and_names():
    assert CREATURE["9D"].name == "Sneaky Nasty Yeti/Bigfoot"
    assert CREATURE["9D"].strength == (0, 4, 5, 0)
    assert CREATURE["3H"].name == "Mystical Magical Skeleton"
    assert CREATURE["3H"].strength == (1, 0, 0, 2)
    assert CREATURE["8C"].name == "Nasty Sneaky Troll"
    assert CREATURE["8C"].strength == (0, 5, 3, 0)
    assert CREATURE["TS"].name == "Magical Mystical Dragon"
    assert CREATURE["TS"].strength == (5, 0, 0, 5)
    dice = {3: (2, 1), 4: (2, 2), 5: (3, 2), 6: (4, 2), 7: (5, 2), 8: (5, 3), 9: (5, 4), 10: (5, 5)}
    for code, creature in CREATURE.items():
        value = 10 if code[0] == "T" else int(code[0])
        assert sorted(creature.strength, reverse=True)[:2] == sorted(dice[value], reverse=True)
        assert sum(1 for s in creature.strength if s) == 2


def test_the_opponent_table():
    strengths = {
        "AS": 1,
        "JS": 2,
        "QS": 3,
        "KS": 4,
        "AC": 2,
        "JC": 4,
        "QC": 1,
        "KC": 3,
        "AD": 3,
        "JD": 1,
        "QD": 4,
        "KD": 2,
        "AH": 4,
        "JH": 3,
        "QH": 2,
        "KH": 1,
    }
    for code, strength in strengths.items():
        foe = OPPONENT[code]
        assert sum(foe.strength) == strength and foe.strength["SCDH".index(code[1])] == strength
    assert (OPPONENT["KC"].name, OPPONENT["KC"].char_class, OPPONENT["KC"].race) == (
        "John Wayne",
        "fighter",
        "human",
    )
    assert OPPONENT["AS"].name == "Frato Poofwand" and OPPONENT["QH"].name == "Andorra"


def test_the_treasure_table():
    assert TREASURE["8S"].to_json() == {
        "card": "8S",
        "name": "Magic Aura",
        "kind": "minus",
        "against": "both",
        "suit": "spades",
        "number": 8,
    }
    assert TREASURE["6C"].name == "Helm" and (TREASURE["6C"].kind, TREASURE["6C"].against) == (
        "minus",
        "opponent",
    )
    assert TREASURE["9D"].name == "Monkey's Paw" and TREASURE["9D"].kind == "x"
    assert TREASURE["TH"].name == "Dynamite" and TREASURE["TH"].kind == "w"
    assert TREASURE["3H"].name == "Stole" and TREASURE["3H"].fits("guard")
    assert not TREASURE["3H"].fits("opponent") and TREASURE["5C"].fits("opponent")
    assert TREASURE["7D"].fits("guard") and TREASURE["7D"].fits("opponent")


def test_the_goal_chart_and_alternatives():
    assert len(GOAL_CHART) == 12 and sorted(GOAL_CHART.values()) == list(range(1, 13))
    assert GOAL_CHART[("2S", "2C")] == 1 and GOAL_CHART[("2H", "2D")] == 12
    assert GOAL_CHART[("2D", "2C")] == 8
    assert len(GOAL_ALTERNATIVES[5]) == 4 and len(GOAL_ALTERNATIVES[10]) == 4
    assert len(GOAL_ALTERNATIVES[11]) == 11 and len(GOAL_ALTERNATIVES[12]) == 19
    assert GOAL_ALTERNATIVES[2][0].opponents == {"AC", "JC", "QC", "KC"}
    assert GOAL_ALTERNATIVES[9][0].opponents == {"KC", "KD", "KH", "KS"}
    assert len(LINES) == 11 and all(len(line) == 4 for line in LINES)
    # Relevant opponents go to the victory area: goal 11's lines name none (as the vectors say).
    assert RELEVANT[11] == frozenset() and len(RELEVANT[12]) == 16 and len(RELEVANT[5]) == 16


def test_the_map_edges_and_neighbours():
    assert len(EDGE) == 12 and 5 not in EDGE and 10 not in EDGE
    assert NEIGHBOURS[0] == (1, 4, 5) and len(NEIGHBOURS[5]) == 8
    assert reachable(0, 0) == (1 << 16) - 1  # nothing cleared: everything connected
    # Standing on cleared [0,0] with [0,1] [1,0] [1,1] cleared too: nothing left in reach.
    cleared = 1 | 2 | 16 | 32
    assert reachable(0, cleared) == 0
    # Clear the second column: the first is cut off from a player in the third.
    column_1 = sum(1 << (4 * r + 1) for r in range(4))
    assert reachable(2, column_1) == sum(1 << (4 * r + c) for r in range(4) for c in (2, 3))


def test_create_moves_counts_and_first():
    for points, count in ((10, 44), (11, 40), (12, 31)):
        legal = RR.legal_moves(RR.start("royal", {"points": points}), 0)
        assert len(legal) == count + 1 and legal[-1] == {"type": "resign"}
    assert RR.legal_moves(RR.start("royal"), 0)[0] == create(1, 1, 4, 4)


def test_options_are_checked():
    with pytest.raises(InvalidOptions):
        RR.start("royal", {"points": 13})
    with pytest.raises(InvalidOptions):
        RR.start("royal", {"opponent_bonus": 3})


def test_enter_lists_the_edge_piles_in_order():
    state, _ = play("royal", {}, [create(3, 1, 4, 2)])
    cells = [m["pile"] for m in RR.legal_moves(state, 0)[:-1]]
    assert cells == [
        [0, 0],
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 0],
        [1, 3],
        [2, 0],
        [2, 3],
        [3, 0],
        [3, 1],
        [3, 2],
        [3, 3],
    ]
    with pytest.raises(IllegalMove, match="edge"):
        RR.apply(state, 0, {"type": "enter", "pile": [1, 1]})


@pytest.mark.parametrize(
    "move",
    [
        {"type": "enter", "pile": [1]},
        {"type": "enter", "pile": [0, 4]},
        {"type": "enter", "pile": [0, "1"]},
        {"type": "enter", "pile": [0, True]},
        {"type": "enter", "pile": {"row": 0}},
        {"type": "enter", "pile": [0, 0], "extra": 1},
        {"type": "create", "cliches": {"spades": 4, "clubs": 4, "diamonds": 1}},
        {"type": "create", "cliches": {"spades": 5, "clubs": 3, "diamonds": 1, "hearts": 1}},
        {"type": "round", "cliche": "swords"},
        {"type": "use", "item": ["8S"]},
    ],
)
def test_malformed_moves_are_refused_with_a_reason(move):
    state, _ = play("royal", {}, [create(3, 1, 4, 2)])
    with pytest.raises(IllegalMove) as caught:
        RR.apply(state, 0, move)
    assert caught.value.reason and caught.value.legal_moves


def test_every_die_is_in_an_effect_and_comes_from_the_dice_stream():
    vector = next(v for v in VECTORS if v["name"] == "out-of-turns")
    given = vector["input"]
    state, effects = play(given["seed"], given["options"], given["moves"])
    drawn = []
    for effect in effects:
        if effect["type"] == "roll":
            drawn += effect.get("dice", []) + effect.get("player", []) + effect.get("foe", [])
    assert len(drawn) == state.dice_rolled == vector["view"]["dice_rolled"]
    stream = DealRandom(given["seed"], "dice")
    assert drawn == [stream.uniform(6) + 1 for _ in drawn]


def test_an_arrival_flips_the_guard_and_forces_the_fight_when_nothing_else_is_possible():
    state, effects = play("royal", {}, [create(3, 1, 4, 2), {"type": "enter", "pile": [3, 3]}])
    assert effects[0] == {"type": "flip", "pile": [3, 3], "card": "9H"}
    assert {"type": "forced", "seat": 0, "move": {"type": "fight"}} in effects
    assert RR.view(state, 0)["phase"] == "rounds" and state.dice_rolled == 0


def test_rule_12_no_die_left_at_the_fight_loses_at_once():
    """Wounds carried from the guard can leave no die in the opponent's cliché."""
    state = RR.start("royal")
    state.cliches = (1, 4, 4, 1)
    state.phase, state.position, state.turn = "prepare", 15, 1
    state.wounds = [0, 0, 0, 1]  # hearts lost to the guard
    state.piles[15] = state.piles[15][:2]  # the guard is gone: TC / AS
    state.face_down[15] = 1
    state.battle = Battle(OPPONENT["AH"], 0)  # a cleric: hearts only
    state.piles[15][1] = "AH"
    state.piles[13][1] = "AS"  # keep the 52 cards whole
    assert RR.legal_moves(state, 0) == [{"type": "fight"}, {"type": "resign"}]
    after, effects = RR.apply(state, 0, {"type": "fight"})
    assert {"type": "lost_battle", "foe": "AH"} in effects
    view = RR.view(after, 0)
    assert view["phase"] == "retreat" and view["lost_battles"] == 1 and view["battle"] is None
    assert after.dice_rolled == 0


def test_resign_is_legal_at_any_time_and_scores():
    state, effects = play("royal", {}, [{"type": "resign"}])
    assert RR.outcome(state) == {
        "result": "lost",
        "reason": "resigned",
        "score": 0,
        "defeated": 0,
        "treasures": 0,
    }
    assert effects[-1] == {"type": "end", "result": "lost", "reason": "resigned"}
    assert all(p["face_down"] == 0 for row in RR.view(state, 0)["map"] for p in row)
    with pytest.raises(Exception, match="over"):
        RR.apply(state, 0, {"type": "resign"})


def test_score_of_a_win_and_the_order_of_effects_in_it():
    vector = next(v for v in VECTORS if v["name"] == "won")
    given = vector["input"]
    state, effects = play(given["seed"], given["options"], given["moves"])
    assert RR.outcome(state)["score"] == 244
    assert effects[-1] == {"type": "end", "result": "won", "reason": "goal"}
    kinds = [e["type"] for e in effects]
    last_win = len(kinds) - 1 - kinds[::-1].index("won_battle")
    assert kinds[last_win + 1] == "treasure"


def test_cut_off_piles_turn_up_and_are_announced():
    vector = next(v for v in VECTORS if v["name"] == "cut-off")
    given = vector["input"]
    _, effects = play(given["seed"], given["options"], given["moves"])
    cut = [e for e in effects if e["type"] == "cut_off"]
    assert {"type": "cut_off", "pile": [0, 0], "cards": ["9S", "JS", "9H"]} in cut


def test_no_face_down_card_and_no_future_die_shows_in_any_view_while_playing():
    for vector in VECTORS:
        given = vector["input"]
        state, effects = play(given["seed"], given["options"], given["moves"])
        if RR.is_over(state):
            continue
        hidden = RR.hidden(state, 0)
        for seat in (0, None):
            assert not set(strings_in(RR.view(state, seat))) & hidden
        assert not set(strings_in(effects)) & hidden


def test_the_bots_decide_from_the_view_and_win_some_games():
    from domain.simulate import simulate

    results = list(simulate(GAME, 30, "greedy", seed_prefix="unit"))
    assert any(r.outcome["result"] == "won" for r in results)
    assert all(
        r.outcome["reason"] in ("goal", "cornered", "out_of_turns", "goal_unreachable")
        for r in results
    )
