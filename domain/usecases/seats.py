"""Who sits where in a new game: the seats a create request asks for, checked; the number of
them, as the `seats` option of a game whose number may vary; and the creator's seat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.capabilities import AnyRuleset, GameEntry
from domain.errors import InvalidRequest
from domain.stored import GameRecord, Seat


def with_seat_count(
    ruleset: AnyRuleset, options: Mapping[str, Any] | None, count: int
) -> Mapping[str, Any] | None:
    """The options with `seats` set to the seats asked for, where their number may vary (the
    rules deal for as many); a `seats` option that says otherwise is refused."""
    if ruleset.min_seats == ruleset.max_seats:
        return options
    said = (options or {}).get("seats")
    if said is not None and said != count:
        raise InvalidRequest("options", f"seats is {said!r}, but {count} seats were asked for")
    return {**(options or {}), "seats": count}


def seats_asked(entry: GameEntry, seats: object) -> tuple[Seat, ...]:
    """The seats asked for, checked: as many as the ruleset allows, one human at least, bots
    with a policy the game offers. Default: its minimum, every seat human."""
    ruleset = entry.ruleset
    if seats is None:
        return tuple(Seat() for _ in range(ruleset.min_seats))
    if not isinstance(seats, list) or not (ruleset.min_seats <= len(seats) <= ruleset.max_seats):
        count = (
            str(ruleset.min_seats)
            if ruleset.min_seats == ruleset.max_seats
            else f"{ruleset.min_seats} to {ruleset.max_seats}"
        )
        raise InvalidRequest("seats", f"{ruleset.id} takes a list of {count} seat(s)")
    out: list[Seat] = []
    for index, seat in enumerate(seats):
        player = seat.get("player") if isinstance(seat, dict) else None
        policy = seat.get("policy") if isinstance(seat, dict) else None
        if player == "human" and set(seat) == {"player"}:
            out.append(Seat())
        elif player == "bot" and set(seat) <= {"player", "policy"}:
            policy = "best" if policy is None else policy
            if not isinstance(policy, str) or policy not in entry.policies:
                raise InvalidRequest(
                    "seats", f"seats[{index}].policy must be one of {', '.join(entry.policies)}"
                )
            out.append(Seat("bot", policy))
        else:
            raise InvalidRequest(
                "seats",
                f'seats[{index}] must be {{"player": "human"}} or {{"player": "bot", "policy": P}}',
            )
    if all(seat.is_bot for seat in out):
        raise InvalidRequest("seats", "at least one seat must be human")
    return tuple(out)


def creator_seat(record: GameRecord) -> int:
    return next(i for i, s in enumerate(record.seat_list) if not s.is_bot)
