"""The record format: how a game's moves are chained so that any tampering shows.

Each stored move carries `hash = SHA-256(previous hash || canonical JSON of {seq, seat, move})`
(hex, UTF-8), where the previous hash of the first move is the seed commitment. Anyone holding
the log can recompute the chain; see docs/record-format.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

RECORD_FORMAT = "royal-court-record/1"
"""The `format` of a game record: docs/record-format.md."""


def canonical_json(value: Any) -> str:
    """Sorted keys, `,` and `:` with no spaces, UTF-8 characters kept as they are.

    >>> canonical_json({"b": 1, "a": "é"})
    '{"a":"é","b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def move_hash(previous: str, seq: int, seat: int, move: Any) -> str:
    """The chained hash of one move: the record format's worked example (seed `royal`).

    >>> from domain.deal import seed_commitment
    >>> first = move_hash(seed_commitment("royal"), 1, 0, {"type": "attack", "column": "hearts"})
    >>> first
    'f432386221aaa486b529c46bb5423362f4c1a02fad4c38dfe8f3b0a62d61cd62'

    Any change to the move, its seat or its place in the log changes the hash:

    >>> first == move_hash(seed_commitment("royal"), 1, 0, {"type": "attack", "column": "clubs"})
    False
    """
    body = canonical_json({"seq": seq, "seat": seat, "move": move})
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


def chain_breaks(commitment: str, moves: Iterable[tuple[int, int, Any, str]]) -> list[int]:
    """The seqs whose stored hash does not match the chain (empty for an intact log)."""
    previous = commitment
    broken: list[int] = []
    for expected_seq, (seq, seat, move, stored) in enumerate(moves, start=1):
        if seq != expected_seq or move_hash(previous, seq, seat, move) != stored:
            broken.append(seq)
        previous = stored
    return broken
