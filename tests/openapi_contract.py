"""openapi.yaml as a test oracle: JSON Schema validators for its components and responses, and
a check that any response the API gives is one the spec declares.

The spec is the committed openapi.yaml while the games registered are the ones it was made
for (test_openapi.py checks that it is current); a test that offers another game for a while
(tests/games, the sixth game) gets the spec generated for the games registered then, as
`make openapi` would make it, since that game's moves and views are in no committed file.

The response check reads a *strict* copy of the spec: every object schema that says nothing
about `additionalProperties` gets `additionalProperties: false`, so a field the server sends
and the spec does not declare fails the test that got it. A schema that means to be a free
object says `additionalProperties: true` (or gives the values' schema) and is left alone.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from domain.registry import GAMES
from handlers.http.openapi import _pascal, render
from tests.stores import ROOT, load_yaml

SPEC_PATH = ROOT / "openapi.yaml"
SPEC_URI = "urn:royal-court:openapi"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def spec() -> dict[str, Any]:
    """The spec of the games registered now, as data (see the module's docstring)."""
    return _spec_for(tuple(GAMES))


@functools.cache
def _spec_for(games: tuple[str, ...]) -> dict[str, Any]:
    committed: dict[str, Any] = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    unions = {ref["$ref"].rsplit("/", 1)[1] for ref in committed["components"]["schemas"]
              ["Move"]["anyOf"]}  # fmt: skip
    if unions == {f"{_pascal(game)}Move" for game in games}:
        return committed
    generated: dict[str, Any] = load_yaml(render())
    return generated


def _strictened(node: Any) -> Any:
    """A copy in which every object schema with properties and no `additionalProperties`
    forbids others. Schemas that combine others (`allOf`, ...) are left as they are: closing
    them would refuse their members' fields."""
    if isinstance(node, list):
        return [_strictened(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strictened(value) for key, value in node.items()}
    is_object = out.get("type") == "object" or (
        isinstance(out.get("type"), list) and "object" in out["type"]
    )
    if (
        is_object
        and "properties" in out
        and "additionalProperties" not in out
        and not {"allOf", "anyOf", "oneOf"} & set(out)
    ):
        out["additionalProperties"] = False
    return out


def strict_spec() -> dict[str, Any]:
    """The spec with every undeclared field forbidden (see the module's docstring)."""
    return _strict_for(tuple(GAMES))


@functools.cache
def _strict_for(games: tuple[str, ...]) -> dict[str, Any]:
    return _strictened(copy.deepcopy(_spec_for(games)))  # type: ignore[no-any-return]


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def _registry(strict: bool) -> Registry:
    return _registry_for(tuple(GAMES), strict)


@functools.cache
def _registry_for(games: tuple[str, ...], strict: bool) -> Registry:
    document = _strict_for(games) if strict else _spec_for(games)
    resource = Resource(contents=document, specification=DRAFT202012)
    return Registry().with_resource(SPEC_URI, resource)


def validator(*pointer: str, strict: bool = True) -> Draft202012Validator:
    """A validator for the schema at this place of the spec, e.g. ("components", "schemas",
    "Move"), its `$ref`s resolved within the spec."""
    schema = {"$ref": SPEC_URI + _pointer(*pointer)}
    return Draft202012Validator(schema, registry=_registry(strict))


def component(name: str, *, strict: bool = True) -> Draft202012Validator:
    return validator("components", "schemas", name, strict=strict)


def errors_of(check: Draft202012Validator, instance: Any) -> list[str]:
    """Every way `instance` fails, one line each (empty: it is valid)."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
        for e in sorted(check.iter_errors(instance), key=lambda e: list(e.absolute_path))
    ]


def _routes() -> list[tuple[re.Pattern[str], str]]:
    """Each path template of the spec as a regular expression, literal paths first."""
    return _routes_for(tuple(GAMES))


@functools.cache
def _routes_for(games: tuple[str, ...]) -> list[tuple[re.Pattern[str], str]]:
    routes = []
    for template in _spec_for(games)["paths"]:
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        routes.append((re.compile(f"^{pattern}$"), template))
    return sorted(routes, key=lambda r: r[1].count("{"))


def operation_of(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    """The spec's path template and operation for a request, or None when the spec has no
    such operation (the web client's pages, Swagger UI, a route that does not exist)."""
    for pattern, template in _routes():
        if pattern.match(path):
            operation = spec()["paths"][template].get(method.lower())
            if operation is not None:
                return template, operation
    return None


def response_problems(
    method: str,
    path: str,
    status: int,
    content_type: str | None,
    body: bytes,
    parsed: Callable[[], Any] | None = None,
) -> list[str]:
    """Why a response to `method path` is not one the spec declares (empty: it is). Requests
    the spec has no operation for are not judged here. `parsed`, if given, returns the body's
    JSON as the caller keeps it (parsed once for both)."""
    found = operation_of(method, path)
    if found is None:
        return []
    template, operation = found
    label = f"{method.upper()} {template} -> {status}"
    responses = operation["responses"]
    code = str(status) if str(status) in responses else "default"
    if code not in responses:
        return [f"{label}: status {status} is not declared (declared: {', '.join(responses)})"]
    declared = responses[code].get("content")
    if not declared:
        return [f"{label}: a body of {len(body)} bytes, none declared"] if body.strip() else []
    media = (content_type or "").split(";")[0].strip()
    if media not in declared:
        return [f"{label}: content type {media!r}, declared {', '.join(declared)}"]
    pointer = _pointer("paths", template, method.lower(), "responses", code, "content", media)
    if media == "text/event-stream":  # each event's data: readGame's 200 body at its version
        read = ("paths", "/v1/games/{game_id}", "get", "responses", "200", "content")
        check = _fast_validator(tuple(GAMES), _pointer(*read, "application/json", "schema"))
        problems = []
        for line in body.decode("utf-8").splitlines():
            if line.startswith("data:"):
                problems += [
                    f"{label}: event data: {'/'.join(map(str, e.instance_path)) or '(root)'}: "
                    f"{e.message[:300]}"
                    for e in check.iter_errors(json.loads(line[5:]))
                ]
        return problems
    if not media.endswith("json"):
        return []
    try:
        instance = json.loads(body) if parsed is None else parsed()
    except ValueError as e:
        return [f"{label}: the body is not JSON ({e})"]
    check = _fast_validator(tuple(GAMES), pointer + "/schema")
    return [
        f"{label}: {'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message[:300]}"
        for e in check.iter_errors(instance)
    ]


@functools.cache
def _fast_validator(games: tuple[str, ...], pointer: str) -> Any:
    """The strict spec's schema at `pointer`, compiled once by jsonschema-rs: every response
    of every API test goes through one, and the pure-Python validator takes ~100 ms a game
    response where this takes well under one. The spec document is the root schema (its
    `openapi`, `paths`... are keywords a validator ignores), so its `$ref`s resolve."""
    reference = quote(pointer, safe="#/~")  # a URI: a path's `{game_id}` percent-encoded
    return jsonschema_rs.validator_for({**_strict_for(games), "$ref": reference})
