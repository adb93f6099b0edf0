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
        module = importlib.reload(importlib.import_module("handlers.aws.api"))
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
        "import handlers.aws.api;"
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
    script = handler(event("GET", "/web/app.js"), None)
    assert script["statusCode"] == 200
    assert "javascript" in {k.lower(): v for k, v in script["headers"].items()}["content-type"]


class LambdaContext:
    """The attributes of the Python runtime's context object that the entry point reads."""

    function_name = "royal-court-test-api"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:royal-court-test-api"

    def __init__(self, request_id):
        self.aws_request_id = request_id


@pytest.fixture
def cold_start(monkeypatch, aws_credentials):
    """A function that imports the Lambda entry afresh (a cold start) with these settings,
    inside one moto account."""
    monkeypatch.setenv("ROYAL_TABLE", TABLE)
    monkeypatch.delenv("ROYAL_STORE", raising=False)
    monkeypatch.delenv("ROYAL_DAILY_SECRET", raising=False)
    monkeypatch.delenv("ROYAL_DAILY_SECRET_PARAM", raising=False)
    with mock_aws():
        DynamoStore(make_client(None, "us-east-1"), TABLE).create_table()

        def start(**env):
            for name, value in env.items():
                monkeypatch.setenv(name, value)
            return importlib.reload(importlib.import_module("handlers.aws.api")).handler

        yield start


def json_lines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_a_missing_ssm_parameter_is_a_503_with_its_cause_logged(cold_start, capsys, quick_deals):
    """A fresh deploy whose daily secret's parameter does not exist yet: the daily routes say
    "retry later" (503 problem, Retry-After) and the log says which parameter is missing;
    once it is created the next request works, with no redeploy (its day's deals chosen
    quickly: how they are chosen is not this test's)."""
    import boto3

    name = "/royal-court/test/daily-secret"
    handler = cold_start(ROYAL_DAILY_SECRET_PARAM=name)
    capsys.readouterr()
    response = handler(event("GET", "/v1/daily/today"), LambdaContext("req-1"))
    assert response["statusCode"] == 503, body_of(response)
    assert response["headers"]["content-type"] == "application/problem+json"
    assert body_of(response)["type"] == "urn:royal-court:problem:store-unavailable"
    assert int(response["headers"]["retry-after"]) >= 60
    (cause,) = [e for e in json_lines(capsys.readouterr().out) if e.get("level") == "WARNING"]
    assert name in cause["message"] and "ParameterNotFound" in cause["message"]
    assert cause["function_request_id"] == "req-1" and "exception" not in cause
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=name, Value="a-daily-secret", Type="SecureString"
    )
    response = handler(event("GET", "/v1/daily/today"), LambdaContext("req-2"))
    assert response["statusCode"] == 200, body_of(response)


def test_access_lines_are_json_with_the_request_ids_and_no_secret(cold_start, capsys):
    """One JSON line per request, in Powertools Logger's keys, with Lambda's and API Gateway's
    request ids; never the token nor the query string. The cold start is an EMF metric."""
    handler = cold_start(POWERTOOLS_SERVICE_NAME="royal-court-test")
    capsys.readouterr()
    token, secret = "tok-" + "x" * 28, "query-secret-value"
    request = event("GET", "/v1/games/nope", headers={"authorization": f"Bearer {token}"})
    request["rawQueryString"] = f"wait=1&token={secret}"
    refused = handler(request, LambdaContext("req-a"))["statusCode"]
    assert refused == 422  # no such query parameter
    assert handler(event("GET", "/healthz"), LambdaContext("req-b"))["statusCode"] == 200
    out = capsys.readouterr().out
    assert token not in out and secret not in out
    lines = json_lines(out)
    (metric,) = [line for line in lines if "ColdStart" in line]
    assert metric["ColdStart"] == [1.0] and metric["function_name"] == "royal-court-test-api"
    (directive,) = metric["_aws"]["CloudWatchMetrics"]
    assert directive["Metrics"] == [{"Name": "ColdStart", "Unit": "Count"}]
    assert directive["Dimensions"] == [["function_name", "service"]]
    assert isinstance(metric["_aws"]["Timestamp"], int)
    first, second = [line for line in lines if line.get("message") == "request"]
    for line, request_id, path, status in ((first, "req-a", "/v1/games/nope", refused),
                                           (second, "req-b", "/healthz", 200)):  # fmt: skip
        assert line["level"] == "INFO" and line["service"] == "royal-court-test"
        assert line["function_request_id"] == request_id
        assert line["correlation_id"] == EVENT["requestContext"]["requestId"]
        assert line["function_name"] == LambdaContext.function_name
        assert line["function_memory_size"] == 512
        assert line["method"] == "GET" and line["path"] == path and line["status"] == status
        assert 0 <= line["duration_ms"] < 10_000
        assert line["timestamp"].endswith("+00:00") and "T" in line["timestamp"]
    assert first["cold_start"] is True and second["cold_start"] is False
    # Each access line is its request's metrics too (EMF): counted, and nothing else here.
    for line in (first, second):
        (directive,) = line["_aws"]["CloudWatchMetrics"]
        assert directive["Metrics"] == [{"Name": "Requests", "Unit": "Count"}]
        assert line["Requests"] == [1.0] and directive["Namespace"] == metric["_aws"][
            "CloudWatchMetrics"][0]["Namespace"]  # fmt: skip
    # Only the entry point's line: Flask's own access line is not written twice.
    assert len([line for line in lines if "ColdStart" not in line]) == 2


def test_vary_keeps_authorization_and_origin_on_lambda(cold_start):
    """The payload 2.0 response has one value per header name: both `Vary` values must be in
    it, or a shared cache could serve one seat's view to another (issue 30)."""
    # Two origins: the answer's Access-Control-Allow-Origin then depends on the Origin.
    handler = cold_start(ROYAL_CORS_ORIGINS="https://play.example.com,https://b.example.com")
    origin = {"origin": "https://play.example.com"}
    created = handler(event("POST", "/v1/games", {"ruleset": "royal-assassin"}, origin), None)
    game = body_of(created)
    read = handler(
        event("GET", f"/v1/games/{game['game']['id']}",
              headers={**origin, "authorization": f"Bearer {game['token']}"}),
        None,
    )  # fmt: skip
    assert read["statusCode"] == 200
    names = {v.strip().lower() for v in read["headers"]["vary"].split(",")}
    assert names == {"authorization", "origin"}


def test_every_link_of_the_web_page_works_on_lambda(cold_start):
    """On Lambda there is no Swagger UI, so the page's "API" link goes to the spec: every
    same-origin link and asset of the page answers 200 through the Lambda entry."""
    import re

    handler = cold_start()
    page = handler(event("GET", "/"), None)
    assert page["statusCode"] == 200
    html = page["body"] if not page.get("isBase64Encoded") else base64.b64decode(page["body"])
    html = html.decode() if isinstance(html, bytes) else html
    links = set(re.findall(r'(?:href|src)="(/[^"/][^"]*)"', html))
    assert "/openapi.yaml" in links and "/docs" not in links
    for link in sorted(links):
        assert handler(event("GET", link), None)["statusCode"] == 200, link


@pytest.mark.parametrize(
    ("method", "path", "status", "body", "counted"),
    [
        ("POST", "/v1/games/g/moves", 201, '{"game": {"status": "playing"}}', {"Moves"}),
        ("POST", "/v1/games/g/moves", 201, '{"game": {"status": "won"}}', {"Moves", "Finishes"}),
        ("POST", "/v1/games/g/moves", 409, "{}", {"Conflicts"}),
        ("GET", "/v1/games/g", 503, "{}", {"Unavailable", "ServerErrors"}),
        ("GET", "/v1/games/g", 500, "not json", {"ServerErrors"}),
        ("POST", "/v1/games", 201, '{"game": {"status": "won"}}', set()),  # not a move
    ],
)
def test_each_request_counts_what_it_did(method, path, status, body, counted):
    from handlers.aws.logs import metrics, request_counts

    counts = request_counts({"method": method, "path": path}, status, body)
    document = metrics("RoyalCourt", "royal-court", "fn", counts)
    names = [m["Name"] for m in document["_aws"]["CloudWatchMetrics"][0]["Metrics"]]
    assert set(names) == counted | {"Requests"}
    assert all(document[name] == [1.0] for name in names)
