"""The table stream's Lambda entry (`handlers/aws/expiry.expired_games`), fed DynamoDB
Streams events of the recorded shape, against DynamoDB (moto): when TTL has removed an expired
game's record, the game's moves go too; nothing else is touched."""

import copy
import importlib
import json
from pathlib import Path

import pytest
from moto import mock_aws

from domain.stored import GameRecord, MoveEvent
from infra.dynamo_store import DynamoStore, make_client

REMOVED = json.loads((Path(__file__).parent / "events" / "dynamodb_ttl_remove.json").read_text())
TABLE = "royal-court-streams-test"


def record(game_id, **changes):
    return GameRecord(id=game_id, ruleset="royal-assassin", options={}, seed="royal",
                      seed_commitment="c0ffee", seed_known=True,
                      created_at="2026-11-22T00:00:00.000Z", token_hashes={0: "ab" * 32},
                      **changes)  # fmt: skip


def removal(game_id, sk="GAME", by_ttl=True, name="REMOVE"):
    event = copy.deepcopy(REMOVED)
    change = event["Records"][0]
    change["eventName"] = name
    change["dynamodb"]["Keys"] = {"sk": {"S": sk}, "pk": {"S": f"GAME#{game_id}"}}
    if not by_ttl:
        del change["userIdentity"]  # a delete by a user or a role carries none
    return event


@pytest.fixture
def streams(monkeypatch, aws_credentials):
    monkeypatch.setenv("ROYAL_TABLE", TABLE)
    monkeypatch.delenv("ROYAL_STORE", raising=False)
    with mock_aws():
        store = DynamoStore(make_client(None, "us-east-1"), TABLE)
        store.create_table()
        for gid in ("expired-game", "other"):
            store.create(record(gid, expires_at=1_797_897_000))
            for seq in range(1, 40):
                store.append(gid, seq - 1, MoveEvent(seq, 0, {"type": "draw"},
                             "2026-11-22T00:00:01.000Z", f"{seq:064x}"), None)  # fmt: skip
        module = importlib.reload(importlib.import_module("handlers.aws.expiry"))
        yield module, store


def items(store, game_id):
    page = store.client.query(
        TableName=TABLE,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}},
    )
    return page["Items"]  # fmt: skip


def test_ttl_removal_of_a_record_deletes_the_games_moves(streams):
    module, store = streams
    # What TTL does: the record item, and only it, is deleted.
    store.client.delete_item(
        TableName=TABLE, Key={"pk": {"S": "GAME#expired-game"}, "sk": {"S": "GAME"}}
    )
    assert len(items(store, "expired-game")) == 39  # the moves are left behind
    result = module.expired_games(REMOVED, None)
    assert result == {"games": 1, "items": 39, "batchItemFailures": []}
    assert items(store, "expired-game") == []
    assert store.load("other").version == 39  # another game is untouched
    again = module.expired_games(REMOVED, None)  # a retry: harmless
    assert again == {"games": 1, "items": 0, "batchItemFailures": []}


def test_each_batch_is_logged_as_a_json_line(streams, capsys):
    module, _ = streams
    capsys.readouterr()
    module.expired_games(REMOVED, None)
    [line] = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert line["message"] == "expired games deleted" and line["level"] == "INFO"
    assert line["expired_games"] == 1 and line["service"] == "royal-court"


@pytest.mark.parametrize(
    "event",
    [
        removal("other", by_ttl=False),  # deleted by someone, not by TTL
        removal("other", sk="MOVE#00000001"),  # a move item's removal
        removal("other", name="MODIFY"),
        removal("other", name="INSERT"),
        {"Records": []},
    ],
)
def test_anything_else_is_left_alone(streams, event):
    module, store = streams
    assert module.expired_games(event, None) == {"games": 0, "items": 0, "batchItemFailures": []}
    assert store.load("other").version == 39


def test_a_record_that_fails_is_reported_and_retried_from(streams, monkeypatch):
    """Partial batch failure: the first record whose game cannot be deleted now is named by
    its sequence number; the records before it are done, none after it is tried (Lambda
    retries from it, in order, then hands it to the StreamFailures queue)."""
    from domain.errors import StoreUnavailable

    module, store = streams
    batch = {"Records": [removal(g)["Records"][0] for g in ("expired-game", "other", "third")]}
    for i, change in enumerate(batch["Records"]):
        change["dynamodb"]["SequenceNumber"] = f"{100 + i}"
    real = store.delete_game_items

    def flaky(game_id):
        if game_id == "other":
            raise StoreUnavailable("dynamodb query: ThrottlingException", 1)
        return real(game_id)

    monkeypatch.setattr(module.store, "delete_game_items", flaky)
    result = module.expired_games(batch, None)
    assert result == {"games": 1, "items": 40, "batchItemFailures": [{"itemIdentifier": "101"}]}
    assert items(store, "expired-game") == [] and store.load("other").version == 39
