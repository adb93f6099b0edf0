"""The one stored form of a game record (domain/record_codec.py), without a database: every
record survives its round trip, and the use cases reach the store only through their ports.

The contract suite (tests/integration/test_store_contract.py) checks the same on every store,
and that records written by earlier versions still load."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from domain.record_codec import (
    GAME_FIELDS,
    event_fields,
    finish_fields,
    game_fields,
    game_record,
    token_hashes_from_text,
    token_hashes_text,
)
from domain.stored import DailyAttempt, Finish, GameRecord, MoveEvent, Seat

text = st.text(max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)
documents = st.dictionaries(text, json_values, max_size=4)
seats = st.builds(
    Seat,
    st.sampled_from(["human", "bot"]),
    st.none() | text,
    st.none() | text,
)
records = st.builds(
    GameRecord,
    id=text,
    ruleset=text,
    options=documents,
    seed=text,
    seed_commitment=text,
    seed_known=st.booleans(),
    created_at=text,
    token_hashes=st.dictionaries(st.integers(0, 7), text, max_size=4),
    status=text,
    version=st.integers(0, 10_000),
    outcome=st.none() | documents,
    from_game=st.none() | text,
    finished_at=st.none() | text,
    daily=st.none() | st.builds(DailyAttempt, text, text, text),
    seats=st.lists(seats, max_size=4).map(tuple),
    chain_key=st.none() | text,
    expires_at=st.none() | st.integers(0, 2**40),
    rematch=st.none() | text,
)


@given(records)
def test_every_record_survives_its_stored_form(record):
    fields = game_fields(record)
    assert tuple(fields) == GAME_FIELDS
    assert all(v is None or isinstance(v, str | int) for v in fields.values())
    assert game_record(fields) == record
    # None is "not stored": a store that leaves those fields out reads the same record.
    assert game_record({k: v for k, v in fields.items() if v is not None}) == record


@given(st.dictionaries(st.integers(0, 7), text, max_size=4))
def test_token_hashes_keep_their_stored_form_and_order(token_hashes):
    stored = token_hashes_text(token_hashes)
    assert stored == json.dumps({str(k): v for k, v in token_hashes.items()})
    assert list(token_hashes_from_text(stored).items()) == list(token_hashes.items())


def test_a_finish_sets_the_end_and_the_expiry_it_carries():
    finish = Finish("won", {"result": "won", "score": 4}, "2026-11-22T00:00:09.000Z", "r")
    assert finish_fields(finish, 9) == {
        "status": "won",
        "version": 9,
        "outcome": '{"result": "won", "score": 4}',
        "finished_at": "2026-11-22T00:00:09.000Z",
        "expires_at": None,
    }
    casual = Finish("won", {}, "2026-11-22T00:00:09.000Z", "r", None, 1_800_000_000)
    assert finish_fields(casual, 9)["expires_at"] == 1_800_000_000  # a finished casual game's


def test_an_event_is_read_back_from_its_stored_fields_in_order():
    event = MoveEvent(1, 0, {"type": "draw"}, "t", "h", "key")
    assert MoveEvent.stored([tuple(event_fields(event).values())]) == (event,)


def test_use_cases_reach_the_store_only_through_their_ports():
    """`court.games`, `court.players`, `court.deals`, `court.boards`: each typed as its port,
    so mypy checks what a use case touches; `court.store` (all of them) is for wiring."""
    usecases = Path(__file__).parents[2] / "domain" / "usecases"
    wide = [
        f"{path.name}:{number}"
        for path in sorted(usecases.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bcourt\.store\b", line)
    ]
    assert wide == []
