"""The key under which a ruleset remembers a parsed move: only the same JSON shares it."""

from domain.moves import move_key
from domain.transition import UNHEARD


def test_json_values_python_finds_equal_get_different_keys():
    base = {"type": "x", "n": 1}
    for twin in ({"type": "x", "n": True}, {"type": "x", "n": 1.0}, {"type": "x", "n": "1"}):
        key = move_key(twin)
        assert key is None or key != move_key(base)
    assert move_key({"type": "x", "b": False}) != move_key({"type": "x", "b": 0})
    assert move_key({"type": "x", "with": ["a"]}) != move_key({"type": "x", "with": "a"})


def test_nested_or_mixed_values_are_not_remembered():
    assert move_key({"type": "x", "to": [1, 2]}) is None
    assert move_key({"type": "x", "points": {"a": 1}}) is None
    assert move_key({"type": "x", "n": 1.5}) is None
    assert move_key({"type": "x", "with": ["a", 1]}) is None


def test_the_same_move_gets_the_same_key():
    assert move_key({"type": "attack", "column": "clubs"}) == move_key(
        {"type": "attack", "column": "clubs"}
    )


def test_unheard_effects_keep_nothing():
    UNHEARD.append({"type": "draw"})
    UNHEARD.extend([{"type": "draw"}])
    effects = UNHEARD
    effects += [{"type": "draw"}]
    assert UNHEARD == [] and effects is UNHEARD
