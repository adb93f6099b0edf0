"""The WebSocket connections of games, on AWS: a DynamoDB table of their own.

A table apart from the games' (serverless.yml, `ConnectionsTable`): a game's load reads its
whole partition, which connections would then be billed in; the games' stream would carry
them; and only the WebSocket functions' role may delete here, while the API's may delete
nothing anywhere.

Two items per connection, both with the table's TTL attribute `expires_at`, so that a
connection whose `$disconnect` never ran (API Gateway does not promise it) vanishes on its
own once it cannot be open any more (API Gateway ends every connection after 2 hours):

- `pk = "CONN#<connection id>"`, `sk = "CONN"`: its game. `$connect` writes it (the game id
  is a query parameter there), the first message and `$disconnect` read it (neither has the
  query string).
- `pk = "GAME#<game id>"`, `sk = "CONN#<connection id>"`: a watching connection and its seat
  (no `seat` attribute: a spectator). Written once the first message's token was checked as
  a read checks it; one Query of the game's partition lists whom a move goes to. The token
  itself is never stored, nor its hash: the seat is all a push needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from domain.errors import StoreUnavailable
from infra.dynamo_store import TTL_ATTRIBUTE, create_keyed_table

CONNECTION_TTL_SECONDS = 3 * 3600
"""How long a connection's items outlive their last write: API Gateway closes a WebSocket
after 2 hours at most, so by then it is gone whether or not `$disconnect` ran (TTL deletes
within days after; a push to a gone connection gets 410 and deletes it sooner)."""


@dataclass(frozen=True)
class Watcher:
    """A connection watching a game, and the seat whose view it gets (None: a spectator)."""

    connection_id: str
    seat: int | None


class PushConnections:
    """The connections table (module docstring), over a boto3 DynamoDB client."""

    def __init__(self, client: Any, table: str) -> None:
        self.client = client
        self.table = table

    def create_table(self) -> None:
        """For DynamoDB Local and tests; in the cloud, serverless.yml creates the table."""
        create_keyed_table(self.client, self.table)

    def connect(self, connection_id: str, game_id: str, now: int) -> None:
        """A connection opened on `game_id` (not watching yet: no token checked)."""
        self._call(
            "put_item",
            TableName=self.table,
            Item={
                "pk": {"S": f"CONN#{connection_id}"},
                "sk": {"S": "CONN"},
                "game": {"S": game_id},
                TTL_ATTRIBUTE: {"N": str(now + CONNECTION_TTL_SECONDS)},
            },
        )

    def game_of(self, connection_id: str) -> str | None:
        """The game a connection was opened on, None if it is not (or no longer) known."""
        found = self._call(
            "get_item",
            TableName=self.table,
            Key={"pk": {"S": f"CONN#{connection_id}"}, "sk": {"S": "CONN"}},
            ProjectionExpression="game",
        )
        item = found.get("Item")
        return None if item is None else str(item["game"]["S"])

    def watch(self, connection_id: str, game_id: str, seat: int | None, now: int) -> None:
        """The connection gets `seat`'s view of every new version of `game_id` from now on."""
        item: dict[str, Any] = {
            "pk": {"S": f"GAME#{game_id}"},
            "sk": {"S": f"CONN#{connection_id}"},
            TTL_ATTRIBUTE: {"N": str(now + CONNECTION_TTL_SECONDS)},
        }
        if seat is not None:
            item["seat"] = {"N": str(seat)}
        self._call("put_item", TableName=self.table, Item=item)

    def watchers(self, game_id: str) -> Iterator[Watcher]:
        """Every connection watching `game_id` (eventually consistent: one read unit per 8 KB
        of ~100-byte items, so a game's few connections cost half a unit)."""
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :conn)",
            "ExpressionAttributeValues": {
                ":pk": {"S": f"GAME#{game_id}"},
                ":conn": {"S": "CONN#"},
            },
        }
        while True:
            page = self._call("query", **kwargs)
            for item in page["Items"]:
                seat = int(item["seat"]["N"]) if "seat" in item else None
                yield Watcher(item["sk"]["S"].removeprefix("CONN#"), seat)
            if "LastEvaluatedKey" not in page:
                return
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def forget(self, connection_id: str, game_id: str | None) -> None:
        """Delete a connection's items (it closed, or a push found it gone)."""
        if game_id is not None:
            self._call(
                "delete_item",
                TableName=self.table,
                Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": f"CONN#{connection_id}"}},
            )
        self._call(
            "delete_item",
            TableName=self.table,
            Key={"pk": {"S": f"CONN#{connection_id}"}, "sk": {"S": "CONN"}},
        )

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self.client, operation)(**kwargs)
        except ClientError as e:
            error = e.response.get("Error", {})
            raise StoreUnavailable(
                f"dynamodb {operation} on {self.table}: {error.get('Code')}: "
                f"{str(error.get('Message', ''))[:300]}"
            ) from e
        except BotoCoreError as e:
            raise StoreUnavailable(f"dynamodb {operation}: {type(e).__name__}: {e}") from e
