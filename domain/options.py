"""Game options declared as data, so the API, the CLI and the docs all describe them one way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from domain.errors import InvalidOptions

OptionValue = bool | int | str | None
OptionKind = Literal["boolean", "integer", "string"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a ruleset: its JSON type, default, allowed range and meaning."""

    name: str
    kind: OptionKind
    default: OptionValue
    description: str
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def check(self, value: object) -> str | None:
        """Why `value` is not acceptable for this option, or None when it is."""
        if value is None:
            return None if self.nullable else "must not be null"
        if self.kind == "boolean":
            return None if isinstance(value, bool) else "must be true or false"
        if self.kind == "integer":
            return integer_problem(value, self.minimum, self.maximum)
        return None if isinstance(value, str) else "must be a string"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
            "nullable": self.nullable,
        }
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def integer_problem(value: object, minimum: int | None, maximum: int | None) -> str | None:
    """Why `value` is not a JSON integer within the bounds (true and 1.0 are not integers)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "must be an integer"
    if minimum is not None and value < minimum:
        return f"must be at least {minimum}"
    if maximum is not None and value > maximum:
        return f"must be at most {maximum}"
    return None


UNKNOWN_LISTED = 10
"""Unknown option names named one by one in a refusal; the rest are counted. A request of
many short unknown names (a 1 MiB record to verify can hold 132,326) must not get an answer
many times its size."""
NAME_SHOWN = 64
"""Characters of an unknown option's name repeated in a refusal."""


def validate_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Every option of `specs`, taken from `given` or defaulted; InvalidOptions lists all faults."""
    given = {} if given is None else given
    if not isinstance(given, Mapping):
        raise InvalidOptions({"options": "must be an object"})
    by_name = {s.name: s for s in specs}
    errors: dict[str, str] = {}
    unknown = [name for name in given if name not in by_name]
    known = ", ".join(sorted(by_name)) or "none"
    for name in unknown[:UNKNOWN_LISTED]:
        errors[str(name)[:NAME_SHOWN]] = f"unknown option (known: {known})"
    if len(unknown) > UNKNOWN_LISTED:
        errors["..."] = f"and {len(unknown) - UNKNOWN_LISTED} more unknown options"
    result: dict[str, OptionValue] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        problem = spec.check(value)
        if problem is not None:
            errors[spec.name] = problem
        else:
            result[spec.name] = value  # type: ignore[assignment]
    if errors:
        raise InvalidOptions(errors)
    return result


def parse_option_text(text: str) -> OptionValue:
    """How the CLI reads `--option k=v`: true/false, null, integers, else the string itself."""
    lowered = text.strip().lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    if lowered in ("null", "none"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


UNDO_OPTION = OptionSpec(
    "undo",
    "boolean",
    False,
    "Casual play: lets you take back your last move (an undo move; the game's log keeps "
    "it). Never in daily challenges.",
)
"""Offered by every solitaire; played by domain/replay.py, not by the rules."""


def seats_option(minimum: int, maximum: int) -> OptionSpec:
    """How many seats play, offered by a game whose number of seats may vary: it reaches the
    rules with the other options (their `_initial` and `_deal_plan` read it) and is kept in
    the record, so a replay deals for as many seats. The create request's `seats` list sets
    it; its default is the game's fewest seats."""
    return OptionSpec(
        "seats",
        "integer",
        minimum,
        f"How many seats play, {minimum} to {maximum}: as many as the request's `seats` list.",
        minimum=minimum,
        maximum=maximum,
    )
