"""The cloud store: one DynamoDB table, one strongly consistent Query to load a game and one
write request to append a move.

Items: `pk = "GAME#<id>"` with `sk = "GAME"` for the record and `sk = "MOVE#<seq:08d>"` for each
move. Appending is a PutItem conditioned on `attribute_not_exists(sk)`, or a TransactWriteItems
(that put plus the record's update) when the move finishes the game. JSON documents (options,
moves, outcome) are stored as strings so they come back exactly as written.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    NoCredentialsError,
)

from domain.daily import tie_prefix
from domain.errors import (
    AccountTaken,
    AttemptExists,
    InvalidRequest,
    Json,
    PlayerNotFound,
    StoreUnavailable,
    VersionConflict,
)
from domain.record_codec import (
    GAME_FIELDS,
    Scalar,
    deal_from_text,
    deal_text,
    entry_from_text,
    entry_text,
    event_fields,
    finish_fields,
    game_fields,
    game_record,
    token_hashes_text,
)
from domain.store import check_join, check_rematch, decode_cursor, encode_cursor
from domain.stored import (
    Attempt,
    DailyDeal,
    Finish,
    GameRecord,
    LeaderboardEntry,
    MoveEvent,
    Page,
    PlayerRecord,
    StoredGame,
)

RECORD_SK = "GAME"
log = logging.getLogger("royal_court.dynamodb")
PLAYER_COUNT_SHARDS = 16
"""Items a day's count of a ruleset's players is spread over: a ranked start adds one to the
shard of its player, so that the item's write rate (1,000 a second) is 16 times further off;
reading the count is one Query of the deal and its shards."""
TALLY_SHARDS = 2
"""Partitions a day's tally of a ruleset's board is spread over, by player: each ranked finish
adds one to its score band and to its (score, moves) band in the partition of its player, so
that a player's rank is counted from these tallies in 2 x TALLY_SHARDS small Queries whatever
the rank, never by reading the entries ahead of it. Two keep a viral day's finishes (a million
in an hour: ~280 a second, a write unit to each band) at about a quarter of a partition's
1,000 write units a second (docs/capacity.md).

Counts (these and the players') are added by plain UpdateItems after the transaction that
writes what they count, never inside it: concurrent ADDs on one item queue, while a
transaction on an item another one holds is cancelled (TransactionConflict), and a popular
band on a viral day is such an item. A count may therefore miss a finish whose process died
between the two (never the finish itself, nor its board entry); docs/daily.md says how a
day's tallies are counted again from its board."""
TTL_ATTRIBUTE = "expires_at"  # the table's TTL attribute: a record's expiry, Unix seconds
assert TTL_ATTRIBUTE in GAME_FIELDS  # the record's own field, as the codec names it
FINISHED_INDEX = "finished"  # every finished game, newest first
FINISHED_BY_RULESET_INDEX = "finished-by-ruleset"  # the same, one partition per ruleset
ALL_FINISHED = "FINISHED"
FINISHED_KEYS = {FINISHED_INDEX: "fin_all", FINISHED_BY_RULESET_INDEX: "fin_rs"}
RETRYABLE = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionInProgressException",
        "LimitExceededException",
    }
)


def _error(e: ClientError) -> tuple[str, str]:
    """The error's code and message: what the server logs (never a request or a secret)."""
    error = e.response.get("Error", {})
    return str(error.get("Code", "")), str(error.get("Message", ""))[:300]


def create_keyed_table(client: Any, table: str, indexes: list[Json] | None = None) -> None:
    """A table keyed by `pk` and `sk` (strings), on demand, with TTL on `expires_at`, and the
    given secondary indexes (their key attributes strings too): the games table and the
    WebSocket connections' table, for local engines and tests (serverless.yml makes them in
    the cloud). One that exists already is fine; any other refusal is StoreUnavailable."""
    keys = {"pk", "sk"} | {k["AttributeName"] for i in indexes or [] for k in i["KeySchema"]}
    try:
        client.create_table(
            TableName=table,
            AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in sorted(keys)],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            **({"GlobalSecondaryIndexes": indexes} if indexes else {}),
            BillingMode="PAY_PER_REQUEST",
        )
        client.get_waiter("table_exists").wait(TableName=table)
        client.update_time_to_live(
            TableName=table,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE},
        )
    except ClientError as e:
        code, message = _error(e)
        if code != "ResourceInUseException":
            raise StoreUnavailable(f"cannot create table {table!r}: {code}: {message}") from None


def _pk(game_id: str) -> dict[str, str]:
    return {"S": f"GAME#{game_id}"}


def _move_sk(seq: int) -> dict[str, str]:
    return {"S": f"MOVE#{seq:08d}"}


def _attributes(fields: dict[str, Scalar]) -> dict[str, Any]:
    """Stored fields as attribute values: text S, an integer N, a boolean BOOL; a field
    that is None is left out (never stored as NULL, so `attribute_exists` means set)."""
    return {name: _attribute(value) for name, value in fields.items() if value is not None}


def _attribute(value: str | int | bool) -> dict[str, Any]:
    if isinstance(value, bool):  # before int: a bool is an int too
        return {"BOOL": value}
    if isinstance(value, int):
        return {"N": str(value)}
    return {"S": value}


def _fields(item: dict[str, Any]) -> dict[str, Scalar]:
    """An item's attributes of a game record's fields, as the codec reads them."""
    out: dict[str, Scalar] = {}
    for name in GAME_FIELDS:
        value = item.get(name)
        if value is None or "NULL" in value:
            continue
        if "N" in value:
            out[name] = int(value["N"])
        else:
            out[name] = value["BOOL"] if "BOOL" in value else value["S"]
    return out


def make_client(endpoint_url: str | None = None, region: str | None = None) -> Any:
    """A DynamoDB client with tight timeouts; create one per process and share it."""
    config = Config(
        connect_timeout=2,
        read_timeout=5,
        retries={"max_attempts": 3, "mode": "standard"},
    )
    try:
        return boto3.client(
            "dynamodb", endpoint_url=endpoint_url, region_name=region or "us-east-1", config=config
        )
    except BotoCoreError as e:  # e.g. AWS_PROFILE names no profile
        raise StoreUnavailable(f"cannot configure the DynamoDB client: {e}") from None


class DynamoStore:
    def __init__(self, client: Any, table: str, leaderboard_shards: int = 1) -> None:
        self.client = client
        self.table = table
        # A day's board is one partition (about 1,000 writes/s); past that, spread its
        # entries over this many partitions, read back by merging (docs/daily.md).
        self.shards = leaderboard_shards

    def create_table(self) -> None:
        """For local engines and tests; in the cloud, serverless.yml creates the table."""
        try:
            create_keyed_table(
                self.client,
                self.table,
                indexes=[
                    {
                        "IndexName": index,
                        "KeySchema": [
                            {"AttributeName": key, "KeyType": "HASH"},
                            {"AttributeName": "fin_sk", "KeyType": "RANGE"},
                        ],
                        "Projection": {"ProjectionType": "ALL"},
                    }
                    for index, key in FINISHED_KEYS.items()
                ],
            )
        except BotoCoreError:
            self.check()  # says why in one line: no credentials, unreachable endpoint
            raise

    # ---- the store interface ---------------------------------------------------------------

    def create(self, record: GameRecord) -> None:
        self._call(
            "put_item",
            TableName=self.table,
            Item=self._game_item(record),
            ConditionExpression="attribute_not_exists(pk)",
        )

    @staticmethod
    def _game_item(record: GameRecord) -> dict[str, Any]:
        fields = game_fields(record)
        del fields["id"]  # in the key
        item = {"pk": _pk(record.id), "sk": {"S": RECORD_SK}, **_attributes(fields)}
        if record.finished_at is not None:  # over at the deal: listed from the start
            item["finished_at"] = {"S": record.finished_at}
            item["fin_all"] = {"S": ALL_FINISHED}
            item["fin_rs"] = {"S": f"{ALL_FINISHED}#{record.ruleset}"}
            item["fin_sk"] = {"S": f"{record.finished_at}#{record.id}"}
        return item

    def load(self, game_id: str) -> StoredGame | None:
        items: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": _pk(game_id)},
            "ConsistentRead": True,
        }
        while True:
            page = self._call("query", **kwargs)
            items.extend(page["Items"])
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        record_item = next((i for i in items if i["sk"]["S"] == RECORD_SK), None)
        if record_item is None:
            return None
        moves = MoveEvent.stored(
            (
                int(i["seq"]["N"]),
                int(i["seat"]["N"]),
                i["move"]["S"],
                i["at"]["S"],
                i["hash"]["S"],
                i["idempotency_key"]["S"] if "idempotency_key" in i else None,
            )
            for i in items
            if i["sk"]["S"].startswith("MOVE#")  # sorted by sk: zero-padded seq order
        )
        return StoredGame(self._record(game_id, record_item), moves)

    def version(self, game_id: str) -> int | None:
        # One strongly consistent Query of one item, read backwards over the game's record and
        # moves ("GAME" < "MOVE#..."): the last move if there is one, else the record itself,
        # else nothing (no such game). Only the key and seq come back: one read unit.
        page = self._call(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :record AND :last",
            ExpressionAttributeValues={
                ":pk": _pk(game_id),
                ":record": {"S": RECORD_SK},
                ":last": {"S": "MOVE#\uffff"},
            },
            ExpressionAttributeNames={"#sk": "sk", "#seq": "seq"},
            ProjectionExpression="#sk, #seq",
            ScanIndexForward=False,
            Limit=1,
            ConsistentRead=True,
        )
        if not page["Items"]:
            return None
        item = page["Items"][0]
        return int(item["seq"]["N"]) if item["sk"]["S"].startswith("MOVE#") else 0

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        if event.seq != expected_version + 1:
            raise ValueError("a move's seq is the expected version + 1")
        item = {"pk": _pk(game_id), "sk": _move_sk(event.seq), **_attributes(event_fields(event))}
        put = {
            "TableName": self.table,
            "Item": item,
            "ConditionExpression": "attribute_not_exists(sk)",
        }
        if finish is None:
            self._call("put_item", **put)
            return
        # The record's fields the finish changes (its expiry goes: a finished game is kept),
        # and the fin_* keys that put it into the finished-games indexes (sparse: only
        # finished games carry them), in the same transaction as the finishing move.
        changes = finish_fields(finish, event.seq)
        gone = [name for name, value in changes.items() if value is None]
        values = _attributes(changes) | {
            "fin_all": {"S": ALL_FINISHED},
            "fin_rs": {"S": f"{ALL_FINISHED}#{finish.ruleset}"},
            "fin_sk": {"S": f"{finish.at}#{game_id}"},
        }
        update = {
            "TableName": self.table,
            "Key": {"pk": _pk(game_id), "sk": {"S": RECORD_SK}},
            "UpdateExpression": f"SET {', '.join(f'#{n} = :{n}' for n in values)}"
            + (f" REMOVE {', '.join(f'#{n}' for n in gone)}" if gone else ""),
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeNames": {f"#{n}": n for n in (*values, *gone)},
            "ExpressionAttributeValues": {f":{n}": v for n, v in values.items()},
        }
        items: list[dict[str, Any]] = [{"Put": put}, {"Update": update}]
        if finish.entry is not None:
            items += self._ranked_finish(finish.entry)
        self._call("transact_write_items", TransactItems=items)
        if finish.entry is not None:  # then its tallies (TALLY_SHARDS says why not inside)
            band = tie_prefix(finish.entry.key)  # "won|inverted|moves|"
            tally = self._tally(finish.entry.date, finish.entry.ruleset, finish.entry.player_id)
            self._count(tally, f"S#{band.rsplit('|', 2)[0]}", "n")  # "S#won|inverted"
            self._count(tally, f"M#{band}", "n")

    def _count(self, pk: str, sk: str, attribute: str) -> None:
        """Add one to a count: a plain UpdateItem, after the write it counts. A failure (after
        the client's retries) is logged, never the request's: what it counts is written."""
        try:
            self._call(
                "update_item",
                TableName=self.table,
                Key={"pk": {"S": pk}, "sk": {"S": sk}},
                UpdateExpression="ADD #count :one",
                ExpressionAttributeNames={"#count": attribute},
                ExpressionAttributeValues={":one": {"N": "1"}},
            )
        except StoreUnavailable as e:
            log.warning("a count was not added", extra={"pk": pk, "sk": sk, "cause": str(e)})

    def _ranked_finish(self, entry: LeaderboardEntry) -> list[dict[str, Any]]:
        """What a ranked attempt's finishing move writes in its transaction: the board entry,
        and the entry on the player's attempt (so that "your rank" reads one item, not the
        game)."""
        attempt = {
            "Update": {
                "TableName": self.table,
                "Key": _attempt_key(entry.date, entry.ruleset, entry.player_id),
                "UpdateExpression": "SET entry = :entry, game_id = :game",
                "ExpressionAttributeValues": {
                    ":entry": {"S": entry_text(entry)},
                    ":game": {"S": entry.game_id},
                },
            }
        }
        return [{"Put": {"TableName": self.table, "Item": self._entry_item(entry)}}, attempt]

    def _tally(self, date: str, ruleset: str, player_id: str) -> str:
        shard = _shard(player_id, TALLY_SHARDS)
        return f"DAILY#{date}#{ruleset}#TALLY#{shard}"

    def touch(self, game_id: str, expires_at: int) -> None:
        # Conditional, so that a finished game (whose expiry the finishing move removed) never
        # gains one again from a move that lost the race to it.
        with contextlib.suppress(VersionConflict):
            self._call(
                "update_item",
                TableName=self.table,
                Key={"pk": _pk(game_id), "sk": {"S": RECORD_SK}},
                UpdateExpression="SET #expires = :expires",
                ConditionExpression="#expires < :expires",
                ExpressionAttributeNames={"#expires": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":expires": {"N": str(expires_at)}},
            )

    def delete_expired(self, now: int) -> int:
        """Nothing to do: DynamoDB's TTL deletes a record item once its `expires_at` has passed
        (within days; until then the service treats the game as gone), and the table's stream
        hands that removal to `delete_game_items`, which deletes the game's moves."""
        return 0

    def delete_game_items(self, game_id: str) -> int:
        """Delete what is left of a game whose record TTL removed: its move items (and the
        record, if it is still there). Run by the stream handler; returns how many went."""
        keys: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": _pk(game_id)},
            "ProjectionExpression": "pk, sk",
            "ConsistentRead": True,
        }
        while True:
            page = self._call("query", **kwargs)
            keys += page["Items"]
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        # 25 keys a request (BatchWriteItem's most), what DynamoDB leaves unprocessed (under
        # throttling) sent again a few times: one DeleteItem each took a request per move,
        # and a burst of expiries could outlast the stream's 24 hours.
        for start in range(0, len(keys), 25):
            pending = [{"DeleteRequest": {"Key": key}} for key in keys[start : start + 25]]
            for attempt in range(5):
                left = self._call("batch_write_item", RequestItems={self.table: pending}).get(
                    "UnprocessedItems", {}
                )
                pending = left.get(self.table, [])
                if not pending:
                    break
                time.sleep(0.05 * 2**attempt)
            if pending:
                raise StoreUnavailable(f"dynamodb batch_write_item: {len(pending)} unprocessed", 1)
        return len(keys)

    def join(self, game_id: str, seat: int, invite_hash: str, token_hash: str) -> None:
        # Optimistic: the write is conditional on the token hashes read; a racing join that
        # wrote first makes it fail, and the re-read then finds the seat taken.
        for _ in range(5):
            item = self._get(_pk(game_id)["S"], RECORD_SK)
            record = None if item is None else self._record(game_id, item)
            tokens = check_join(record, seat, invite_hash, token_hash)
            assert item is not None
            try:
                self._call(
                    "update_item",
                    TableName=self.table,
                    Key={"pk": _pk(game_id), "sk": {"S": RECORD_SK}},
                    UpdateExpression="SET token_hashes = :new",
                    ConditionExpression="token_hashes = :old",
                    ExpressionAttributeValues={
                        ":new": {"S": token_hashes_text(tokens)},
                        ":old": item["token_hashes"],
                    },
                )
                return
            except VersionConflict:
                continue
        raise StoreUnavailable("the seat is contended: retry", retry_after=1)

    def create_rematch(self, game_id: str, record: GameRecord, replacing: str | None) -> None:
        # One transaction: the old record's pointer, conditioned on what it is now, and the
        # new game's record; a racing rematch that wrote first fails the condition.
        pointer = "attribute_not_exists(#rematch)" if replacing is None else "#rematch = :was"
        update = {
            "TableName": self.table,
            "Key": {"pk": _pk(game_id), "sk": {"S": RECORD_SK}},
            "UpdateExpression": "SET #rematch = :new",
            "ConditionExpression": f"attribute_exists(pk) AND {pointer}",
            "ExpressionAttributeNames": {"#rematch": "rematch"},
            "ExpressionAttributeValues": {":new": {"S": record.id}}
            | ({} if replacing is None else {":was": {"S": replacing}}),
        }
        put = {
            "TableName": self.table,
            "Item": self._game_item(record),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        try:
            self._call("transact_write_items", TransactItems=[{"Update": update}, {"Put": put}])
        except VersionConflict:
            item = self._get(_pk(game_id)["S"], RECORD_SK)
            found = None if item is None else item.get("rematch", {}).get("S")
            check_rematch(game_id, item is not None, found, replacing)
            raise  # the pointer was as expected: the new id was taken (never, in practice)

    # ---- helpers ---------------------------------------------------------------------------

    def _call(self, operation: str, **kwargs: Any) -> Any:
        """One request; failed conditions become VersionConflict, every other failure
        StoreUnavailable carrying its cause (error code and message, for the server's log)."""
        try:
            return getattr(self.client, operation)(**kwargs)
        except ClientError as e:
            code, message = _error(e)
            if code == "ConditionalCheckFailedException":
                raise VersionConflict(message) from e
            if code == "TransactionCanceledException":
                reasons = [r.get("Code") for r in e.response.get("CancellationReasons", [])]
                if "ConditionalCheckFailed" in reasons:
                    raise VersionConflict(message) from e
                raise StoreUnavailable(f"dynamodb {operation}: {code} {reasons}") from e
            # Throttling and outages are worth a retry; anything else (a missing table, refused
            # credentials) is the operator's to fix, but still not the client's fault.
            retry_after = 1 if code in RETRYABLE else 5
            raise StoreUnavailable(f"dynamodb {operation}: {code}: {message}", retry_after) from e
        except BotoCoreError as e:  # no credentials, connection refused, timeouts
            raise StoreUnavailable(f"dynamodb {operation}: {type(e).__name__}: {e}") from e

    def check(self) -> None:
        """Fail fast with one line an operator can act on, before serving any request."""
        where = self.client.meta.endpoint_url
        try:
            table = self.client.describe_table(TableName=self.table)["Table"]
        except NoCredentialsError:
            raise StoreUnavailable(
                "no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY "
                "(any values will do for DynamoDB Local) or AWS_PROFILE"
            ) from None
        except (EndpointConnectionError, ConnectTimeoutError) as e:
            raise StoreUnavailable(f"cannot reach DynamoDB at {where}: {e}") from None
        except BotoCoreError as e:
            raise StoreUnavailable(f"DynamoDB at {where}: {type(e).__name__}: {e}") from None
        except ClientError as e:
            code, message = _error(e)
            if code == "ResourceNotFoundException":
                raise StoreUnavailable(
                    f"no table {self.table!r} at {where}: create it with --create-table "
                    "(or deploy serverless.yml)"
                ) from None
            raise StoreUnavailable(f"DynamoDB at {where} refused: {code}: {message}") from None
        keys = {k["AttributeName"]: k["KeyType"] for k in table.get("KeySchema", [])}
        if keys != {"pk": "HASH", "sk": "RANGE"}:
            raise StoreUnavailable(
                f"table {self.table!r} at {where} is not a Royal Court table: its keys are "
                f"{keys}, not pk (HASH) and sk (RANGE)"
            )

    @staticmethod
    def _record(game_id: str, item: dict[str, Any]) -> GameRecord:
        return game_record(_fields(item) | {"id": game_id})

    def list_finished(self, ruleset: str | None, limit: int, cursor: str | None) -> Page:
        index = FINISHED_INDEX if ruleset is None else FINISHED_BY_RULESET_INDEX
        key = FINISHED_KEYS[index]
        partition = ALL_FINISHED if ruleset is None else f"{ALL_FINISHED}#{ruleset}"
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": index,
            "KeyConditionExpression": "#key = :partition",
            "ExpressionAttributeNames": {"#key": key},
            "ExpressionAttributeValues": {":partition": {"S": partition}},
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if cursor is not None:
            after = decode_cursor(cursor, ("pk", "sk", "fin_sk"))
            kwargs["ExclusiveStartKey"] = {
                "pk": {"S": after["pk"]},
                "sk": {"S": after["sk"]},
                "fin_sk": {"S": after["fin_sk"]},
                key: {"S": partition},
            }
        try:
            page = self._call("query", **kwargs)
        except StoreUnavailable as e:
            if cursor is not None and "ValidationException" in str(e):
                raise InvalidRequest("cursor", "not a cursor this server gave") from None
            raise
        records = tuple(self._record(i["pk"]["S"][len("GAME#") :], i) for i in page["Items"])
        last = page.get("LastEvaluatedKey")
        next_cursor = (
            encode_cursor({f: last[f]["S"] for f in ("pk", "sk", "fin_sk")}) if last else None
        )
        return Page(records, next_cursor)

    # ---- daily challenges -------------------------------------------------------------------

    def _get(self, pk: str, sk: str) -> dict[str, Any] | None:
        found = self._call(
            "get_item",
            TableName=self.table,
            Key={"pk": {"S": pk}, "sk": {"S": sk}},
            ConsistentRead=True,
        )
        item: dict[str, Any] | None = found.get("Item")
        return item

    def create_player(self, player: PlayerRecord) -> None:
        """A guest is one PutItem; an account's player comes with its account's pointer
        (`ACCOUNT#<digest>`, its own partition) in one transaction, so that two first sign-ins
        of one account on two devices make one player."""
        item = {
            "pk": {"S": f"PLAYER#{player.id}"},
            "sk": {"S": "PLAYER"},
            "name": {"S": player.name},
            "token_hash": {"S": player.token_hash},
            "created_at": {"S": player.created_at},
        }
        if player.sessions:
            item["sessions"] = {"S": ",".join(player.sessions)}
        if player.account is None:
            self._call("put_item", TableName=self.table, Item=item,
                       ConditionExpression="attribute_not_exists(pk)")  # fmt: skip
            return
        item["account"] = {"S": player.account}
        try:
            self._call("transact_write_items", TransactItems=[
                {"Put": {"TableName": self.table, "Item": item,
                         "ConditionExpression": "attribute_not_exists(pk)"}},
                {"Put": {"TableName": self.table, "Item": _account_item(player.account, player.id),
                         "ConditionExpression": "attribute_not_exists(pk)"}},
            ])  # fmt: skip
        except VersionConflict:
            raise AccountTaken("the account has a player already") from None

    def load_player(self, player_id: str) -> PlayerRecord | None:
        item = self._get(f"PLAYER#{player_id}", "PLAYER")
        if item is None:
            return None
        sessions = item.get("sessions", {}).get("S", "")
        return PlayerRecord(
            player_id, item["name"]["S"], item["token_hash"]["S"], item["created_at"]["S"],
            item.get("account", {}).get("S"), tuple(s for s in sessions.split(",") if s),
        )  # fmt: skip

    def load_account(self, account: str) -> str | None:
        item = self._get(f"ACCOUNT#{account}", "ACCOUNT")
        return None if item is None else str(item["player_id"]["S"])

    def attach_account(self, player_id: str, account: str) -> None:
        update = {
            "TableName": self.table,
            "Key": {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": "PLAYER"}},
            "UpdateExpression": "SET account = :account, token_hash = :none",
            "ConditionExpression": "attribute_exists(pk) AND attribute_not_exists(account)",
            "ExpressionAttributeValues": {":account": {"S": account}, ":none": {"S": ""}},
        }
        put = {
            "TableName": self.table,
            "Item": _account_item(account, player_id),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        try:
            self._call("transact_write_items", TransactItems=[{"Update": update}, {"Put": put}])
        except VersionConflict:
            raise AccountTaken("the account has a player, or the player an account") from None

    def save_sessions(
        self, player_id: str, before: tuple[str, ...], after: tuple[str, ...]
    ) -> bool:
        was = ",".join(before)
        try:
            self._call(
                "update_item",
                TableName=self.table,
                Key={"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": "PLAYER"}},
                UpdateExpression="SET sessions = :after",
                ConditionExpression="attribute_exists(pk) AND "
                + ("(attribute_not_exists(sessions) OR sessions = :before)" if not was
                   else "sessions = :before"),
                ExpressionAttributeValues={":after": {"S": ",".join(after)},
                                           ":before": {"S": was}},
            )  # fmt: skip
        except VersionConflict:
            return False
        return True

    def rename_player(self, player_id: str, name: str) -> None:
        try:
            self._call(
                "update_item",
                TableName=self.table,
                Key={"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": "PLAYER"}},
                UpdateExpression="SET #name = :name",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#name": "name"},  # a reserved word
                ExpressionAttributeValues={":name": {"S": name}},
            )
        except VersionConflict:
            raise PlayerNotFound(f"no player {player_id!r}") from None

    def claim_once(self, key: str, expires_at: int) -> bool:
        """A used ID token's item, in a partition of its own, deleted by the table's TTL after
        the token's `exp` (until then the condition refuses it again)."""
        try:
            self._call(
                "put_item",
                TableName=self.table,
                Item={"pk": {"S": f"SIGNIN#{key}"}, "sk": {"S": "SIGNIN"},
                      TTL_ATTRIBUTE: {"N": str(expires_at)}},
                ConditionExpression="attribute_not_exists(pk)",
            )  # fmt: skip
        except VersionConflict:
            return False
        return True

    def load_daily(self, date: str, ruleset: str) -> DailyDeal | None:
        """The day's deal and its count of players: one strongly consistent Query of the deal
        item and its counter shards, which sort right after it (`DEAL#<ruleset>#PLAYERS#k`;
        `#` sorts before the `-` of a longer ruleset's name, so no other deal is read)."""
        items = self._call(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :deal AND :last",
            ExpressionAttributeValues={
                ":pk": {"S": f"DAILY#{date}"},
                ":deal": {"S": f"DEAL#{ruleset}"},
                ":last": {"S": f"DEAL#{ruleset}#~"},
            },
            ConsistentRead=True,
        )["Items"]
        deal = next((i for i in items if i["sk"]["S"] == f"DEAL#{ruleset}"), None)
        if deal is None:
            return None
        # The deal item's own count: what starts made before the counter was sharded.
        players = sum(int(i.get("players", {"N": "0"})["N"]) for i in items)
        return deal_from_text(deal["deal"]["S"], players)

    def save_daily(self, deal: DailyDeal) -> DailyDeal:
        # Another server may have chosen first: the same deal, since the choice is deterministic.
        with contextlib.suppress(VersionConflict):
            self._call(
                "put_item",
                TableName=self.table,
                Item={
                    "pk": {"S": f"DAILY#{deal.date}"},
                    "sk": {"S": f"DEAL#{deal.ruleset}"},
                    "deal": {"S": deal_text(deal)},
                    "players": {"N": "0"},
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        kept = self.load_daily(deal.date, deal.ruleset)
        assert kept is not None
        return kept

    def create_attempt(self, date: str, player_id: str, record: GameRecord) -> None:
        shard = _shard(player_id, PLAYER_COUNT_SHARDS)
        attempt_key = _attempt_key(date, record.ruleset, player_id)
        try:
            self._call(
                "transact_write_items",
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self.table,
                            "Item": attempt_key | {"game_id": {"S": record.id}},
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                    {
                        "Put": {
                            "TableName": self.table,
                            "Item": self._game_item(record),
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                ],
            )
        except VersionConflict:
            existing = self.load_attempt(date, record.ruleset, player_id)
            if existing is None:
                raise
            raise AttemptExists(existing.game_id) from None
        # One of the day's count shards, by the player: no item is written by every ranked
        # start, and the deal item is never written again.
        self._count(f"DAILY#{date}", f"DEAL#{record.ruleset}#PLAYERS#{shard:02d}", "players")

    def load_attempt(self, date: str, ruleset: str, player_id: str) -> Attempt | None:
        key = _attempt_key(date, ruleset, player_id)
        item = self._get(key["pk"]["S"], key["sk"]["S"])
        if item is None:
            return None
        entry = entry_from_text(item["entry"]["S"]) if "entry" in item else None
        return Attempt(item["game_id"]["S"], entry)

    def attempts_of(self, player_id: str, since: str) -> list[tuple[str, str, Attempt]]:
        """The attempt items of the player's partition from `since` on (about 100 bytes each:
        a year of three daily rulesets is one page), strongly consistent as every read here."""
        found: list[tuple[str, str, Attempt]] = []
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :from AND :to",
            "ExpressionAttributeValues": {
                ":pk": {"S": f"PLAYER#{player_id}"},
                ":from": {"S": f"ATTEMPT#{since}"},
                ":to": {"S": "ATTEMPT#~"},
            },
            "ConsistentRead": True,
        }
        while True:
            page = self._call("query", **kwargs)
            for item in page["Items"]:
                _, date, ruleset = item["sk"]["S"].split("#", 2)
                entry = entry_from_text(item["entry"]["S"]) if "entry" in item else None
                found.append((date, ruleset, Attempt(item["game_id"]["S"], entry)))
            if "LastEvaluatedKey" not in page:
                return found
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _board(self, date: str, ruleset: str, shard: int) -> str:
        base = f"DAILY#{date}#{ruleset}"
        return base if self.shards == 1 else f"{base}#{shard}"

    def _entry_item(self, entry: LeaderboardEntry) -> dict[str, Any]:
        shard = int(hashlib.sha256(entry.game_id.encode()).hexdigest(), 16) % self.shards
        return {
            "pk": {"S": self._board(entry.date, entry.ruleset, shard)},
            "sk": {"S": f"RANK#{entry.key}"},
            "entry": {"S": entry_text(entry)},
        }

    def leaderboard(
        self, date: str, ruleset: str, limit: int, after: str | None
    ) -> list[LeaderboardEntry]:
        merged: list[LeaderboardEntry] = []
        for shard in range(self.shards):  # each shard is sorted: the best `limit` of each
            kwargs: dict[str, Any] = {
                "TableName": self.table,
                "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
                "ExpressionAttributeValues": {
                    ":pk": {"S": self._board(date, ruleset, shard)},
                    ":low": {"S": f"RANK#{after}\u0000" if after else "RANK#"},
                    ":high": {"S": "RANK#\uffff"},
                },
                "Limit": limit,
            }
            page = self._call("query", **kwargs)
            merged += [entry_from_text(i["entry"]["S"]) for i in page["Items"]]
        merged.sort(key=lambda e: e.key)
        return merged[:limit]

    def leaderboard_rank(self, date: str, ruleset: str, key: str) -> int:
        # 1 + the entries strictly better: every score band above the key's (`S#` items
        # before its own), and in its own score band those with fewer moves (`M#` items
        # before its own), summed over the tally's partitions. Eventually consistent reads
        # (half the units): a rank may miss the entries of the last second.
        band = tie_prefix(key)
        score_band = band.rsplit("|", 2)[0]
        better = 0
        for shard in range(TALLY_SHARDS):
            pk = {"S": f"DAILY#{date}#{ruleset}#TALLY#{shard}"}
            for low, high in (("S#", f"S#{score_band}"), (f"M#{score_band}|", f"M#{band}")):
                kwargs: dict[str, Any] = {
                    "TableName": self.table,
                    "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
                    "ExpressionAttributeValues": {
                        ":pk": pk,
                        ":low": {"S": low},
                        ":high": {"S": high},
                    },
                }
                while True:  # one page, unless a day has tens of thousands of bands
                    page = self._call("query", **kwargs)
                    better += sum(int(i["n"]["N"]) for i in page["Items"] if i["sk"]["S"] != high)
                    if "LastEvaluatedKey" not in page:
                        break
                    kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        return better + 1


def _shard(text: str, shards: int) -> int:
    """`text`'s shard of `shards`: from SHA-256, so spread evenly whatever the ids look like."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") % shards


def _account_item(account: str, player_id: str) -> dict[str, Any]:
    """An account's pointer to its player: the one item a sign-in reads to find the player."""
    return {"pk": {"S": f"ACCOUNT#{account}"}, "sk": {"S": "ACCOUNT"},
            "player_id": {"S": player_id}}  # fmt: skip


def _attempt_key(date: str, ruleset: str, player_id: str) -> dict[str, Any]:
    """A ranked attempt's item: in its player's partition (beside the player's own item), so
    that a popular day's starts and finishes spread over every player's partition, and a
    player's attempts are one Query."""
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"ATTEMPT#{date}#{ruleset}"}}
