"""AWS Lambda entry for the table's stream: what is left of a game that TTL expired goes too.

DynamoDB's TTL deletes an item whose `expires_at` has passed: only the game's record item
carries one (a casual game's, kept in step by the service), so TTL removes the record and the
stream hands that removal here, which deletes the game's move items (`DynamoStore.
delete_game_items`). The function has a role of its own, the only one allowed DeleteItem.

A record whose game cannot be deleted now (the store unavailable, throttled) is reported as
the batch's first failure (`batchItemFailures`, ReportBatchItemFailures in serverless.yml):
Lambda checkpoints the records before it and retries from it (deleting again what is left is
harmless), and after its retries sends it to the StreamFailures queue, whose alarm an operator
answers. A record removed by anything but TTL is left alone (serverless.yml filters those out
too).
"""

from __future__ import annotations

import logging
from typing import Any

from domain.errors import StoreUnavailable
from handlers.aws import logs
from handlers.config import Settings, build_store
from infra.dynamo_store import RECORD_SK, DynamoStore

TTL_PRINCIPAL = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}

settings = Settings.from_env(default_store="dynamodb")
logs.configure(settings.service_name)  # JSON lines, as the API's entry writes them
store = build_store(settings)
log = logging.getLogger("royal_court.expiry")


def expired_game(record: dict[str, Any]) -> str | None:
    """The id of the game whose record TTL removed, if the stream record is that."""
    keys = record.get("dynamodb", {}).get("Keys", {})
    pk, sk = str(keys.get("pk", {}).get("S", "")), str(keys.get("sk", {}).get("S", ""))
    if (
        record.get("eventName") != "REMOVE"
        or record.get("userIdentity") != TTL_PRINCIPAL
        or sk != RECORD_SK
        or not pk.startswith("GAME#")
    ):
        return None
    return pk.removeprefix("GAME#")


def expired_games(event: dict[str, Any], context: object) -> dict[str, Any]:
    assert isinstance(store, DynamoStore), "the stream handler runs on DynamoDB"
    deleted: dict[str, int] = {}
    failures: list[dict[str, str]] = []
    for record in event.get("Records", []):
        game_id = expired_game(record)
        if game_id is None:
            continue
        try:
            deleted[game_id] = store.delete_game_items(game_id)
        except StoreUnavailable as e:  # this record and every later one: retried from here
            log.warning("expired game not deleted yet", extra={"game_id": game_id, "cause": str(e)})
            failures.append({"itemIdentifier": record["dynamodb"]["SequenceNumber"]})
            break
    items = sum(deleted.values())
    log.info("expired games deleted", extra={"expired_games": len(deleted), "items_deleted": items})
    return {"games": len(deleted), "items": items, "batchItemFailures": failures}
