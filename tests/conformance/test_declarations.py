"""Every game's view, effects and outcome against what its contract declares.

Each registered game declares, as JSON Schema (domain/contracts.py and the game's own
`contract.py`), what its views, effects and outcome look like. These properties play random
games of every game through `Playthrough` (with undo, for a solitaire, half the time) and
validate every view (each seat's and a spectator's), every effect and every outcome met; the
declarations themselves are checked to be valid, strict schemas; and the effect types a game's
source appends are read from it, so that no new effect can be emitted undeclared.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator as MetaSchema
from jsonschema_rs import Draft202012Validator

from domain.contracts import ENVELOPE, SEATED
from domain.replay import Playthrough
from tests.conformance.test_games import GAME_IDS, MAX_STEPS, draw_deal, seats_of
from tests.games import EVERY_GAME

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
ENGINE_SOURCES = (DOMAIN / "ruleset.py", DOMAIN / "replay.py")
"""Where the engine's own effects (`forced`, `undo`) are appended, for every game."""

DYNAMIC_TYPES: dict[tuple[str, str], frozenset[str]] = {
    ("royal_assassin", "kind"): frozenset({"attack", "continue"}),
    ("royal_assassin_duel", "entry.role"): frozenset({"attack", "defense"}),
}
"""Effect types a game's source computes rather than writes out, by (package, expression),
with every value the expression can take: a new computed type fails until it is listed here."""


VIEWS_EVERY: dict[str, int] = {}
"""At full strength every view of every position is checked (a game's views may be checked
after every n-th move only, by its id here)."""


@cache
def validators(game_id: str) -> tuple[Any, Any, dict[str, Any]]:
    """The declarations compiled by jsonschema-rs (Draft 2020-12, as the API's contract is
    checked): the pure-Python validator took three minutes for Risus Royale's views alone."""
    ruleset = EVERY_GAME[game_id].ruleset
    return (
        Draft202012Validator(ruleset.view_schema),
        Draft202012Validator(ruleset.outcome_schema),
        {kind: Draft202012Validator(s) for kind, s in ruleset.effect_schemas.items()},
    )


def check(validator: Any, value: object, what: str) -> None:
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.instance_path))
    assert not errors, f"{what}: " + "; ".join(
        f"at {list(e.instance_path)}: {e.message[:300]}" for e in errors[:5]
    )


def check_position(
    game_id: str, game: Playthrough, effects: list[dict[str, Any]], views: bool = True
) -> None:
    """The effects just set off, any outcome, and (with `views`) every view: each seat's and
    a spectator's."""
    view, outcome, effect = validators(game_id)
    ruleset = game.ruleset
    for seat in seats_of(ruleset, game.options) if views or ruleset.is_over(game.state) else ():
        check(view, game.view(seat), f"{game_id} view of seat {seat}")
    for e in effects:
        assert e["type"] in effect, f"{game_id}: effect {e['type']!r} is not declared"
        check(effect[e["type"]], e, f"{game_id} effect {e['type']}")
    found = ruleset.outcome(game.state)
    assert (found is None) == (not ruleset.is_over(game.state))
    if found is not None:
        check(outcome, found, f"{game_id} outcome")


def play_and_check(game_id: str, data: st.DataObject, views_every: int = 1) -> None:
    """A random game, every position checked; now and then a resignation tried on the side,
    and in a solitaire played with undo, a move taken back (about one step in seven, so that
    the game still goes on). The views are checked after every `views_every`-th move and at
    the end (validating a view costs far more than playing a move); effects and outcomes
    always."""
    ruleset, seed, options, picks = draw_deal(data, game_id)
    if ruleset.max_seats == 1:
        options = {**options, "undo": data.draw(st.booleans(), label="undo")}
    game = Playthrough(ruleset, seed, options)
    check_position(game_id, game, [])
    for step in range(MAX_STEPS):
        if ruleset.is_over(game.state):
            return
        seat = ruleset.to_move(game.state)[0]
        pick = picks[step] if step < len(picks) else step
        views = step % views_every == 0
        if pick % 9 == 0:
            resigned = game.copy()
            check_position(game_id, resigned, resigned.play(seat, {"type": "resign"}), views)
        legal = game.legal_moves(seat)
        if pick % 7 == 1 and {"type": "undo"} in legal:
            check_position(game_id, game, game.play(seat, {"type": "undo"}), views)
            continue
        real = [m for m in legal if m["type"] not in ("resign", "undo")]
        check_position(game_id, game, game.play(seat, real[pick % len(real)]), views)
    raise AssertionError(f"the game did not end within {MAX_STEPS} moves")


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_every_view_effect_and_outcome_is_as_declared(game_id, data):
    play_and_check(game_id, data, VIEWS_EVERY.get(game_id, 1))


# ---- the declarations themselves ------------------------------------------------------------


def declarations(game_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    ruleset = EVERY_GAME[game_id].ruleset
    yield "view", ruleset.view_schema
    yield "outcome", ruleset.outcome_schema
    for kind, schema in ruleset.effect_schemas.items():
        yield f"effect {kind}", schema


def strictness_faults(schema: dict[str, Any]) -> Iterator[str]:
    """Where a declaration is loose: an object open to other keys, a required key it does not
    declare, a key declared but not required that is not marked optional by design (checked
    only as required ⊆ properties), an object without a title, or an object written inline
    inside another instead of named in `$defs`. The moves' own shapes (`$defs/Move`) come
    from `move_shapes`, already strict, and may nest their fields' objects."""

    def walk(node: object, path: str, named: bool, in_moves: bool) -> Iterator[str]:
        if isinstance(node, list):
            for i, item in enumerate(node):
                yield from walk(item, f"{path}/{i}", named, in_moves)
            return
        if not isinstance(node, dict):
            return
        if node.get("type") == "object":
            if node.get("additionalProperties") is not False:
                yield f"{path}: additionalProperties is not false"
            if not set(node.get("required", ())) <= set(node.get("properties", {})):
                yield f"{path}: requires a key it does not declare"
            if not in_moves and not named:
                yield f"{path}: an object written inline, not named in $defs"
            if not in_moves and not node.get("title"):
                yield f"{path}: an object without a title"
        for key, value in node.items():
            if key == "$defs":
                for name, sub in value.items():
                    yield from walk(sub, f"{path}/$defs/{name}", True, name == "Move")
            elif key in ("oneOf", "anyOf"):
                yield from walk(value, f"{path}/{key}", named, in_moves)
            elif key == "properties":
                for name, sub in value.items():
                    yield from walk(sub, f"{path}/properties/{name}", False, in_moves)
            elif key == "items":
                yield from walk(value, f"{path}/items", False, in_moves)

    yield from walk(schema, "#", True, False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_declaration_is_a_valid_strict_schema(game_id):
    ruleset = EVERY_GAME[game_id].ruleset
    for what, schema in declarations(game_id):
        MetaSchema.check_schema(schema)  # a valid Draft 2020-12 schema
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", what
        assert not list(strictness_faults(schema)), (what, list(strictness_faults(schema)))
    view = ruleset.view_schema
    assert set(ENVELOPE) <= set(view["required"])
    if ruleset.max_seats > 1:
        assert set(SEATED) <= set(view["required"])
    assert "playing" in view["properties"]["status"]["enum"]
    # legal_moves lists moves of exactly the shapes the ruleset accepts (and undo, offered).
    move_types = [b["properties"]["type"]["const"] for b in view["$defs"]["Move"]["oneOf"]]
    assert move_types == [shape.type for shape in ruleset.moves_offered]
    for kind, schema in ruleset.effect_schemas.items():  # keyed by the type each one holds
        branches = schema.get("oneOf", [schema])
        assert {b["properties"]["type"]["const"] for b in branches} == {kind}, kind


def appended_effect_types(path: Path, package: str) -> Iterator[str]:
    """The `type` of every effect `path` appends: read from each `effects.append({...})`,
    each `name: Effect = {...}` and each `return [{...}]` of a function giving `list[Effect]`;
    a computed type must be listed in DYNAMIC_TYPES."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    annotated = {
        node.target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and ast.unparse(node.annotation) == "Effect"
    }
    literals: list[ast.Dict] = []
    for function in ast.walk(tree):  # `return [{...}]` from a function giving effects
        if (
            isinstance(function, ast.FunctionDef)
            and ast.unparse(function.returns or ast.Constant(None)) == "list[Effect]"
        ):
            for node in ast.walk(function):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.List):
                    literals += [e for e in node.value.elts if isinstance(e, ast.Dict)]
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "Effect":
            assert isinstance(node.value, ast.Dict), f"{path}:{node.lineno}: not a dict"
            literals.append(node.value)
        if not isinstance(node, ast.Call | ast.AugAssign):
            continue
        target = node.func if isinstance(node, ast.Call) else node.target
        if isinstance(node, ast.AugAssign) or (
            isinstance(target, ast.Attribute) and target.attr in ("extend", "__iadd__")
        ):
            name = ast.unparse(target)
            assert "effect" not in name, f"{path}:{node.lineno}: effects added unread: {name}"
            continue
        if not (isinstance(target, ast.Attribute) and target.attr == "append"):
            continue
        if "effect" not in ast.unparse(target.value):
            continue
        (arg,) = node.args
        if isinstance(arg, ast.Name):
            assert arg.id in annotated, f"{path}:{node.lineno}: annotate {arg.id} as Effect"
        else:
            assert isinstance(arg, ast.Dict), f"{path}:{node.lineno}: append a dict literal"
            literals.append(arg)
    for literal in literals:
        values = [v for k, v in zip(literal.keys, literal.values, strict=True) if _is_type(k)]
        assert len(values) == 1, f"{path}:{literal.lineno}: an effect without a type"
        yield from _constants(values[0], path, package)


def _is_type(key: ast.expr | None) -> bool:
    return isinstance(key, ast.Constant) and key.value == "type"


def _constants(expr: ast.expr, path: Path, package: str) -> Iterator[str]:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        yield expr.value
    elif isinstance(expr, ast.IfExp):
        yield from _constants(expr.body, path, package)
        yield from _constants(expr.orelse, path, package)
    else:
        source = ast.unparse(expr)
        listed = DYNAMIC_TYPES.get((package, source))
        assert listed is not None, f"{path}:{expr.lineno}: computed type {source}: list it"
        yield from listed


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_effect_type_the_source_appends_is_declared(game_id):
    ruleset = EVERY_GAME[game_id].ruleset
    folder = Path(inspect.getfile(type(ruleset))).parent
    package = folder.name
    appended = {
        t for path in sorted(folder.glob("*.py")) for t in appended_effect_types(path, package)
    }
    engine = {t for path in ENGINE_SOURCES for t in appended_effect_types(path, "")}
    assert engine == {"forced", "undo"}
    declared = set(ruleset.effect_schemas)
    assert appended <= declared, f"appended but not declared: {sorted(appended - declared)}"
    own = declared - engine
    assert own <= appended, f"declared but never appended: {sorted(own - appended)}"
    assert ("undo" in declared) == (ruleset.max_seats == 1)


def test_the_source_reader_finds_what_it_must(tmp_path):
    """Sanity: the reader sees constant, conditional, annotated and listed computed types, and
    refuses an effect whose type it cannot read."""
    source = tmp_path / "rules.py"
    source.write_text(
        "def f(effects, kind, x):\n"
        '    effects.append({"type": "a", "seat": 0})\n'
        '    effects.append({"type": "b" if x else "c"})\n'
        '    kill: Effect = {"type": "d"}\n'
        "    effects.append(kill)\n"
        '    effects.append({"type": kind})\n'
    )
    found = set(appended_effect_types(source, "royal_assassin"))
    assert found == {"a", "b", "c", "d", "attack", "continue"}
    with pytest.raises(AssertionError, match="computed type"):
        set(appended_effect_types(source, "elsewhere"))
    source.write_text("def f(effects, e):\n    effects.append(e)\n")
    with pytest.raises(AssertionError, match="annotate e"):
        set(appended_effect_types(source, "x"))


def test_a_view_off_its_declaration_is_caught():
    """Sanity: the compiled validators refuse a view with a key its game does not declare, or
    a field of the wrong type, and say where."""
    view, _, _ = validators("royal-assassin")
    shown = Playthrough(EVERY_GAME["royal-assassin"].ruleset, "sanity", {}).view(0)
    check(view, shown, "as played")
    with pytest.raises(AssertionError, match="secret_order"):
        check(view, {**shown, "secret_order": []}, "an undeclared key")
    with pytest.raises(AssertionError, match=r"at \['status'\]"):
        check(view, {**shown, "status": 3}, "a wrong type")


def test_a_loose_declaration_is_found():
    """Sanity: the strictness check fails an open object, an untitled one and one inline."""
    loose = {
        "type": "object",
        "title": "Root",
        "properties": {"inner": {"type": "object", "properties": {}}},
        "required": ["inner", "missing"],
    }
    faults = "\n".join(strictness_faults(loose))
    for fault in ("#: additionalProperties", "#: requires", "inner: an object written inline"):
        assert fault in faults, faults
    assert "#/properties/inner: an object without a title" in faults


# ---- `make unit`'s brief run of the slow property ---------------------------------------------
# Validation costs more than playing: at full strength (`make test`) the property takes seconds
# per game, up to minutes for Risus Royale; `make unit` plays two games of each instead, their
# views checked after every tenth move.


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_every_view_effect_and_outcome_is_as_declared_in_brief(game_id, data):
    play_and_check(game_id, data, views_every=10)
