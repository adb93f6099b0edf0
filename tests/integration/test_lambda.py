"""The Lambda entry, fed API Gateway HTTP API (payload 2.0) events of the recorded shape,
against DynamoDB (moto)."""

import base64
import copy
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from moto import mock_aws

from infra.dynamo_store import DynamoStore, make_client
from tests.stores import ROOT

EVENT = json.loads((Path(__file__).parent / "events" / "http_api_v2.json").read_text())


def event(method, path, body=None, headers=None, base64_body=False):
    e = copy.deepcopy(EVENT)
    e["rawPath"] = e["requestContext"]["http"]["path"] = path
    e["requestContext"]["http"]["method"] = method
    e["headers"].update(headers or {})
    if body is not None:
        raw = json.dumps(body).encode()
        e["headers"]["content-type"] = "application/json"
        e["headers"]["content-length"] = str(len(raw))
        e["body"] = base64.b64encode(raw).decode() if base64_body else raw.decode()
        e["isBase64Encoded"] = base64_body
    return e


TABLE = "royal-court-lambda-test"


@pytest.fixture
def handler(monkeypatch, aws_credentials):
    monkeypatch.setenv("ROYAL_TABLE", TABLE)
    monkeypatch.delenv("ROYAL_STORE", raising=False)  # the Lambda default is DynamoDB
    with mock_aws():
        DynamoStore(make_client(None, "us-east-1"), TABLE).create_table()
        # Imported afresh inside the mock, as at a cold start.
        module = importlib.reload(importlib.import_module("handlers.lambda_handler"))
        yield module.handler


def body_of(response):
    raw = response["body"]
    if response.get("isBase64Encoded"):
        raw = base64.b64decode(raw).decode()
    return json.loads(raw)


def test_health(handler):
    response = handler(event("GET", "/healthz"), None)
    assert response["statusCode"] == 200 and body_of(response) == {"status": "ok"}


def test_a_game_through_lambda(handler):
    created = handler(
        event("POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"}), None
    )
    assert created["statusCode"] == 201
    game = body_of(created)
    gid, token = game["game"]["id"], game["token"]
    assert created["headers"]["location"] == f"/v1/games/{gid}"
    auth = {"authorization": f"Bearer {token}"}
    played = handler(
        event(
            "POST",
            f"/v1/games/{gid}/moves",
            {"version": 0, "move": {"type": "attack", "column": "hearts"}},
            auth,
            base64_body=True,
        ),
        None,
    )
    assert played["statusCode"] == 201 and body_of(played)["game"]["version"] == 1
    stale = handler(
        event("POST", f"/v1/games/{gid}/moves", {"version": 0, "move": {"type": "draw"}}, auth),
        None,
    )
    assert stale["statusCode"] == 409
    assert stale["headers"]["content-type"] == "application/problem+json"
    read = handler(event("GET", f"/v1/games/{gid}", headers=auth), None)
    assert read["statusCode"] == 200 and read["headers"]["etag"] == '"1"'


def test_import_builds_nothing_it_does_not_need():
    """No apispec and no YAML at import: cold starts stay short."""
    code = (
        "import os, sys; os.environ.setdefault('AWS_DEFAULT_REGION', 'us-east-1');"
        "import handlers.lambda_handler;"
        "print(sorted(m for m in ('apispec', 'yaml', 'schemathesis', 'moto') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_spec_is_served_on_lambda_but_not_swagger_ui(handler):
    assert handler(event("GET", "/openapi.yaml"), None)["statusCode"] == 200
    assert handler(event("GET", "/docs/"), None)["statusCode"] == 404


def test_the_daily_secret_is_read_on_first_need_only(handler, monkeypatch):
    """A cold start never touches SSM: only the first daily request does (here: no parameter
    configured on DynamoDB, so daily challenges answer 503 and say why in the log)."""
    response = handler(event("GET", "/v1/daily/today"), None)
    assert response["statusCode"] == 503


def test_the_web_client_is_served_on_lambda_too(handler):
    """Same origin behind API Gateway: the page and its modules come from the function."""
    page = handler(event("GET", "/play/abc"), None)
    assert page["statusCode"] == 200
    assert "text/html" in {k.lower(): v for k, v in page["headers"].items()}["content-type"]
    script = handler(event("GET", "/web/js/app.js"), None)
    assert script["statusCode"] == 200
    assert "javascript" in {k.lower(): v for k, v in script["headers"].items()}["content-type"]
