"""What a game shows, declared as data: its view, its effects and its outcome, as JSON Schema.

Moves (`domain/moves.py`) and options (`domain/options.py`) were already declarations; the
JSON a game sends back was not, though the playthrough, the CLI, the web client and the
OpenAPI generator all read it. Each game now declares it beside its rules
(`domain/games/<game>/contract.py`), exposed on its `Ruleset` as `view_schema`,
`effect_schemas` (by effect `type`) and `outcome_schema`, and the conformance suite holds
every view, effect and outcome of random games against them
(`tests/conformance/test_declarations.py`).

This module is what the games share: the few builders that keep every declaration strict
(closed objects, every key always present required, named nested objects), the view
envelope every game's view extends, and the one effect the engine itself sets off (`forced`).
It is plain data: nothing here validates (the tests do, with the `jsonschema` package).

>>> schema = closed("Pretender", {"card": CARD_CODE, "value": INTEGER})
>>> schema["required"], schema["additionalProperties"]
(['card', 'value'], False)
>>> document(ref("Pretender"), {"Pretender": schema, "Unused": schema})["$defs"].keys()
dict_keys(['Pretender'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from domain.errors import Json
from domain.moves import UNDO_SHAPE, MoveShape, moves_json_schema

DIALECT = "https://json-schema.org/draft/2020-12/schema"

ENVELOPE = ("status", "legal_moves", "outcome")
"""The keys every game's view holds, whatever the game: what the playthrough, the CLI and the
OpenAPI generator read without knowing the game. Nothing else is common to all five games."""

SEATED = ("seat", "to_move")
"""The keys every view of a game of several seats holds besides the envelope: whose view it is
(null for a spectator) and every seat that may move now."""

# ---- small pieces -------------------------------------------------------------------------------

INTEGER: Json = {"type": "integer"}
COUNT: Json = {"type": "integer", "minimum": 0}
BOOLEAN: Json = {"type": "boolean"}
STRING: Json = {"type": "string"}
NULL: Json = {"type": "null"}
SEAT: Json = {"type": "integer", "minimum": 0, "description": "A seat, counted from 0."}
COLUMN_NAMES = ("clubs", "diamonds", "hearts", "spades")
COLUMN: Json = {"enum": list(COLUMN_NAMES), "description": "A column (family), by its suit."}
CARD_CODE: Json = {
    "type": "string",
    "pattern": "^(?:[2-9TJQKA][CDHS]|X[12])$",
    "description": "A card of one standard deck (QC, TD) or a Joker (X1, X2).",
}


def enum(values: Iterable[str]) -> Json:
    """One of a closed set of strings."""
    return {"enum": list(values)}


def array(items: Json, *, length: int | None = None) -> Json:
    """A list of `items`; of exactly `length` when given (a pair of seats, a map row)."""
    schema: Json = {"type": "array", "items": items}
    if length is not None:
        schema["minItems"] = schema["maxItems"] = length
    return schema


def nullable(schema: Json) -> Json:
    """`schema`, or null: a key always present whose value may be missing (`null`)."""
    return {"oneOf": [NULL, schema]}


def ref(name: str) -> Json:
    """A named object of the same document's `$defs`."""
    return {"$ref": f"#/$defs/{name}"}


def closed(
    title: str,
    properties: Mapping[str, Json],
    *,
    optional: Sequence[str] = (),
    description: str = "",
) -> Json:
    """A named object with exactly these keys: every one required but the `optional` ones,
    no other allowed. A key a client may rely on is thus never missing, and a key the game
    starts sending cannot go unnoticed."""
    assert set(optional) <= set(properties), "an optional key must be a property"
    schema: Json = {
        "title": title,
        "type": "object",
        "properties": dict(properties),
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


def keyed(title: str, names: Iterable[str], value: Json, *, all_present: bool = True) -> Json:
    """A named object keyed by a closed set of `names` (columns, clichés, figureheads), each
    holding `value`; with `all_present` false, only some of them appear."""
    names = tuple(names)
    return closed(title, dict.fromkeys(names, value), optional=() if all_present else names)


def _refs(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        target = value.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            yield target.removeprefix("#/$defs/")
        for item in value.values():
            yield from _refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _refs(item)


def document(root: Json, defs: Mapping[str, Json]) -> Json:
    """`root` as a whole JSON Schema document: the dialect, and in `$defs` the named objects
    it refers to, directly or through one another (and no others), so that each declaration
    stands alone."""
    wanted: dict[str, Json] = {}
    pending = list(_refs(root))
    while pending:
        name = pending.pop()
        if name not in wanted:
            wanted[name] = defs[name]
            pending += _refs(defs[name])
    out: Json = {"$schema": DIALECT, **root}
    if wanted:
        out["$defs"] = {name: wanted[name] for name in sorted(wanted)}
    return out


def moves_schema(moves: Sequence[MoveShape], title: str = "Move") -> Json:
    """A move of these shapes, as `domain/moves.py` declares them (the same JSON Schema
    `openapi.yaml` documents), each branch titled by its type."""
    branches = moves_json_schema(tuple(moves))["oneOf"]
    return {
        "title": title,
        "oneOf": [
            {"title": f"{shape.type} move", **branch}
            for shape, branch in zip(moves, branches, strict=True)
        ],
    }


# ---- the view envelope --------------------------------------------------------------------------


def view_schema(
    title: str,
    *,
    statuses: Sequence[str],
    moves: Sequence[MoveShape],
    board: Mapping[str, Json],
    defs: Mapping[str, Json],
    solitaire: bool,
    description: str = "",
) -> Json:
    """A game's view: the envelope every view has, extended with the game's own `board`.

    - `status`: `playing`, or how the game ended, one of the game's `statuses`.
    - `legal_moves`: the viewer's moves now, of the game's declared shapes (empty for a
      spectator, a seat not to move, or a finished game).
    - `outcome`: null while playing, then the game's `Outcome` (in `defs`).

    A solitaire's view may also list `undo` and hold `undos`: `Playthrough` adds both to the
    view of a game played with the `undo` option (`domain/replay.py`).
    """
    offered = (*moves, UNDO_SHAPE) if solitaire else tuple(moves)
    envelope: Json = {
        "status": {**enum(statuses), "description": "playing, or how the game ended."},
        "legal_moves": array(ref("Move")) | {"description": "The viewer's moves now."},
        "outcome": nullable(ref("Outcome")) | {"description": "Null while playing."},
    }
    clash = set(envelope) & set(board) | {"undos"} & set(board)
    assert not clash, f"the board redeclares the envelope's {sorted(clash)}"
    properties = {**envelope, **board}
    if solitaire:
        properties["undos"] = COUNT | {"description": "Moves taken back (option undo)."}
    root = closed(
        title,
        properties,
        optional=("undos",) if solitaire else (),
        description=description or f"What one seat (or a spectator) sees of {title}.",
    )
    return document(root, {**defs, "Move": moves_schema(offered)})


def seated_board(seats: int) -> Json:
    """`SEATED`, declared: the keys a view of a game of several seats opens its board with."""
    return {
        "seat": nullable(SEAT | {"maximum": seats - 1}) | {"description": "Null: a spectator."},
        "to_move": array(SEAT | {"maximum": seats - 1})
        | {"description": "Every seat that may move now (several in a simultaneous step)."},
    }


# ---- effects and outcomes -----------------------------------------------------------------------


RESULT: Json = {
    "title": "Result",
    "type": "object",
    "description": "How a finished game ended, in one vocabulary for every game (a client that "
    "knows no game reads this; `outcome` is each game's own): each seat's `won`, `lost` or "
    "`drew`, why it ended in the game's word (null: it simply ran its course), and each seat's "
    "score where the game counts one.",
    "properties": {
        "by_seat": {
            "type": "array",
            "minItems": 1,
            "items": {"enum": ["won", "lost", "drew"]},
            "description": "By seat number: a solitaire has one.",
        },
        "reason": {"type": ["string", "null"], "examples": ["resign", "exhaustion"]},
        "scores": {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
    },
    "required": ["by_seat", "reason", "scores"],
    "additionalProperties": False,
}
"""`Ruleset.result`, declared: the same object for every game, beside the game's `outcome`."""


def common_result(
    outcome: Json, seats: int, solitaire: bool
) -> tuple[Sequence[str], str | None, Sequence[int] | None]:
    """`RESULT`'s (by_seat, reason, scores), read from an outcome that says them the common way:
    a solitaire won when its `result` is `won`; several seats by their `winner` (None: a draw);
    the `reason` as it is; an integer `score`, or one per seat (`Ruleset._result`'s default)."""
    score = outcome.get("score")
    scores = [score] if type(score) is int else None
    if isinstance(score, list) and all(type(x) is int for x in score):
        scores = score
    reason = outcome.get("reason")
    if solitaire:
        return ["won" if outcome.get("result") == "won" else "lost"], reason, scores
    winner = outcome.get("winner")
    if winner is None:
        return ["drew"] * seats, reason, scores
    return ["won" if s == winner else "lost" for s in range(seats)], reason, scores


def effect(
    kind: str, title: str, properties: Mapping[str, Json], *, optional: Sequence[str] = ()
) -> Json:
    """An effect object: `{"type": kind}` and `properties`, all required unless `optional`."""
    return closed(title, {"type": {"const": kind}, **properties}, optional=optional)


def forced_effect() -> Json:
    """The one effect every game may set off, from the engine's forced-move rule
    (`Ruleset._play_forced`): the move the engine played for `seat`, declared here once."""
    return effect("forced", "Forced move", {"seat": SEAT, "move": ref("Move")})


def undo_effect() -> Json:
    """What `Playthrough` answers an `undo` with, in a solitaire played with the `undo`
    option (`domain/replay.py`): the move of `seat` it took back."""
    return effect("undo", "Undo", {"seat": SEAT, "move": ref("Move")})


def effect_schemas(
    effects: Mapping[str, Json],
    *,
    moves: Sequence[MoveShape],
    defs: Mapping[str, Json],
    solitaire: bool,
) -> dict[str, Json]:
    """Each effect type's schema document: the game's own `effects`, the engine's `forced`,
    declared once here, and a solitaire's `undo`."""
    shared = {"forced": forced_effect(), **({"undo": undo_effect()} if solitaire else {})}
    clash = set(shared) & set(effects)
    assert not clash, f"{sorted(clash)}: the engine's effects, declared once, here"
    every = {**effects, **shared}
    named = {**defs, "Move": moves_schema(moves)}
    return {kind: document(schema, named) for kind, schema in every.items()}


def outcome_schema(defs: Mapping[str, Json]) -> Json:
    """The game's outcome (its `Outcome` in `defs`) as a document of its own."""
    return document(defs["Outcome"], defs)


# ---- one game's declarations --------------------------------------------------------------------


@dataclass(frozen=True)
class Contract:
    """Everything a game shows besides its moves, as its `contract.py` declares it: the view's
    `board` (the keys besides the envelope), its own `effects` by type, and the named objects
    both use (`defs`, which must hold the game's `Outcome`).

    The moves are not part of it: they are the rules' own declaration (`move_shapes`), which
    the ruleset passes in, so the contract never imports the rules."""

    title: str
    statuses: tuple[str, ...]
    board: Mapping[str, Json]
    effects: Mapping[str, Json]
    defs: Mapping[str, Json]
    solitaire: bool

    def view_schema(self, moves: Sequence[MoveShape]) -> Json:
        return view_schema(
            self.title,
            statuses=self.statuses,
            moves=moves,
            board=self.board,
            defs=self.defs,
            solitaire=self.solitaire,
        )

    def effect_schemas(self, moves: Sequence[MoveShape]) -> dict[str, Json]:
        return effect_schemas(self.effects, moves=moves, defs=self.defs, solitaire=self.solitaire)

    def outcome_schema(self) -> Json:
        return outcome_schema(self.defs)
