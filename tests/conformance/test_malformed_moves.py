"""Any JSON value at all, as a move, in any position: a legal transition or IllegalMove.

Moves are checked against each ruleset's declared shapes before any rule sees them, so a
list where a column belongs can never crash the rules (it once did: `unhashable type`).
Every registered ruleset is tested, so a game added later inherits the property.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import IllegalMove
from tests.games import EVERY_GAME

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=10,
)


def vocabulary(ruleset) -> list:
    """Words of the game itself (move types, field names, allowed values): near-misses."""
    words: list = []
    for shape in ruleset.move_shapes:
        words.append(shape.type)
        for name, spec in shape.fields.items():
            words.append(name)
            words.extend(spec.values[:6])
    return words


@st.composite
def hostile_moves(draw, ruleset, legal):
    """Arbitrary JSON, or a legal move with one part swapped for something of the wrong shape."""
    words = vocabulary(ruleset)
    near = st.sampled_from(words)
    anything = st.one_of(JSON_VALUES, near, st.lists(near, max_size=3), st.just({}))
    kind = draw(st.integers(0, 3))
    if kind == 0 or not legal:
        return draw(anything)
    move = dict(draw(st.sampled_from(legal)))
    if kind == 1:
        move[draw(st.sampled_from(sorted(move)))] = draw(anything)
    elif kind == 2:
        move[draw(st.one_of(near, st.text(max_size=5)))] = draw(anything)
    else:
        move.pop(draw(st.sampled_from(sorted(move))))
    return move


def random_position(data, ruleset):
    seed = data.draw(st.text("abcdef0123", min_size=1, max_size=6), label="seed")
    state = ruleset.start(seed)
    for _ in range(data.draw(st.integers(0, 40), label="moves")):
        if ruleset.is_over(state):
            break
        seat = ruleset.to_move(state)[0]
        legal = [m for m in ruleset.legal_moves(state, seat) if m["type"] != "resign"]
        if not legal:
            break
        state = ruleset.apply(state, seat, data.draw(st.sampled_from(legal))).state
    return state


# The games whose random positions take a second per 150 examples (measured): `make unit`
# deselects them (`-m "not slow"`) and runs each in brief below; `make test` runs both.
SLOW = ("risus-royale", "royal-ace-assin", "royal-assassin", "royal-assassin-duel")


@pytest.mark.parametrize(
    "ruleset_id",
    [pytest.param(g, marks=pytest.mark.slow) if g in SLOW else g for g in sorted(EVERY_GAME)],
)
@settings(max_examples=150)
@given(data=st.data())
def test_any_json_is_a_transition_or_illegal(ruleset_id, data):
    ruleset = EVERY_GAME[ruleset_id].ruleset
    state = random_position(data, ruleset)
    if ruleset.is_over(state):
        return
    seat = ruleset.to_move(state)[0]
    legal = ruleset.legal_moves(state, seat)
    move = data.draw(hostile_moves(ruleset, legal), label="move")
    before = json.dumps(ruleset.view(state, seat), sort_keys=True)
    try:
        ruleset.apply(state, seat, move)
    except IllegalMove as e:
        assert e.reason and e.legal_moves == legal
    assert json.dumps(ruleset.view(state, seat), sort_keys=True) == before


@pytest.mark.parametrize("ruleset_id", SLOW)
@settings(max_examples=15)
@given(data=st.data())
def test_any_json_is_a_transition_or_illegal_in_brief(ruleset_id, data):
    test_any_json_is_a_transition_or_illegal.hypothesis.inner_test(ruleset_id, data)


@pytest.mark.parametrize(
    ("ruleset_id", "move", "says"),
    [
        ("royal-assassin", {"type": ["draw"]}, "type must be one of"),
        ("royal-assassin", {"type": {}}, "type must be one of"),
        ("royal-assassin", {"type": "attack", "column": ["hearts"]}, "column must be one of"),
        ("royal-assassin", {"type": "draw", "column": "hearts"}, "no other fields"),
        ("royal-assassin", {"type": "attack"}, "needs column"),
        ("adaman", {"type": "control", "target": ["x"], "with": ["sea"]}, "target must be"),
        ("adaman", {"type": "control", "target": "sea", "with": "sea"}, "with must be a list"),
        ("adaman", {"type": "excuse", "card": {}}, "card must be one of"),
        ("adaman", [], "a move is a JSON object"),
    ],
)
def test_the_reported_crashes_are_clear_illegal_moves(ruleset_id, move, says):
    ruleset = EVERY_GAME[ruleset_id].ruleset
    state = ruleset.start("royal")
    with pytest.raises(IllegalMove, match=says) as caught:
        ruleset.apply(state, 0, move)
    assert caught.value.legal_moves == ruleset.legal_moves(state, 0)
