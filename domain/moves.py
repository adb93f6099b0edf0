"""Move shapes declared as data: one declaration validates moves and documents them.

A move crosses every boundary (HTTP, logs, the CLI) as a small JSON object. Before any rule
looks at one, `check_move` holds it against the ruleset's declared shapes, so that rules code
only ever sees the types it was written for: a list where a column name belongs is refused
here with a clear reason, never met by a dictionary lookup deep in the rules. The same
declaration becomes the JSON Schema that `openapi.yaml` documents for each ruleset.

>>> column = FieldSpec("enum", values=("clubs", "hearts"))
>>> shapes = (MoveShape("draw"), MoveShape("attack", {"column": column}))
>>> check_move(shapes, {"type": "attack", "column": "hearts"}) is None
True
>>> check_move(shapes, {"type": "attack", "column": ["hearts"]})
'an attack move: column must be one of clubs, hearts'
>>> check_move(shapes, {"type": ["draw"]})
'type must be one of draw, attack'
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.errors import Json
from domain.options import integer_problem

FieldKind = Literal["enum", "string_list", "integer", "integer_list", "boolean", "object"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a move: a string from `values`, a list of them, an integer, a list of
    exactly `length` integers (a map cell `[row, column]`), a boolean, or an object whose keys
    are exactly `members` (each a field of its own)."""

    kind: FieldKind
    values: tuple[str, ...] = ()
    nullable: bool = False
    min_items: int = 1
    unique: bool = True
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""
    members: tuple[tuple[str, FieldSpec], ...] = ()
    length: int = 0

    def problem(self, value: object) -> str | None:
        """Why `value` does not fit this field, or None when it does."""
        if value is None:
            return None if self.nullable else "must not be null"
        if self.kind == "enum":
            if isinstance(value, str) and value in self._allowed():
                return None
            return f"must be one of {_listing(self.values)}" + (" or null" if self.nullable else "")
        if self.kind == "string_list":
            if not isinstance(value, list) or not all(
                isinstance(v, str) and v in self._allowed() for v in value
            ):
                return f"must be a list of {_listing(self.values)}"
            if len(value) < self.min_items:
                return f"must list at least {self.min_items}"
            if self.unique and len(set(value)) != len(value):
                return "must not name an item twice"
            return None
        if self.kind == "boolean":
            return None if isinstance(value, bool) else "must be true or false"
        if self.kind == "object":
            return self._object_problem(value)
        if self.kind == "integer_list":
            return self._integer_list_problem(value)
        return integer_problem(value, self.minimum, self.maximum)

    def _integer_list_problem(self, value: object) -> str | None:
        if not isinstance(value, list) or len(value) != self.length:
            return f"must be a list of {self.length} integers"
        for item in value:
            problem = integer_problem(item, self.minimum, self.maximum)
            if problem is not None:
                return f"items {problem}"
        return None

    def _object_problem(self, value: object) -> str | None:
        names = [name for name, _ in self.members]
        if not isinstance(value, dict) or set(value) != set(names):
            return f"must be an object with exactly the keys {', '.join(names)}"
        for name, spec in self.members:
            problem = spec.problem(value[name])
            if problem is not None:
                return f"{name} {problem}"
        return None

    def _allowed(self) -> frozenset[str]:
        return _frozen(self.values)

    def json_schema(self) -> Json:
        schema: Json
        if self.kind == "enum":
            schema = {"type": "string", "enum": list(self.values)}
        elif self.kind == "string_list":
            schema = {
                "type": "array",
                "items": {"type": "string", "enum": list(self.values)},
                "minItems": self.min_items,
                "uniqueItems": self.unique,
            }
        elif self.kind == "boolean":
            schema = {"type": "boolean"}
        elif self.kind == "integer_list":
            item: Json = {"type": "integer"}
            if self.minimum is not None:
                item["minimum"] = self.minimum
            if self.maximum is not None:
                item["maximum"] = self.maximum
            schema = {
                "type": "array",
                "items": item,
                "minItems": self.length,
                "maxItems": self.length,
            }
        elif self.kind == "object":
            schema = {
                "type": "object",
                "properties": {name: spec.json_schema() for name, spec in self.members},
                "required": [name for name, _ in self.members],
                "additionalProperties": False,
            }
        else:
            schema = {"type": "integer"}
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        if self.nullable:
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
            schema["type"] = [schema["type"], "null"]
        if self.description:
            schema["description"] = self.description
        return schema


@dataclass(frozen=True, slots=True)
class MoveShape:
    """One kind of move: its `type` and its other fields, every one of them required."""

    type: str
    fields: Mapping[str, FieldSpec] = field(default_factory=dict)
    description: str = ""

    def json_schema(self) -> Json:
        properties: Json = {"type": {"const": self.type}}
        properties.update({name: spec.json_schema() for name, spec in self.fields.items()})
        schema: Json = {
            "type": "object",
            "properties": properties,
            "required": ["type", *self.fields],
            "additionalProperties": False,
        }
        if self.description:
            schema["description"] = self.description
        return schema


_FROZEN: dict[tuple[str, ...], frozenset[str]] = {}


def _frozen(values: tuple[str, ...]) -> frozenset[str]:
    found = _FROZEN.get(values)
    if found is None:
        found = _FROZEN[values] = frozenset(values)
    return found


def _listing(values: tuple[str, ...], limit: int = 12) -> str:
    shown = ", ".join(values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def check_move(shapes: tuple[MoveShape, ...], move: object) -> str | None:
    """Why `move` is not a move of these shapes (the first fault found), or None if it is."""
    if not isinstance(move, dict):
        return f'a move is a JSON object such as {{"type": "{shapes[0].type}"}}'
    kind = move.get("type")
    shape = next((s for s in shapes if isinstance(kind, str) and s.type == kind), None)
    if shape is None:
        return f"type must be one of {_listing(tuple(s.type for s in shapes))}"
    what = f"{_article(shape.type)} {shape.type} move"
    extra = sorted(str(name) for name in move if name != "type" and name not in shape.fields)
    if extra:
        if not shape.fields:
            return f"{what} has no other fields (not {', '.join(extra)})"
        return f"{what} takes only {', '.join(shape.fields)} (not {', '.join(extra)})"
    for name, spec in shape.fields.items():
        if name not in move:
            return f"{what} needs {name}"
        problem = spec.problem(move[name])
        if problem is not None:
            return f"{what}: {name} {problem}"
    return None


UNDO_MOVE: Json = {"type": "undo"}
UNDO_SHAPE = MoveShape(
    "undo",
    description="Casual solitaires (option undo): take back your last move still in force.",
)


def moves_json_schema(shapes: tuple[MoveShape, ...]) -> Json:
    """The JSON Schema of every move of a ruleset: one `oneOf` branch per shape."""
    return {"oneOf": [shape.json_schema() for shape in shapes]}


_scan_json = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def decode_move(text: str) -> dict[str, Any]:
    """`json.loads` for a move as a store keeps it (a small object), a quarter of its cost: the
    C scanner called directly, with json.loads left to judge anything else (and to raise its
    errors)."""
    try:
        value, end = _scan_json(text, 0)
    except StopIteration:
        value, end = None, -1
    if end != len(text) or type(value) is not dict:
        return json.loads(text)  # type: ignore[no-any-return]
    return value


PARSED_LIMIT = 4096
"""How many distinct move objects a ruleset remembers having parsed (it stops adding there)."""


def move_key(move: dict[str, Any]) -> tuple[object, ...] | None:
    """A hashable key that only the same JSON move has, or None for a move too nested to key.

    Types are part of the key, since JSON's `true` and `1` are equal (and hash alike) in
    Python; a list becomes a tuple of its items, which must then all be strings.
    """
    key: list[object] = []
    for name, value in move.items():
        kind = type(value)
        if kind is list:
            if not all(type(item) is str for item in value):
                return None
            value = tuple(value)
        elif kind not in _SCALARS:
            return None
        key += (name, kind, value)
    return tuple(key)


_SCALARS = frozenset({str, int, bool, type(None)})
