"""Verifying a game record offline: the deal was fixed before play and the log is untouched.

Given only a record (docs/record-format.md), the deal algorithm and the rules, `verify`
checks, in this order, and stops at the first problem (what follows a broken link proves
nothing):

1. the record's shape: every field present with the right JSON type, the id and times well
   formed, and times never going backwards (the id and the times are the server's word: the
   chain does not cover them, see docs/record-format.md);
2. the ruleset is known and the options are exactly its full options;
3. the seed is revealed and SHA-256(seed) is the seed commitment published at creation;
4. the hash chain: seq 1, 2, 3, ... with no gap, each hash chained from the commitment;
5. every move was legal when it was made (replayed from the seed, undo events included);
6. the status and outcome (result and score) are what the replay gives.

Any JSON value at all may be handed in: a hostile record is a verdict, never an exception.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from domain.deal import SEED_PATTERN, seed_commitment
from domain.errors import IllegalMove, InvalidOptions, Json, UnknownRuleset
from domain.record import RECORD_FORMAT, RECORD_FORMAT_V1, RECORD_FORMATS, move_hash
from domain.registry import GAMES, get_ruleset
from domain.replay import Playthrough
from domain.usecases.court import GAME_ID
from domain.usecases.playing import MAX_EVENTS

MAX_RECORD_EVENTS = MAX_EVENTS + 64
"""The most events a record of this service can hold: the players' cap, the bots' replies to
the last move and a resign. Checked before anything is replayed, so that the work of one
verdict is bounded (a longer log is no record of ours)."""

TIME_FORMAT = "YYYY-MM-DDTHH:MM:SS.mmmZ"
TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
SALT = re.compile(r"[0-9a-f]{64}")

REQUIRED: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "id": str,
    "ruleset": str,
    "options": dict,
    "seed_commitment": str,
    "created_at": str,
    "moves": list,
    "status": str,
    "outcome": (dict, type(None)),
}
MOVE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seq": int,
    "seat": int,
    "move": dict,
    "at": str,
    "hash": str,
}


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong: where (`seq`, or None for the record itself), what was expected there
    and what was found."""

    seq: int | None
    field: str
    expected: Any
    found: Any
    message: str

    def to_json(self) -> Json:
        return {"seq": self.seq, "field": self.field, "expected": _bounded(self.expected),
                "found": _bounded(self.found), "message": self.message}  # fmt: skip


SHOWN_JSON = 256
"""The most characters of JSON a problem's `expected` or `found` shows: a longer value (the
options of a 1 MiB record, say) is cut to that many characters of its JSON text, ending in
"...", so that a verdict stays small whatever the record it judges."""


def _bounded(value: Any) -> Any:
    """`value`, or the start of its JSON text when that is longer than SHOWN_JSON.

    >>> _bounded({"a": 1}), len(_bounded(["x" * 300]))
    ({'a': 1}, 256)
    """
    try:
        text = json.dumps(value, default=str)
    except (RecursionError, ValueError):  # nested past what can be written: never ours
        return "(nested too deeply to show)"
    return value if len(text) <= SHOWN_JSON else text[: SHOWN_JSON - 3] + "..."


@dataclass(frozen=True, slots=True)
class Verdict:
    valid: bool
    ruleset: str | None = None
    result: str | None = None
    score: Any = None
    moves: int = 0
    problems: list[Problem] = field(default_factory=list)
    winner: int | None = None  # the winning seat, in a game of several seats

    def to_json(self) -> Json:
        return {
            "valid": self.valid,
            "ruleset": self.ruleset,
            "result": self.result,
            "score": self.score,
            "moves": self.moves,
            "winner": self.winner,
            "problems": [p.to_json() for p in self.problems],
        }

    def summary(self) -> str:
        """One line: `OK <ruleset> <result> <score> (<n> moves)`, or the first problem."""
        if self.valid and self.result is None and self.winner is not None:
            return f"OK {self.ruleset} seat {self.winner} won ({self.moves} moves)"
        if self.valid:
            return f"OK {self.ruleset} {self.result} {self.score} ({self.moves} moves)"
        p = self.problems[0]
        where = "record" if p.seq is None else f"seq {p.seq}"
        return (
            f"INVALID at {where}, {p.field}: {p.message} "
            f"(expected {_short(p.expected)}, found {_short(p.found)})"
        )


def nested_too_deeply() -> Verdict:
    """The verdict on JSON nested past what can be read or hashed: no record of ours is (a
    record's moves are a few levels deep), so it is a verdict like any other refusal."""
    problem = Problem(None, "record", "a record", "JSON nested too deeply", "nested too deeply")
    return Verdict(False, problems=[problem])


class _Refused(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    if isinstance(value, bool) and kind is int:
        return False
    return isinstance(value, kind)


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "string", int: "integer", dict: "object", list: "array", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _fail(seq: int | None, where: str, expected: Any, found: Any, message: str) -> _Refused:
    return _Refused(Problem(seq, where, expected, found, message))


def verify(record: object) -> Verdict:
    """The verdict on `record`: valid, or the first problem found (see the module's list)."""
    try:
        return _verify(record)
    except RecursionError:  # JSON nested past what can be hashed: no record of ours
        return nested_too_deeply()
    except _Refused as refused:
        name = record.get("ruleset") if isinstance(record, dict) else None
        known = name if isinstance(name, str) and name in GAMES else None  # never an echo
        return Verdict(False, known, problems=[refused.problem])


def _verify(record: object) -> Verdict:
    # 1. Shape.
    if not isinstance(record, dict):
        raise _fail(None, "record", "an object", type(record).__name__, "a record is a JSON object")
    for name, kind in REQUIRED.items():
        if name not in record:
            raise _fail(None, name, _type_name(kind), None, f"the record has no {name}")
        if not _is(record[name], kind):
            raise _fail(
                None, name, _type_name(kind), _short(record[name]), f"{name} has the wrong type"
            )
    if record["format"] not in RECORD_FORMATS:
        raise _fail(None, "format", RECORD_FORMAT, record["format"], "an unknown record format")
    salted = record["format"] != RECORD_FORMAT_V1
    if GAME_ID.fullmatch(record["id"]) is None:
        raise _fail(None, "id", GAME_ID.pattern, _short(record["id"]), "not a game id")
    if TIMESTAMP.fullmatch(record["created_at"]) is None:
        raise _fail(None, "created_at", TIME_FORMAT, _short(record["created_at"]), "not a time")
    if len(record["moves"]) > MAX_RECORD_EVENTS:
        why = "more events than a game of this service may have"
        raise _fail(None, "moves", f"at most {MAX_RECORD_EVENTS}", len(record["moves"]), why)
    earliest = record["created_at"]
    for index, entry in enumerate(record["moves"]):
        seq = index + 1
        if not isinstance(entry, dict):
            raise _fail(seq, "moves", "an object", _short(entry), "a logged move is an object")
        for name, kind in MOVE_FIELDS.items():
            if not _is(entry.get(name), kind):
                why = f"{name} is missing or mistyped"
                raise _fail(seq, name, _type_name(kind), _short(entry.get(name)), why)
        if salted and not (isinstance(entry.get("salt"), str) and SALT.fullmatch(entry["salt"])):
            why = "a move of a complete record carries its salt (64 lowercase hex characters)"
            raise _fail(seq, "salt", "64 hex characters", _short(entry.get("salt")), why)
        if TIMESTAMP.fullmatch(entry["at"]) is None or entry["at"] < earliest:
            expected = f"{TIME_FORMAT}, not before {earliest}"
            why = "not a time, or earlier than the time before it"
            raise _fail(seq, "at", expected, _short(entry["at"]), why)
        earliest = entry["at"]

    # 2. Ruleset and options.
    try:
        ruleset = get_ruleset(record["ruleset"])
    except UnknownRuleset as e:
        raise _fail(None, "ruleset", e.known, record["ruleset"], "no such ruleset") from None
    try:
        full = ruleset.validate_options(record["options"])
    except InvalidOptions as e:
        raise _fail(None, "options", "valid options", e.errors, "the options are refused") from None
    if full != record["options"]:
        raise _fail(None, "options", full, record["options"], "options must list every option")
    count = ruleset.seat_count(full)
    for index, entry in enumerate(record["moves"]):
        if not 0 <= entry["seat"] < count:
            seats = f"0 to {count - 1}"
            raise _fail(index + 1, "seat", seats, entry["seat"], f"{ruleset.id} has no such seat")

    # 3. Seed and commitment.
    seed = record.get("seed")
    if seed is None:
        why = "the seed is not revealed yet: only a finished game can be verified"
        raise _fail(None, "seed", "the revealed seed", None, why)
    if not isinstance(seed, str) or SEED_PATTERN.fullmatch(seed) is None:
        raise _fail(None, "seed", "1-128 of [A-Za-z0-9._:-]", _short(seed), "not a seed")
    if seed_commitment(seed) != record["seed_commitment"]:
        raise _fail(None, "seed", record["seed_commitment"], seed_commitment(seed),
                    "SHA-256 of the seed is not the commitment published at creation")  # fmt: skip

    # 4. Hash chain.
    previous = record["seed_commitment"]
    for index, entry in enumerate(record["moves"]):
        expected_seq = index + 1
        if entry["seq"] != expected_seq:
            raise _fail(expected_seq, "seq", expected_seq, entry["seq"],
                        "moves must be numbered 1, 2, 3, ... with no gap")  # fmt: skip
        salt = entry["salt"] if salted else None
        try:
            digest = move_hash(previous, entry["seq"], entry["seat"], entry["move"], salt)
        except UnicodeEncodeError:  # a lone surrogate: JSON may hold one, UTF-8 may not
            why = "the move holds a lone surrogate: no record of ours"
            raise _fail(expected_seq, "move", "UTF-8 text", _short(entry["move"]), why) from None
        if digest != entry["hash"]:
            raise _fail(expected_seq, "hash", digest, entry["hash"],
                        "the hash does not chain from the previous one")  # fmt: skip
        previous = digest

    # 5. Every move legal when made.
    game = Playthrough(ruleset, seed, full)
    for entry in record["moves"]:
        seq = entry["seq"]
        if ruleset.is_over(game.state):
            raise _fail(seq, "move", "no move: the game was over", entry["move"],
                        "a move after the end of the game")  # fmt: skip
        try:
            game.play(entry["seat"], entry["move"])
        except IllegalMove as e:
            raise _fail(seq, "move", e.legal_moves, entry["move"], f"illegal: {e.reason}") from None

    # 6. Status and outcome.
    status, outcome = ruleset.status(game.state), ruleset.outcome(game.state)
    last = record["moves"][-1]["seq"] if record["moves"] else None
    if record["status"] != status:
        raise _fail(last, "status", status, record["status"], "the status is not what replay gives")
    if record["outcome"] != outcome:
        raise _fail(last, "outcome", outcome, record["outcome"],
                    "the outcome is not what replay gives")  # fmt: skip
    if outcome is None:
        raise _fail(None, "status", "a finished game", status,
                    "the game is still being played: its record is not complete")  # fmt: skip
    return Verdict(True, ruleset.id, outcome["result"], outcome.get("score"),
                   len(record["moves"]), winner=outcome.get("winner"))  # fmt: skip
