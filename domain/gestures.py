"""How each kind of move is made on a board, declared as data: a client that knows a layout's
elements (docs/web-client.md, "Playing on the board") turns clicks into legal moves with no
knowledge of any game.

A board draws its elements with keys: `column:clubs`, `card:KH2`, `cell:1,2`,
`figurehead:0:king`. A gesture says which elements a move's fields stand for, as key
templates: `{column}` is the move's field `column`, `{cards.king}` a member of an object field,
`{me}` the viewer's seat and `{them}` the other seat. A client lists the seat's legal moves
(`legal_moves` of its view, never anything else), resolves each move's keys, and plays the one
whose elements the player clicked:

- `source` then `target`: pick up one element, put it on another (`attack`: the current card,
  then a column). Either alone is one click (`draw`: the stock). In the target and in `when`,
  `{source.suit}` is an attribute of the source element (a card's suit). `when` makes a
  gesture apply only if its two templates resolve to the same text: the first gesture of a
  move that applies is used.
- `pick`: the items of a list field are picked one by one, in any order (resources to pay),
  then the `target` (if any) is clicked, or the choice confirmed.
- `assign`: each member of an object field is given a value by putting a `source` element on a
  `target` element (`{name}` the member, `{value}` its value): three cards on three heads.
- `tune`: the integers of an object field are set with steppers drawn in the element `zone`
  (a character's dice), then confirmed.

A move with no gesture, or whose elements a board does not draw, is still offered beside the
board (as a button), and every legal move stays in the list of moves for keyboards and screen
readers: gestures only make moves easier to find, they never decide what is legal.

>>> Gesture(source="current", target="column:{column}").to_json()
{'source': 'current', 'target': 'column:{column}'}
>>> shape = MoveShape("attack", {"column": FieldSpec("enum", values=("clubs",))})
>>> gesture_problems((shape,), {"attack": (Gesture(target="column:{colum}"),)})
['attack: {colum} is not a field of the move']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from domain.errors import Json
from domain.moves import FieldSpec, MoveShape

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
SEATS = ("me", "them")
"""Placeholders any template may use: the viewer's seat and the other seat."""


@dataclass(frozen=True, slots=True)
class Pick:
    """The list field `field`, its items picked one by one: each item is the element `key`
    (with `{item}`)."""

    field: str
    key: str

    def to_json(self) -> Json:
        return {"field": self.field, "key": self.key}


@dataclass(frozen=True, slots=True)
class Assign:
    """The object field `field`: each member (`{name}`) gets its value (`{value}`) by putting
    the `source` element on the `target` element."""

    field: str
    source: str
    target: str

    def to_json(self) -> Json:
        return {"field": self.field, "source": self.source, "target": self.target}


@dataclass(frozen=True, slots=True)
class Tune:
    """The object field `field`, of integers: one stepper per member, in the element `zone`."""

    field: str
    zone: str

    def to_json(self) -> Json:
        return {"field": self.field, "zone": self.zone}


@dataclass(frozen=True, slots=True)
class Gesture:
    """One way of making a kind of move on the board (see the module's text)."""

    source: str | None = None
    target: str | None = None
    when: tuple[str, str] | None = None
    pick: Pick | None = None
    assign: Assign | None = None
    tune: Tune | None = None

    def to_json(self) -> Json:
        out: Json = {}
        for name in ("source", "target"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.when is not None:
            out["when"] = list(self.when)
        for name in ("pick", "assign", "tune"):
            part = getattr(self, name)
            if part is not None:
                out[name] = part.to_json()
        return out


Gestures = Mapping[str, tuple[Gesture, ...]]


def gestures_json(gestures: Gestures) -> Json:
    """The declaration as `GET /v1/rulesets` serves it: move type -> its gestures, in order."""
    return {kind: [g.to_json() for g in ways] for kind, ways in gestures.items()}


def _field(shape: MoveShape, path: str) -> FieldSpec | None:
    name, _, member = path.partition(".")
    spec = shape.fields.get(name)
    if spec is None or not member:
        return spec
    return dict(spec.members).get(member)


def _templates(gesture: Gesture) -> Iterator[tuple[str, frozenset[str]]]:
    """Each template of a gesture, with the placeholders it may use besides the move's fields."""
    plain = frozenset(SEATS)
    sourced = plain | {"source.*"} if gesture.source is not None else plain
    if gesture.source is not None:
        yield gesture.source, plain
    if gesture.target is not None:
        yield gesture.target, sourced
    if gesture.when is not None:
        for template in gesture.when:
            yield template, sourced
    if gesture.pick is not None:
        yield gesture.pick.key, plain | {"item"}
    if gesture.assign is not None:
        yield gesture.assign.source, plain | {"name", "value"}
        yield gesture.assign.target, plain | {"name", "value"}


def _kinds(gesture: Gesture) -> Iterator[str]:
    if gesture.pick is not None:
        yield "pick"
    if gesture.assign is not None:
        yield "assign"
    if gesture.tune is not None:
        yield "tune"


def gesture_problems(shapes: tuple[MoveShape, ...], gestures: Gestures) -> list[str]:
    """What is wrong with a ruleset's gestures (empty when nothing is): an unknown move, a
    placeholder that is not a field, a field of the wrong kind, a gesture that says nothing."""
    by_type = {shape.type: shape for shape in shapes}
    problems: list[str] = []
    for kind, ways in gestures.items():
        shape = by_type.get(kind)
        if shape is None:
            problems.append(f"{kind}: not a move of the ruleset")
            continue
        if not ways:
            problems.append(f"{kind}: no gesture")
        for gesture in ways:
            problems += [f"{kind}: {p}" for p in _gesture_problems(shape, gesture)]
    return problems


def _gesture_problems(shape: MoveShape, gesture: Gesture) -> list[str]:
    problems: list[str] = []
    combined = list(_kinds(gesture))
    if len(combined) > 1:
        problems.append(f"one of pick, assign and tune at most (not {', '.join(combined)})")
    if not combined and gesture.source is None and gesture.target is None:
        problems.append("a gesture names a source, a target, or a pick, assign or tune")
    if gesture.tune is not None and (gesture.source or gesture.target):
        problems.append("tune takes no source or target")
    for template, extra in _templates(gesture):
        for name in _PLACEHOLDER.findall(template):
            known = name in extra or (name.startswith("source.") and "source.*" in extra)
            if not known and _field(shape, name) is None:
                problems.append(f"{{{name}}} is not a field of the move")
    expected = {"pick": ("string_list",), "assign": ("object",), "tune": ("object",)}
    for part_name, kinds in expected.items():
        part = getattr(gesture, part_name)
        if part is None:
            continue
        spec = shape.fields.get(part.field)
        if spec is None or spec.kind not in kinds:
            problems.append(f"{part_name}: {part.field} is not a {' or '.join(kinds)} field")
        elif part_name == "tune" and any(m.kind != "integer" for _, m in spec.members):
            problems.append(f"tune: {part.field} has members that are not integers")
    return problems
