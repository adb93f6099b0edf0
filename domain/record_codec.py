"""The stored form of what crosses the store ports, written once for every store.

A game record is stored as flat fields, each a scalar: text, an integer, a boolean, or JSON
text for a document (options, outcome, token hashes, the daily attempt, the seats), so that
documents come back exactly as written. The SQLite adapter keeps them as the columns of
`games`, the DynamoDB adapter as the attributes of the record item, and the in-memory store
as a dict; a field that is None is not stored (a NULL column, an absent attribute). A new
field is added here (and, on SQLite, as a column its `_migrate` adds to older files).

Reading is lenient in the ways older stores need: a field missing or None takes its default
(records from before seats, daily challenges, shared deals, salts, expiry or rematches), seats
stored as "[]" read as none, and `seed_known` may be SQLite's 0/1.

>>> record = GameRecord("g", "duel", {}, "s", "c", False, "t", {0: "ab"},
...                     seats=(Seat(), Seat("bot", "best")))
>>> fields = game_fields(record)
>>> fields["token_hashes"], fields["seats"], fields["daily"]
('{"0": "ab"}', '[{"player": "human"}, {"player": "bot", "policy": "best"}]', None)
>>> game_record(fields) == record
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any, cast

from domain.errors import Json
from domain.stored import (
    DailyAttempt,
    DailyDeal,
    Finish,
    GameRecord,
    LeaderboardEntry,
    MoveEvent,
    PlayerKind,
    Seat,
)

Scalar = str | int | bool | None
"""A stored field's value: None means "not stored"."""

GAME_FIELDS = (
    "id",
    "ruleset",
    "options",
    "seed",
    "seed_commitment",
    "seed_known",
    "created_at",
    "token_hashes",
    "status",
    "version",
    "outcome",
    "from_game",
    "finished_at",
    "daily",
    "seats",
    "chain_key",
    "expires_at",
    "rematch",
)
"""A game record's stored fields, in the order of SQLite's `games` columns."""

EVENT_FIELDS = ("seq", "seat", "move", "at", "hash", "idempotency_key")
"""A log event's stored fields, in the order `MoveEvent.stored` reads them back."""


# ---- game records -------------------------------------------------------------------------------


def game_fields(record: GameRecord) -> dict[str, Scalar]:
    """The record's stored fields, every name of GAME_FIELDS (None: not stored)."""
    return {
        "id": record.id,
        "ruleset": record.ruleset,
        "options": json.dumps(record.options),
        "seed": record.seed,
        "seed_commitment": record.seed_commitment,
        "seed_known": record.seed_known,
        "created_at": record.created_at,
        "token_hashes": token_hashes_text(record.token_hashes),
        "status": record.status,
        "version": record.version,
        "outcome": None if record.outcome is None else json.dumps(record.outcome),
        "from_game": record.from_game,
        "finished_at": record.finished_at,
        "daily": None if record.daily is None else json.dumps(_daily_json(record.daily)),
        "seats": json.dumps([_seat_json(s) for s in record.seats]) if record.seats else None,
        "chain_key": record.chain_key,
        "expires_at": record.expires_at,
        "rematch": record.rematch,
    }


def game_record(fields: Mapping[str, Scalar]) -> GameRecord:
    """The record from its stored fields (others, such as a store's keys, are ignored)."""

    def text(name: str) -> str | None:
        value = fields.get(name)
        return None if value is None else str(value)

    def required(name: str) -> str:
        value = text(name)
        if value is None:
            raise ValueError(f"a stored game record has no {name!r}")
        return value

    def integer(name: str) -> int | None:
        value = fields.get(name)
        return None if value is None else int(value)

    daily, seats, outcome = text("daily"), text("seats"), text("outcome")
    return GameRecord(
        id=required("id"),
        ruleset=required("ruleset"),
        options=json.loads(required("options")),
        seed=required("seed"),
        seed_commitment=required("seed_commitment"),
        seed_known=bool(fields["seed_known"]),
        created_at=required("created_at"),
        token_hashes=token_hashes_from_text(required("token_hashes")),
        status=required("status"),
        version=integer("version") or 0,
        outcome=None if outcome is None else json.loads(outcome),
        from_game=text("from_game"),
        finished_at=text("finished_at"),
        daily=None if daily is None else _daily(json.loads(daily)),
        seats=tuple(_seat(s) for s in json.loads(seats)) if seats else (),
        chain_key=text("chain_key"),
        expires_at=integer("expires_at"),
        rematch=text("rematch"),
    )


def finish_fields(finish: Finish, version: int) -> dict[str, Scalar]:
    """The record's fields a finishing move (event `version`) changes: its expiry becomes the
    finished game's (`Finish.expires_at`; None removes it: kept for good)."""
    return {
        "status": finish.status,
        "version": version,
        "outcome": json.dumps(finish.outcome),
        "finished_at": finish.at,
        "expires_at": finish.expires_at,
    }


def token_hashes_text(token_hashes: Mapping[int, str]) -> str:
    """The token hashes as stored: a JSON object keyed by the seat number as a string, in the
    order the seats were joined (a join's conditional write compares this text)."""
    return json.dumps({str(seat): digest for seat, digest in token_hashes.items()})


def token_hashes_from_text(text: str) -> dict[int, str]:
    return {int(seat): str(digest) for seat, digest in json.loads(text).items()}


def _seat_json(seat: Seat) -> Json:
    out: Json = {"player": seat.player}
    if seat.policy is not None:
        out["policy"] = seat.policy
    if seat.invite_hash is not None:
        out["invite_hash"] = seat.invite_hash
    return out


def _seat(data: Json) -> Seat:
    player = data["player"]
    if player not in ("human", "bot"):
        raise ValueError(f"a stored seat's player is human or bot, not {player!r}")
    return Seat(cast(PlayerKind, player), data.get("policy"), data.get("invite_hash"))


def _daily_json(daily: DailyAttempt) -> Json:
    return {"date": daily.date, "player": daily.player_id, "name": daily.name}


def _daily(data: Json) -> DailyAttempt:
    return DailyAttempt(data["date"], data["player"], data["name"])


# ---- log events, daily deals, leaderboard entries ---------------------------------------------


def event_fields(event: MoveEvent) -> dict[str, Scalar]:
    """An event's stored fields (EVENT_FIELDS): the move as JSON text."""
    return {
        "seq": event.seq,
        "seat": event.seat,
        "move": json.dumps(event.move),
        "at": event.at,
        "hash": event.hash,
        "idempotency_key": event.idempotency_key,
    }


def deal_text(deal: DailyDeal) -> str:
    """A daily deal as stored: JSON of every field but `players`, a counter kept beside it
    (so that a ranked attempt can count itself without rewriting the deal)."""
    fields = asdict(deal)
    fields.pop("players")
    return json.dumps(fields)


def deal_from_text(text: str, players: int) -> DailyDeal:
    return replace(DailyDeal(**json.loads(text)), players=players)


def entry_text(entry: LeaderboardEntry) -> str:
    return json.dumps(asdict(entry))


def entry_from_text(text: str) -> LeaderboardEntry:
    fields: dict[str, Any] = json.loads(text)
    return LeaderboardEntry(**fields)
