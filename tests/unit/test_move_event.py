"""Log events as stores hand them over: the move kept as JSON text until it is read."""

import json

import pytest

from domain.stored import MoveEvent

AT, HASH = "2026-11-22T00:00:00.000Z", "ab" * 32


def from_row(row):
    """One event as a store hands it over."""
    (event,) = MoveEvent.stored([row])
    return event


def test_a_stored_event_equals_the_event_appended():
    move = {"type": "control", "target": "moon-9", "with": ["sun-3", "leaves-7"]}
    appended = MoveEvent(3, 0, move, AT, HASH, "key-1")
    stored = from_row((3, 0, json.dumps(move), AT, HASH, "key-1"))
    assert stored == appended and appended == stored
    assert stored.move == move and stored.seq == 3 and stored.idempotency_key == "key-1"
    assert stored != MoveEvent(3, 0, {"type": "resign"}, AT, HASH, "key-1")


def test_every_read_of_a_stored_move_is_a_fresh_dict():
    stored = from_row((1, 0, '{"type": "draw"}', AT, HASH, None))
    first = stored.move
    first["type"] = "tampered"
    assert stored.move == {"type": "draw"}


def test_stored_text_is_judged_as_json_loads_judges_it():
    spaced = from_row((1, 0, ' {"type": "draw"} ', AT, HASH, None))
    assert spaced.move == {"type": "draw"}
    with pytest.raises(json.JSONDecodeError):
        _ = from_row((1, 0, '{"type": "draw"} trailing', AT, HASH, None)).move


def test_an_appended_move_must_be_an_object():
    with pytest.raises(TypeError):
        MoveEvent(1, 0, '{"type": "draw"}', AT, HASH)  # type: ignore[arg-type]
