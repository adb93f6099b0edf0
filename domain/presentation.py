"""Each game's words, declared as data: what a move did, what a view holds and how the game
ended, said in the game's own terms by a client that knows no game.

A game's board layout and deal plan were already data (`Ruleset.board`, `deal_plan`); its
words are too. Each game declares a `Words` (in `domain/games/<game>/words.py`), served by
`GET /v1/rulesets` as the ruleset's `words`, and the web client renders it generically:

- `moves`: a sentence per move type ("{mover:seat} [attack|attacks] the {column:column}
  Pretender"), said of every logged move, a bot's and a forced one's included;
- `effects`: a sentence per effect type (`""` when the move's sentence already says it all);
- `terms`: the game's vocabularies (a column, a cliché, a reason), value -> words;
- `card_values`: what a card is worth by its rank, for the running totals (`sum`, `stack`);
- `panels`: labelled lines of text over the view (running totals, the battle, the goal);
- `ending`: how the outcome says who won, why, and the score.

**Templates.** A template is a string, or a `Choice` of templates by the value at a path.
In a string:

- `{path}`, `{path:format}` or `{path:format:arg}` is a value: `path` is dotted keys into the
  object the template is said of (an effect, a move, the view, a panel's item); `mover` is
  always the seat whose move this is; in a panel, `^path` starts from the view, `@` is the
  item itself and `#0`, `#1`... (`#` for `#0`) the keys (or indexes) of the item's place, also
  usable as a segment of a path (`^character.wounds.#0`). `format` is one of `FORMATS` or the
  name of one of the game's `terms` (default `text`);
- `<...>` is said only when every value inside it is there (not null, not an empty list);
- `[you form|other form]` agrees with the sentence's subject, its first seat value: "You
  attack" but "Opponent attacks".

>>> [(p.path, p.format, p.arg) for p in placeholders("{mover:seat} [draw|draws] <{card:card}>")]
[('mover', 'seat', ''), ('card', 'card', '')]
>>> [p.format for p in placeholders(Choice("kind", {"a": "{x:per_seat:pairs:cliche}"}))]
['text', 'per_seat']
>>> template_problems("{card:card} <{oops:nothing}")
['an unclosed <', 'unknown format nothing in {oops:nothing}']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from domain.errors import Json


@dataclass(frozen=True)
class Choice:
    """A template chosen by the value at `path` (its JSON text for a boolean or null:
    `"true"`, `"null"`), or `default` for any other value (none: nothing is said)."""

    path: str
    cases: Mapping[str, Template]
    default: Template | None = None

    def to_json(self) -> Json:
        out: Json = {"choose": self.path, "cases": {k: _json(t) for k, t in self.cases.items()}}
        if self.default is not None:
            out["else"] = _json(self.default)
        return out


Template = str | Choice


def _json(template: Template) -> str | Json:
    return template if isinstance(template, str) else template.to_json()


FORMATS: dict[str, str] = {
    "text": "The value in words (`_` as a space).",
    "number": "A number as it is.",
    "count": "A number and its noun, the arg (`card`; `die/dice` when the plural is not an "
    "added s): 1 card, 3 cards.",
    "card": "A card, short: 7♥, K♣, 10♦², The Author ☾∞.",
    "card_name": "A card by its full name: King of Clubs.",
    "cards": "Cards, short, joined: 7♥, 9♠ and K♣ (none for no card).",
    "seat": "A seat as its reader knows it: you, Opponent, Bot (best), Player 2.",
    "seat_of": "A seat's: your, Opponent's.",
    "rival": "The other seat of a game of two, as `seat`.",
    "rival_of": "The other seat's, as `seat_of`.",
    "dice": "A die or a list of dice, as die faces.",
    "cell": "A map cell [row, column], counted from 1: row 2, column 3.",
    "list": "A list, each item in the format the arg names (with its own arg): King and Jack.",
    "last": "A list's last item (a pile's top), in the format the arg names.",
    "per_seat": "A list indexed by seat, each value in the format the arg names: "
    "you: 144 · Opponent: 72.",
    "pairs": "An object's keys and values, each key in the terms the arg names: Wizardry ♠ 3, "
    "Fighting ♣ 2.",
    "sum": "The total value (`card_values`) of the cards of a list (codes, or objects with a "
    "`card`; face-down ones, null, are counted apart), of the entries whose `role` is the "
    "arg if there is one.",
    "stack": "A column of {card, role} entries, bottom first: its topmost entry of the role "
    "the arg names, its value, and the total of each other role above it.",
    "move": "A move, in the game's sentence for it, said of the object's `seat`.",
}
"""Every format a client knows: anything else a template names is one of the game's terms."""

SEAT_FORMATS = frozenset({"seat", "seat_of", "rival", "rival_of"})
NESTING = frozenset({"list", "last", "per_seat"})
"""The formats whose arg is another format (and its own arg)."""

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PATH = re.compile(r"^(\^?[A-Za-z_][\w]*(\.(\*|#\d?|[A-Za-z_]\w*|\d+))*|@|#\d?|mover)$")


@dataclass(frozen=True)
class Placeholder:
    path: str
    format: str
    arg: str


def _strings(template: Template) -> Iterator[str]:
    if isinstance(template, str):
        yield template
        return
    for case in template.cases.values():
        yield from _strings(case)
    if template.default is not None:
        yield from _strings(template.default)


def placeholders(template: Template) -> list[Placeholder]:
    """Every value a template says, a choice's path (as `text`) first."""
    found = [Placeholder(template.path, "text", "")] if isinstance(template, Choice) else []
    for text in _strings(template):
        for inner in _PLACEHOLDER.findall(text):
            path, _, rest = inner.partition(":")
            kind, _, arg = rest.partition(":")
            found.append(Placeholder(path, kind or "text", arg))
    return found


def format_problems(kind: str, arg: str, terms: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Why a format (with its arg) is not one a client knows, if it is not."""
    if kind in NESTING:
        inner, _, inner_arg = arg.partition(":")
        if not inner:
            return [f"{kind} needs a format"]
        return format_problems(inner, inner_arg, terms)
    if kind == "pairs" and arg and arg not in terms:
        return [f"pairs of unknown terms {arg}"]
    if kind == "stack" and not arg:
        return ["stack needs the role of its top entry"]
    if kind not in FORMATS and kind not in terms:
        return [f"unknown format {kind}"]
    return []


def template_problems(
    template: Template, terms: Mapping[str, Mapping[str, str]] | None = None
) -> list[str]:
    """What is wrong with a template's syntax and formats, whatever it is said of."""
    problems = []
    for text in _strings(template):
        depth = 0
        for char in _PLACEHOLDER.sub("", text):
            if char == "<":
                problems += ["optional parts do not nest"] if depth else []
                depth = 1
            elif char == ">":
                problems += [] if depth else ["a stray >"]
                depth = 0
        if depth:
            problems.append("an unclosed <")
        if re.search(r"\[[^\]|]*\]", _PLACEHOLDER.sub("", text)):
            problems.append("a [you form|other form] needs both forms")
    for p in placeholders(template):
        where = f"{{{p.path}:{p.format}}}" if not p.arg else f"{{{p.path}:{p.format}:{p.arg}}}"
        if not _PATH.match(p.path):
            problems.append(f"a bad path in {where}")
        problems += [f"{m} in {where}" for m in format_problems(p.format, p.arg, terms or {})]
    return problems


@dataclass(frozen=True)
class Panel:
    """Labelled lines of text over the view: each line a template said of the view, or with
    `each` (a path with `*`) of every item found there, one line per item. A line that says
    nothing is left out, and a panel with no line."""

    label: str
    lines: tuple[Template, ...]
    each: str | None = None

    def to_json(self) -> Json:
        out: Json = {"label": self.label, "lines": [_json(t) for t in self.lines]}
        if self.each is not None:
            out["each"] = self.each
        return out


@dataclass(frozen=True)
class Ending:
    """How the outcome reads. `winner`: the path to the winning seat (a game of several
    seats; null there: a draw). `result`: the path to the result, read through `results`
    (`won`, `lost` or `draw`). `reason` and `score`: templates said of the outcome."""

    result: str | None = "result"
    results: Mapping[str, str] = field(default_factory=lambda: {"won": "won", "lost": "lost"})
    winner: str | None = None
    reason: Template | None = None
    score: Template | None = None

    def to_json(self) -> Json:
        return {
            "result": self.result,
            "results": dict(self.results),
            "winner": self.winner,
            "reason": None if self.reason is None else _json(self.reason),
            "score": None if self.score is None else _json(self.score),
        }


SUIT_TERMS: dict[str, str] = {
    "clubs": "♣ clubs",
    "diamonds": "♦ diamonds",
    "hearts": "♥ hearts",
    "spades": "♠ spades",
}
"""The four suits, named as every game names them: a game's `terms` may share them."""

STANDARD_VALUES: dict[str, int] = {
    **{str(n): n for n in range(2, 10)},
    "T": 10,
    "A": 1,
    "J": 11,
    "Q": 12,
    "K": 13,
}
"""The standard ranks' face values (a game changes what it values otherwise)."""

ENGINE_MOVES: dict[str, Template] = {
    "undo": "{mover:seat} [take|takes] back the last move",
}
"""The words of the moves the engine offers every game that has them (a solitaire's undo)."""

ENGINE_EFFECTS: dict[str, Template] = {
    "forced": "Forced: {move:move}",
    "undo": "Taken back: {move:move}",
}
"""The words of the effects the engine sets off in every game (domain/contracts.py)."""


@dataclass(frozen=True)
class Words:
    """One game's words (see the module's docstring). A game that declares none is shown in
    generic words: each move and effect by its type and fields."""

    moves: Mapping[str, Template] = field(default_factory=dict)
    effects: Mapping[str, Template] = field(default_factory=dict)
    terms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    card_values: Mapping[str, int] = field(default_factory=dict)
    panels: tuple[Panel, ...] = ()
    ending: Ending = field(default_factory=Ending)

    @property
    def every_move(self) -> dict[str, Template]:
        return {**ENGINE_MOVES, **self.moves}

    @property
    def every_effect(self) -> dict[str, Template]:
        return {**ENGINE_EFFECTS, **self.effects}

    def templates(self) -> Iterator[tuple[str, Template]]:
        """Every template, named by where it is (`moves.attack`, `panels.0.lines.1`...)."""
        for kind, template in self.every_move.items():
            yield f"moves.{kind}", template
        for kind, template in self.every_effect.items():
            yield f"effects.{kind}", template
        for index, panel in enumerate(self.panels):
            for line, template in enumerate(panel.lines):
                yield f"panels.{index}.lines.{line}", template
        for name in ("reason", "score"):
            template = getattr(self.ending, name)
            if template is not None:
                yield f"ending.{name}", template

    def to_json(self) -> Json:
        return {
            "moves": {k: _json(t) for k, t in self.every_move.items()},
            "effects": {k: _json(t) for k, t in self.every_effect.items()},
            "terms": {name: dict(values) for name, values in self.terms.items()},
            "card_values": dict(self.card_values),
            "panels": [panel.to_json() for panel in self.panels],
            "ending": self.ending.to_json(),
        }


# ---- the JSON Schema of `words`, as GET /v1/rulesets serves it ----------------------------------

_TEMPLATE_REF: Json = {"$ref": "#/components/schemas/WordsTemplate"}
WORDS_COMPONENTS: dict[str, Json] = {
    "WordsTemplate": {
        "title": "WordsTemplate",
        "description": "A sentence with `{path:format:arg}` values, `<optional parts>` and "
        '`[you form|other form]` verbs (docs/web-client.md, "A game\'s words"), or a choice '
        "of such sentences by the value at a path.",
        "oneOf": [{"type": "string"}, {"$ref": "#/components/schemas/WordsChoice"}],
    },
    # Named, not inline in WordsTemplate's `oneOf`: a union branch that refers back to its
    # union made openapi-python-client drop WordsTemplate, Words and GET /v1/rulesets' answer.
    "WordsChoice": {
        "title": "WordsChoice",
        "description": "A choice of sentences by the value at the path `choose`: its case, "
        "else `else`.",
        "type": "object",
        "properties": {
            "choose": {"type": "string"},
            "cases": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "else": _TEMPLATE_REF,
        },
        "required": ["choose", "cases"],
        "additionalProperties": False,
    },
    "Words": {
        "title": "Words",
        "type": "object",
        "description": "The game's own words, declared by the game (domain/presentation.py): a "
        "sentence per move and effect type, its vocabularies, card values for running totals, "
        "labelled panels of text over the view, and how its outcome reads. A client renders "
        "them knowing no game.",
        "properties": {
            "moves": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "effects": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "terms": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                },
            },
            "card_values": {"type": "object", "additionalProperties": {"type": "integer"}},
            "panels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string"},
                        "lines": {"type": "array", "items": _TEMPLATE_REF},
                        "each": {"type": "string"},
                    },
                    "required": ["label", "lines"],
                    "additionalProperties": False,
                },
            },
            "ending": {
                "type": "object",
                "properties": {
                    "result": {"type": ["string", "null"]},
                    "results": {
                        "type": "object",
                        "additionalProperties": {"enum": ["won", "lost", "draw"]},
                    },
                    "winner": {"type": ["string", "null"]},
                    "reason": {"anyOf": [_TEMPLATE_REF, {"type": "null"}]},
                    "score": {"anyOf": [_TEMPLATE_REF, {"type": "null"}]},
                },
                "required": ["result", "results", "winner", "reason", "score"],
                "additionalProperties": False,
            },
        },
        "required": ["moves", "effects", "terms", "card_values", "panels", "ending"],
        "additionalProperties": False,
    },
}
"""`Words` and its templates as OpenAPI components (handlers/openapi.py adds them)."""


# ---- checking a game's words against its declarations ------------------------------------------


def _resolve(doc: Json, schema: Json) -> list[Json]:
    """`schema` with its `$ref`s followed and its `oneOf`/`anyOf` branches spread out."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = doc["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    if not isinstance(schema, dict):
        return []
    branches = schema.get("oneOf") or schema.get("anyOf")
    if branches:
        return [r for branch in branches for r in _resolve(doc, branch)]
    return [schema]


def _types(doc: Json, schema: Json) -> set[str]:
    """The JSON types a value of `schema` may have (null left out)."""
    found: set[str] = set()
    for s in _resolve(doc, schema):
        kind = s.get("type")
        if isinstance(kind, str):
            found.add(kind)
        elif isinstance(kind, list):
            found.update(kind)
        found.update(_json_type(value) for value in s.get("enum", ()))
        if "const" in s:
            found.add(_json_type(s["const"]))
    found.discard("null")
    return found


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "string"


def _values(doc: Json, schema: Json) -> set[str] | None:
    """Every value a schema allows, as a choice's case keys name them, if it is a closed set."""
    found: set[str] = set()
    for s in _resolve(doc, schema):
        if "enum" in s:
            found.update(case_key(v) for v in s["enum"])
        elif "const" in s:
            found.add(case_key(s["const"]))
        elif s.get("type") == "boolean":
            found.update({"true", "false"})
        elif s.get("type") == "null":
            found.add("null")
        else:
            return None
    return found


def case_key(value: object) -> str:
    """How a choice's cases name a value: its JSON text for a boolean or null."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    return str(value)


def _step(doc: Json, schema: Json, segment: str) -> list[Json]:
    """The schemas one path segment leads to from `schema` (none: the path does not exist)."""
    out: list[Json] = []
    for s in _resolve(doc, schema):
        props = s.get("properties", {})
        if segment == "*" or segment.startswith("#"):
            out += list(props.values())
            extra = s.get("additionalProperties")
            if isinstance(extra, dict):
                out.append(extra)
            if "items" in s:
                out.append(s["items"])
        elif segment in props:
            out.append(props[segment])
        elif segment.isdigit() and "items" in s:
            out.append(s["items"])
    return out


def _key_schema(doc: Json, schema: Json) -> Json:
    """What the `*` of a path over `schema` names: a key of the object, or an index."""
    keys: list[str] = []
    for s in _resolve(doc, schema):
        if "items" in s:
            return {"type": "integer", "minimum": 0}
        keys += list(s.get("properties", {}))
    return {"enum": sorted(set(keys))} if keys else {"type": "string"}


def schemas_at(doc: Json, root: Json, path: str) -> list[Json]:
    """The schemas at a dotted path from `root` (`*` spreads over every key or item)."""
    found = [root]
    for segment in path.split(".") if path else ():
        found = [n for s in found for n in _step(doc, s, segment)]
    return found


@dataclass(frozen=True)
class Scope:
    """What a template is said of: its object's schema, the view's (a panel's `^`), the keys
    of the panel's `each`, and the seats, for checking each path and format."""

    doc: Json
    root: Json
    view: tuple[Json, Json] | None = None
    keys: tuple[Json, ...] = ()

    def at(self, path: str) -> list[Json]:
        if path == "mover":
            return [{"type": "integer", "minimum": 0}]
        if path == "@":
            return [self.root]
        if path.startswith("#"):
            index = int(path[1:] or 0)
            return [self.keys[index]] if index < len(self.keys) else []
        if path.startswith("^"):
            if self.view is None:
                return []
            doc, root = self.view
            return schemas_at(doc, root, path[1:])
        return schemas_at(self.doc, self.root, path)

    def doc_of(self, path: str) -> Json:
        return self.view[0] if path.startswith("^") and self.view is not None else self.doc


def _fits(doc: Json, schemas: list[Json], kind: str, arg: str, words: Words) -> str | None:
    """Why values of `schemas` cannot be said in `kind`, or None."""
    types = set().union(*(_types(doc, s) for s in schemas)) if schemas else set()
    items = [i for s in schemas for i in _step(doc, s, "*")]
    wants = {
        "number": {"integer", "number"},
        "count": {"integer"},
        "card": {"string"},
        "card_name": {"string"},
        "seat": {"integer"},
        "seat_of": {"integer"},
        "rival": {"integer"},
        "rival_of": {"integer"},
        "move": {"object"},
        "pairs": {"object"},
    }
    if kind in wants and not types <= wants[kind]:
        return f"{kind} of a {'/'.join(sorted(types)) or 'value of no type'}"
    if kind in ("cards", "sum", "stack", "list", "last", "per_seat", "cell") and types != {"array"}:
        return f"{kind} of a {'/'.join(sorted(types)) or 'value of no type'}"
    if kind == "dice" and not types <= {"integer", "array"}:
        return f"dice of a {'/'.join(sorted(types))}"
    if kind in NESTING:
        inner, _, inner_arg = arg.partition(":")
        return _fits(doc, items, inner, inner_arg, words)
    if kind in ("sum", "stack") and not words.card_values:
        return f"{kind} without card_values"
    if kind in words.terms and kind not in FORMATS:
        allowed = set().union(*(_values(doc, s) or {"?"} for s in schemas))
        missing = sorted(allowed - set(words.terms[kind]))
        if missing:
            return f"terms {kind} say nothing of {', '.join(missing)}"
    return None


def path_problems(template: Template, scope: Scope, words: Words) -> list[str]:
    """Each value of `template` that its object does not hold, or not in a form its format
    can say; each choice's case that the chosen value can never take."""
    problems = []
    for p in placeholders(template):
        where = "{" + ":".join(x for x in (p.path, p.format, p.arg) if x) + "}"
        concrete = re.sub(r"\.#\d?", ".*", p.path)
        found = scope.at(concrete)
        if not found:
            problems.append(f"{where}: no such value")
            continue
        why = _fits(scope.doc_of(p.path), found, p.format, p.arg, words)
        if why:
            problems.append(f"{where}: {why}")
    if isinstance(template, Choice):
        allowed = set().union(
            *(_values(scope.doc_of(template.path), s) or set() for s in scope.at(template.path))
        )
        if allowed:
            extra = sorted(set(template.cases) - allowed)
            if extra:
                problems.append(f"choice on {template.path}: it is never {', '.join(extra)}")
        for case in (*template.cases.values(), template.default):
            if isinstance(case, Choice):
                problems += path_problems(case, scope, words)
    return problems


def words_problems(
    words: Words,
    *,
    moves: Json,
    effects: Mapping[str, Json],
    view: Json,
    outcome: Json,
) -> list[str]:
    """Everything wrong with a game's words, given its declarations (`moves`: the JSON Schema
    of every move it offers, a `oneOf` of one branch per type; `effects` by type; its view
    and outcome schemas): a move or effect type with no sentence (or a sentence of a type it
    does not have), a template that does not parse, a value its object does not hold, a format
    that cannot say it, terms that miss one of its values, a panel over nothing."""
    problems = []
    for name, template in words.templates():
        problems += [f"{name}: {m}" for m in template_problems(template, words.terms)]
    move_types = {branch["properties"]["type"]["const"]: branch for branch in moves["oneOf"]}
    every_move, every_effect = words.every_move, words.every_effect
    problems += [f"moves.{t}: no sentence" for t in sorted(set(move_types) - set(every_move))]
    problems += [f"moves.{t}: not a move" for t in sorted(set(words.moves) - set(move_types))]
    problems += [f"effects.{t}: no sentence" for t in sorted(set(effects) - set(every_effect))]
    problems += [f"effects.{t}: not an effect" for t in sorted(set(words.effects) - set(effects))]
    for kind, template in every_move.items():
        if kind in move_types:
            scope = Scope(moves, move_types[kind])
            problems += [f"moves.{kind}: {m}" for m in path_problems(template, scope, words)]
    for kind, template in every_effect.items():
        if kind in effects:
            scope = Scope(effects[kind], effects[kind])
            problems += [f"effects.{kind}: {m}" for m in path_problems(template, scope, words)]
    for index, panel in enumerate(words.panels):
        name = f"panels.{index} ({panel.label})"
        scope = Scope(view, view, (view, view))
        if panel.each is not None:
            if not schemas_at(view, view, panel.each):
                problems.append(f"{name}: each {panel.each}: no such value")
                continue
            keys, found = [], [view]
            for segment in panel.each.split("."):
                if segment == "*":
                    keys.append(_key_schema(view, {"anyOf": found}))
                found = [n for s in found for n in _step(view, s, segment)]
            scope = Scope(view, {"anyOf": found}, (view, view), tuple(keys))
        for line, template in enumerate(panel.lines):
            problems += [f"{name}.lines.{line}: {m}" for m in path_problems(template, scope, words)]
    ending = words.ending
    for path in (ending.result, ending.winner):
        if path is not None and not schemas_at(outcome, outcome, path):
            problems.append(f"ending: the outcome has no {path}")
    if ending.result is not None:
        results = set().union(
            *(_values(outcome, s) or set() for s in schemas_at(outcome, outcome, ending.result))
        ) - {"null"}
        missing = sorted(results - set(ending.results))
        if missing:
            problems.append(f"ending.results say nothing of {', '.join(missing)}")
    for name in ("reason", "score"):
        template = getattr(ending, name)
        if template is not None:
            scope = Scope(outcome, outcome)
            problems += [f"ending.{name}: {m}" for m in path_problems(template, scope, words)]
    return problems
