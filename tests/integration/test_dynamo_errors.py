"""How DynamoDB's own error responses map to the store's errors, and so to HTTP.

botocore's Stubber feeds the real client the service's error responses; the adapter code under
test is unchanged.
"""

import pytest
from botocore.stub import Stubber

from domain.errors import StoreUnavailable, VersionConflict
from domain.stored import Finish, MoveEvent
from infra.dynamo_store import DynamoStore, make_client
from tests.api_helpers import make_app

EVENT = MoveEvent(1, 0, {"type": "draw"}, "2026-11-22T00:00:00.000Z", "ab" * 32)


@pytest.fixture
def stubbed(aws_credentials):
    client = make_client(None, "us-east-1")
    with Stubber(client) as stubber:
        yield DynamoStore(client, "royal-court"), stubber


@pytest.mark.parametrize(
    "code, status",
    [
        ("ProvisionedThroughputExceededException", 400),
        ("ThrottlingException", 400),
        ("RequestLimitExceeded", 400),
        ("InternalServerError", 500),
        ("ServiceUnavailable", 503),
        ("ResourceNotFoundException", 400),
    ],
)
def test_throttling_and_outages_are_unavailable(stubbed, code, status):
    store, stubber = stubbed
    stubber.add_client_error("query", service_error_code=code, http_status_code=status)
    with pytest.raises(StoreUnavailable, match=code):  # the service's own error, not a retry's
        store.load("g1")


def test_a_failed_condition_is_a_version_conflict(stubbed):
    store, stubber = stubbed
    stubber.add_client_error("put_item", service_error_code="ConditionalCheckFailedException")
    with pytest.raises(VersionConflict):
        store.append("g1", 0, EVENT, None)


def test_a_cancelled_finishing_transaction(stubbed):
    store, stubber = stubbed
    finish = Finish(
        "lost", {"result": "lost", "score": 0}, "2026-11-22T00:00:02.000Z", "royal-assassin"
    )
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        response_meta={},
        modeled_fields={
            "CancellationReasons": [{"Code": "ConditionalCheckFailed"}, {"Code": "None"}]
        },
    )
    with pytest.raises(VersionConflict):
        store.append("g1", 0, EVENT, finish)
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        modeled_fields={"CancellationReasons": [{"Code": "TransactionConflict"}, {"Code": "None"}]},
    )
    with pytest.raises(StoreUnavailable, match="TransactionConflict"):
        store.append("g1", 0, EVENT, finish)


def test_throttled_api_answers_503_with_retry_after(stubbed):
    store, stubber = stubbed
    stubber.add_client_error("query", service_error_code="ThrottlingException")
    client = make_app(store).test_client()
    r = client.get("/v1/games/abc")
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    assert r.json["type"] == "urn:royal-court:problem:store-unavailable"
