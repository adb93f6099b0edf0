"""The committed openapi.yaml is valid OpenAPI 3.1 and exactly what the schemas generate; every
legal move of every ruleset is exactly one branch of its union, every example validates, and
links lead from a new seat to playing it."""

import json
import random

import pytest
from openapi_spec_validator import validate

from domain.registry import GAMES
from handlers.http.openapi import _pascal, render
from tests import openapi_contract as contract
from tests.openapi_contract import SPEC_URI
from tests.stores import ROOT, load_yaml

SPEC_PATH = ROOT / "openapi.yaml"


def test_committed_spec_is_fresh():
    assert SPEC_PATH.read_text(encoding="utf-8") == render(), "run `make openapi` and commit"


def test_spec_is_valid_openapi_31():
    spec = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def test_every_operation_documents_its_errors_with_examples():
    spec = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    play = spec["paths"]["/v1/games/{game_id}/moves"]["post"]["responses"]
    assert set(play) == {"201", "400", "401", "403", "404", "409", "413", "422", "429", "503"}
    for code, response in play.items():
        media = response["content"]
        assert all("example" in m for m in media.values()), code
    create = spec["paths"]["/v1/games"]["post"]["responses"]
    assert {"201", "400", "413", "422", "429", "503"} <= set(create)
    log = spec["paths"]["/v1/games/{game_id}/moves"]["get"]
    assert {"401", "403"} <= set(log["responses"]) and log["security"] == [{}, {"seatToken": []}]
    assert {"413", "429"} <= set(spec["paths"]["/v1/players"]["post"]["responses"])


def _games_played(entry, games: int, max_steps: int = 400):
    """(legal moves, effects of the move played, the mover's view after it) at every step of
    `games` random games of a ruleset, a seat to move choosing at random (resigning rarely)."""
    ruleset = entry.ruleset
    for n in range(games):
        rng = random.Random(f"{entry.id}-{n}")
        state = ruleset.start(f"contract-{n}")
        for _ in range(max_steps):
            if ruleset.is_over(state):
                break
            seat = rng.choice(ruleset.to_move(state))
            legal = ruleset.legal_moves(state, seat)
            others = [m for m in legal if m["type"] != "resign"]
            move = rng.choice(others if others and rng.random() > 0.01 else legal)
            transition = ruleset.apply(state, seat, move)
            yield legal, transition.effects, ruleset.view(transition.state, seat)
            state = transition.state


@pytest.mark.parametrize("entry", list(GAMES.values()), ids=list(GAMES))
def test_every_legal_move_matches_exactly_one_branch_of_its_ruleset(entry):
    """Each ruleset's moves are a `oneOf` discriminated by `type`, with `resign` and `undo`
    shared: every move a game lists as legal is exactly one branch (so a generated client
    parses it as what it is), and a request carrying it is a valid MoveRequest."""
    spec = contract.spec()
    union = spec["components"]["schemas"][f"{_pascal(entry.id)}Move"]
    branches = [contract.validator(*ref["$ref"][2:].split("/")) for ref in union["oneOf"]]
    mapping = union["discriminator"]["mapping"]
    request = contract.component("MoveRequest")
    effect, view = contract.component("Effect"), contract.component("View")
    first_fit = _first_fit_parser(spec)
    seen: set[str] = set()
    checked: set[str] = set()  # each distinct move or effect is checked once: far quicker
    for step, (legal, effects, seat_view) in enumerate(_games_played(entry, games=6)):
        for move in legal:
            if (key := json.dumps(move, sort_keys=True)) in checked:
                continue
            checked.add(key)
            matches = [b.schema["$ref"] for b in branches if b.is_valid(move)]
            assert matches == [SPEC_URI + mapping[move["type"]]], (move, matches)
            assert request.is_valid({"version": 0, "move": move}), move
            assert first_fit(move) == set(move), (move, first_fit(move))
            seen.add(move["type"])
        for one in effects:
            if (key := json.dumps(one, sort_keys=True)) not in checked:
                checked.add(key)
                assert not contract.errors_of(effect, one), one
        if step % 10 == 0:
            assert not contract.errors_of(view, seat_view)
    assert {"resign"} < seen, seen


def _first_fit_parser(spec):
    """How a generated client reads a `Move` (openapi-python-client, for one): each ruleset's
    union in the `anyOf`'s order, its branch chosen by `type`, the first whose required fields
    are all there, keeping only the fields that branch declares. Returns those fields."""
    schemas = spec["components"]["schemas"]

    def parse(move):
        for union in schemas["Move"]["anyOf"]:
            mapping = schemas[union["$ref"].rsplit("/", 1)[1]]["discriminator"]["mapping"]
            if move["type"] in mapping:
                branch = schemas[mapping[move["type"]].rsplit("/", 1)[1]]
                if set(branch["required"]) <= set(move):
                    return set(branch["properties"]) & set(move)
        return set()

    return parse


def test_shared_moves_are_one_schema_each():
    """`resign` (every ruleset) and `undo` (every solitaire) are one component each, which every
    ruleset's union references; branches and nested objects are named components with titles."""
    schemas = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))["components"]["schemas"]
    for entry in GAMES.values():
        union = schemas[f"{_pascal(entry.id)}Move"]
        mapping = union["discriminator"]["mapping"]
        assert mapping["resign"] == "#/components/schemas/Resign"
        if entry.ruleset.max_seats == 1:
            assert mapping["undo"] == "#/components/schemas/Undo"
        for kind, ref in mapping.items():
            branch = schemas[ref.rsplit("/", 1)[1]]
            assert branch["title"] == ref.rsplit("/", 1)[1]
            assert branch["properties"]["type"]["const"] == kind
            for prop in branch["properties"].values():
                assert prop.get("type") != "object", f"{ref}: an unnamed nested object"
    assert schemas["RoyalAssassinDuelAttack"]["required"] == ["type", "card", "column"]
    assert schemas["RoyalAceAssinPlace"]["properties"]["cards"] == {
        "$ref": "#/components/schemas/RoyalAceAssinPlaceCards"
    }
    assert schemas["RisusRoyaleCreateCliches"]["title"] == "RisusRoyaleCreateCliches"


def _examples(node, where=()):
    """Every (place, schema, example) of the spec: media types' `example`s and schemas'
    `examples`."""
    if isinstance(node, dict):
        if "schema" in node and "example" in node:
            yield where, node["schema"], node["example"]
        if "examples" in node and isinstance(node["examples"], list) and "example" not in node:
            for example in node["examples"]:
                yield where, {k: v for k, v in node.items() if k != "examples"}, example
        for key, value in node.items():
            yield from _examples(value, (*where, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _examples(value, (*where, str(i)))


def test_every_example_in_the_spec_validates_against_its_schema():
    """The spec's own examples are data its schemas accept (strictly: no undeclared field)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    strict = contract.strict_spec()
    registry = Registry().with_resource(
        SPEC_URI, Resource(contents=strict, specification=DRAFT202012)
    )
    checked = 0
    for where, schema, example in _examples(strict):
        if where and where[0] == "components" and where[-1] == "properties":
            continue  # a property named `schema` or `example`, not a media type
        check = Draft202012Validator(_rebase(schema), registry=registry)
        errors = [e.message[:200] for e in check.iter_errors(example)]
        assert not errors, ("/".join(where), errors)
        checked += 1
    assert checked > 30, checked


def _rebase(node):
    """Local `#/...` references made absolute within the spec's registry entry."""
    if isinstance(node, dict):
        return {
            k: (SPEC_URI + v if k == "$ref" and v.startswith("#") else _rebase(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_rebase(v) for v in node]
    return node


def test_the_response_check_refuses_what_the_spec_does_not_declare():
    """The hook every API test client runs (tests/api_helpers.py): an undeclared field, status
    or content type fails; what the spec has no operation for (the web client) is not judged."""
    ok, extra = b'{"status": "ok"}', b'{"status": "ok", "uptime": 3}'
    assert not contract.response_problems("GET", "/healthz", 200, "application/json", ok)
    assert contract.response_problems("GET", "/healthz", 200, "application/json", extra)
    assert contract.response_problems("GET", "/healthz", 418, "application/json", ok)
    assert contract.response_problems("GET", "/healthz", 200, "text/html", ok)
    assert not contract.response_problems("GET", "/play", 200, "text/html", b"<html>")
    unknown_status = b'{"type": "x", "title": "t", "status": 409, "game_id": "g", "up": 1}'
    assert contract.response_problems(
        "POST", "/v1/daily/today/royal-assassin/games", 409, "application/problem+json",
        unknown_status,
    )  # fmt: skip


def test_links_lead_from_a_new_seat_to_playing_it():
    """Create, join, a daily attempt and a move link to operations that exist, carrying the
    seat's token into Authorization, so a stateful tester can play."""
    spec = contract.spec()
    operations = {
        op["operationId"]
        for item in spec["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for path, method in [
        ("/v1/games", "post"),
        ("/v1/games/{game_id}/seats/{seat}", "post"),
        ("/v1/daily/{date}/{ruleset}/games", "post"),
        ("/v1/games/{game_id}/moves", "post"),
    ]:
        links = spec["paths"][path][method]["responses"]["201"]["links"]
        assert "PlayFirstLegalMove" in links, path
        for link in links.values():
            assert link["operationId"] in operations
            assert "header.Authorization" in link["parameters"]


def test_every_component_has_a_title_of_its_own():
    """Generators name a model by its title: two components with one title become one model,
    and openapi-python-client then drops both, with everything that references them (an
    outside check found every view unreadable that way)."""
    titles: dict[str, list[str]] = {}
    for name, schema in contract.spec()["components"]["schemas"].items():
        titles.setdefault(schema.get("title", name), []).append(name)
    assert {t: names for t, names in titles.items() if len(names) > 1} == {}
