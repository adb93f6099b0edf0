"""The record format: how a game's moves are chained so that any tampering shows.

Each stored move carries `hash = SHA-256(previous hash || canonical JSON of its body)` (hex,
UTF-8), where the previous hash of the first move is the seed commitment. The body is
`{seq, seat, move}` in format 1 and `{seq, seat, move, salt}` in format 2, whose `salt` is
HMAC-SHA256(the game's chain key, "salt:<seq>"): a secret the server keeps until the move may
be seen, so that the hash of a hidden move (a face-down placement, a sealed flip) tells nothing
to anyone who could otherwise try every possible move against it. Anyone holding the log can
recompute the chain of every move they may see; see docs/record-format.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

RECORD_FORMAT_V1 = "royal-court-record/1"
"""Moves hashed without salts: games stored before hidden moves were salted."""
RECORD_FORMAT = "royal-court-record/2"
"""The `format` of a game record whose moves carry salts: docs/record-format.md."""
RECORD_FORMATS = (RECORD_FORMAT_V1, RECORD_FORMAT)


def canonical_json(value: Any) -> str:
    """Sorted keys, `,` and `:` with no spaces, UTF-8 characters kept as they are.

    >>> canonical_json({"b": 1, "a": "é"})
    '{"a":"é","b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def move_salt(chain_key: str, seq: int) -> str:
    """The salt of move `seq`: 64 hex characters no one can guess without the chain key.

    >>> move_salt("key", 1)
    '492f851e90c42987acf401032eba85112376e54210f38dafcecea55cb08f9b9a'
    """
    return hmac.new(chain_key.encode("utf-8"), f"salt:{seq}".encode(), hashlib.sha256).hexdigest()


def move_hash(previous: str, seq: int, seat: int, move: Any, salt: str | None = None) -> str:
    """The chained hash of one move: the record format's worked example (seed `royal`).

    >>> from domain.deal import seed_commitment
    >>> first = move_hash(seed_commitment("royal"), 1, 0, {"type": "attack", "column": "hearts"})
    >>> first
    'f432386221aaa486b529c46bb5423362f4c1a02fad4c38dfe8f3b0a62d61cd62'

    Any change to the move, its seat or its place in the log changes the hash:

    >>> first == move_hash(seed_commitment("royal"), 1, 0, {"type": "attack", "column": "clubs"})
    False

    A salted move (format 2) hashes its salt with it:

    >>> move_hash(seed_commitment("royal"), 1, 0, {"type": "attack", "column": "hearts"},
    ...           move_salt("key", 1))
    'bb46a855f71b64571f127d5b4e55ace43d98dd520288323c53c5bae91c0ed781'
    """
    fields: dict[str, Any] = {"seq": seq, "seat": seat, "move": move}
    if salt is not None:
        fields["salt"] = salt
    body = canonical_json(fields)
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


def chain_breaks(
    commitment: str, moves: Iterable[tuple[int, int, Any, str]], salts: Iterable[str] | None = None
) -> list[int]:
    """The seqs whose stored hash does not match the chain (empty for an intact log); `salts`
    gives each move's salt, in order, for a format 2 log."""
    previous = commitment
    broken: list[int] = []
    salt_list = list(salts) if salts is not None else None
    for expected_seq, (seq, seat, move, stored) in enumerate(moves, start=1):
        salt = salt_list[expected_seq - 1] if salt_list is not None else None
        if seq != expected_seq or move_hash(previous, seq, seat, move, salt) != stored:
            broken.append(seq)
        previous = stored
    return broken
