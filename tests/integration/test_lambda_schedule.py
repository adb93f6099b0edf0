"""The scheduled Lambda entry (`handlers/aws/api.prepare_daily`), fed an EventBridge
scheduled event of the recorded shape, against DynamoDB (moto): today's and tomorrow's deals
are kept, a second run chooses nothing, and the API's first daily request then finds them."""

import importlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from moto import mock_aws

from domain.registry import GAMES
from infra.dynamo_store import DynamoStore, make_client
from tests.integration.test_lambda import LambdaContext, body_of, event
from tests.unit.test_prepare_daily import quick_select

SCHEDULED = json.loads((Path(__file__).parent / "events" / "scheduled_event.json").read_text())
TABLE = "royal-court-schedule-test"
SOLITAIRES = sorted(g.id for g in GAMES.values() if g.ruleset.max_seats == 1)


@pytest.fixture
def lambda_module(monkeypatch, aws_credentials):
    monkeypatch.setenv("ROYAL_TABLE", TABLE)
    monkeypatch.setenv("ROYAL_DAILY_SECRET", "lambda-schedule-secret")
    monkeypatch.delenv("ROYAL_STORE", raising=False)
    monkeypatch.delenv("ROYAL_DAILY_SECRET_PARAM", raising=False)
    # The solver and the rating playouts take seconds a deal; what is tested here is the entry.
    monkeypatch.setattr("domain.usecases.daily.select", quick_select)
    with mock_aws():
        store = DynamoStore(make_client(None, "us-east-1"), TABLE)
        store.create_table()
        module = importlib.reload(importlib.import_module("handlers.aws.api"))
        yield module, store


def test_the_scheduled_entry_keeps_today_and_tomorrow(lambda_module, capsys):
    module, store = lambda_module
    now = datetime.now(UTC)
    days = [now.date().isoformat(), (now + timedelta(days=1)).date().isoformat()]
    result = module.prepare_daily(SCHEDULED, LambdaContext("scheduled-1"))
    assert sorted(result["prepared"]) == [f"{d}/{r}" for d in days for r in SOLITAIRES]
    for day in days:
        for ruleset in SOLITAIRES:
            deal = store.load_daily(day, ruleset)
            assert deal is not None and deal.players == 0
    logged = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert logged["scheduled_at"] == SCHEDULED["time"] and len(logged["prepared"]) == 2 * len(
        SOLITAIRES
    )
    # A JSON line with the invocation's keys, like the API's (docs/deploy.md).
    assert logged["level"] == "INFO" and logged["function_request_id"] == "scheduled-1"
    assert logged["cold_start"] is True
    assert module.prepare_daily(SCHEDULED, None) == {"prepared": []}  # kept: nothing to do
    # The API's first request of the day reads them: the same commitments, and no solver.
    response = module.handler(event("GET", "/v1/daily/today"), None)
    assert response["statusCode"] == 200
    shown = {c["ruleset"]: c["seed_commitment"] for c in body_of(response)["challenges"]}
    assert shown == {r: store.load_daily(days[0], r).seed_commitment for r in SOLITAIRES}
    # Tomorrow's deal is kept, not shown.
    assert module.handler(event("GET", f"/v1/daily/{days[1]}"), None)["statusCode"] == 404


def test_without_a_secret_the_scheduled_entry_fails_loudly(lambda_module, monkeypatch):
    module, store = lambda_module
    monkeypatch.setattr(module.service.court, "_daily_secret", b"")
    from domain.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable):  # Lambda retries; the lazy path stays the fallback
        module.prepare_daily(SCHEDULED, None)
    assert store.load_daily(datetime.now(UTC).date().isoformat(), SOLITAIRES[0]) is None
