"""What a requester may see of a game: a logged move with its salt only when shown whole, and
any value with the cards a seat may not know replaced by null. Pure functions, shared by the
reads (`records`), the moves (`playing`) and the court's own `shown`."""

from __future__ import annotations

from typing import Any

from domain.errors import Json
from domain.record import move_salt
from domain.stored import MoveEvent


def logged(event: MoveEvent, shown: Json, chain_key: str | None) -> Json:
    """A move as published in logs and records (the Idempotency-Key stays private), with
    `shown`, the move as the requester may see it (the ruleset's `public_log`). Its `salt`
    comes only with the whole move: the hash of a move shown in part (cards face down, a
    sealed choice) chains from a salt nobody else has, so trying every possible move against
    it finds nothing, while every move a requester sees whole can be checked link by link."""
    out = {"seq": event.seq, "seat": event.seat, "move": shown, "at": event.at,
           "hash": event.hash}  # fmt: skip
    if chain_key is not None and shown == event.move:
        out["salt"] = move_salt(chain_key, event.seq)
    return out


def masked(value: Any, cards: frozenset[str]) -> Any:
    """`value` with every string that names one of `cards` replaced by null."""
    if not cards:
        return value
    if isinstance(value, str):
        return None if value in cards else value
    if isinstance(value, list):
        return [masked(v, cards) for v in value]
    if isinstance(value, dict):
        return {k: masked(v, cards) for k, v in value.items()}
    return value
