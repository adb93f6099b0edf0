"""A game's words held to its declarations (`domain/contracts.py`): every move and effect said,
every value a template names found in the object it is said of, in a format that can say it,
and every value of a term's vocabulary given words. Run by the conformance suite over every
game (tests/conformance/test_words.py), so that a client that knows no game never meets a
sentence it cannot fill.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import Json
from domain.presentation import FORMATS, NESTING, Choice, Template, Words, case_key
from domain.word_templates import placeholders, template_problems


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
