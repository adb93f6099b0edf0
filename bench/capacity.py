"""The capacity model (issue 39): what each request costs DynamoDB, measured; what each named
scenario asks of every limit, computed from those measurements.

**Measured** (`measure_patterns`): DynamoDB Local runs the table as serverless.yml makes it
(both finished-games indexes), and the API's own Flask app (the one the Lambda entry wraps in
apig_wsgi) serves each access pattern through the service and the real DynamoDB store. A
botocore hook asks every request for its consumed capacity (`ReturnConsumedCapacity=INDEXES`)
and notes the partition keys it reads or writes; each item a transaction writes is charged by
its own size, read back afterwards. The player's rank is measured on a board of 100,000
finishes whose tallies are written as 100,000 finishes write them, their results, scores and
moves drawn from bot playouts of the day's deal.

**Computed** (`scenario_rows`): each scenario is a rate of each pattern (the issue's words:
a viral daily, one game watched by 10,000, 100,000 two-seat games, a day of 10 million
moves). The load on a partition key is the rate times the units measured on it, divided by
the partitions it is spread over (a game's own partition takes one game's pace); the hottest
is held against a partition's 1,000 write and 3,000 read units a second. Lambda's concurrency
is the rate times the measured duration of the request through the app; API Gateway's is the
request rate against the account's 10,000 a second. The cost a day is at the prices of
`PRICES` (us-east-1, November 2026). Each row prints its headroom and the first limit hit.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import random
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bench.figures import Bench, Figure
from bench.games import CAPACITY_GAME

PARTITION_WRITE_UNITS = 1000  # per second, per partition (DynamoDB's hard limit)
PARTITION_READ_UNITS = 3000
API_REQUESTS_PER_S = 10_000  # HTTP API, per account and region (a quota that can be raised)
LAMBDA_ACCOUNT_CONCURRENCY = 1000  # the default quota of an account and region
RANK_ENTRIES = 100_000

PRICES = {
    # DynamoDB on demand after the November 2024 cut; HTTP API first 300 million; Lambda.
    "dynamodb_write_unit": 0.625 / 1e6,
    "dynamodb_read_unit": 0.125 / 1e6,
    "http_request": 1.00 / 1e6,
    "lambda_request": 0.20 / 1e6,
    "lambda_gb_s_arm64": 0.0000133334,
    "lambda_gb_s_x86": 0.0000166667,
    "log_gb": 0.50,
}
LAMBDA_MEMORY_GB = 0.5  # serverless.yml's memorySize for the API (512 MB)
LOG_BYTES_PER_REQUEST = 600  # the access line the API writes per request (handlers/aws/logs.py)


@dataclass
class Request:
    """One DynamoDB request: its operation, the kind of item it reads (a GetItem's sort key up
    to its first `#`), and per partition key the units spent there."""

    operation: str
    read_units: dict[str, float] = field(default_factory=dict)
    write_units: dict[str, float] = field(default_factory=dict)
    item: str = ""

    def touches(self, *kinds: str) -> bool:
        """Whether it reads or writes a partition of one of these classes, or item kinds."""
        keys = [partition_class(k) for k in (*self.read_units, *self.write_units)]
        return self.item in kinds or any(k.endswith(kinds) for k in keys)


@dataclass
class Pattern:
    """An access pattern as measured: its requests and the app's time to answer it."""

    name: str
    requests: list[Request]
    seconds: float

    def units(self, kind: str) -> dict[str, float]:
        """Units by partition class (ids replaced by what they stand for)."""
        out: dict[str, float] = defaultdict(float)
        for request in self.requests:
            spent = request.read_units if kind == "read" else request.write_units
            for key, units in spent.items():
                out[partition_class(key)] += units
        return dict(out)

    def total(self, kind: str) -> float:
        return sum(self.units(kind).values())


CLASSES = (
    (re.compile(r"^GAME#.*"), "GAME#<game>"),
    (re.compile(r"^PLAYER#.*"), "PLAYER#<player>"),
    (re.compile(r"^ACCOUNT#.*"), "ACCOUNT#<account>"),
    (re.compile(r"^SIGNIN#.*"), "SIGNIN#<token>"),
    (re.compile(r"^DAILY#\d{4}-\d{2}-\d{2}#([a-z-]+)#TALLY#\d+$"), r"DAILY#<day>#\1#TALLY#<k>"),
    (re.compile(r"^DAILY#\d{4}-\d{2}-\d{2}#([a-z-]+)#\d+$"), r"DAILY#<day>#\1#<shard>"),
    (re.compile(r"^DAILY#\d{4}-\d{2}-\d{2}"), "DAILY#<day>"),
)


def partition_class(key: str) -> str:
    """A partition key with its ids replaced: `GAME#<game>`, `DAILY#<day>#<ruleset>#TALLY#<k>`."""
    for pattern, name in CLASSES:
        if pattern.match(key):
            return pattern.sub(name, key)
    return key


class Meter:
    """Every request a DynamoDB client makes, with the units it consumed per partition key."""

    def __init__(self, client: Any, table: str) -> None:
        from infra.dynamo_store import make_client

        self.table = table
        # Items are read back for their sizes on a client of its own: not metered.
        self.reader = make_client(client.meta.endpoint_url, client.meta.region_name)
        self.requests: list[Request] = []
        self.items: list[tuple[Request, dict[str, Any], int]] = []  # (request, key, factor)
        events = client.meta.events
        events.register("provide-client-params.dynamodb.*", self._ask)
        events.register("after-call.dynamodb.*", self._note)

    def _ask(self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if model.name in {"Query", "GetItem", "PutItem", "UpdateItem", "DeleteItem",
                          "TransactWriteItems", "BatchWriteItem", "Scan"}:  # fmt: skip
            params["ReturnConsumedCapacity"] = "INDEXES"
        context["royal_params"] = dict(params)

    def _note(self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        params = context.get("royal_params", {})
        request = Request(model.name)
        consumed = parsed.get("ConsumedCapacity")
        consumed = consumed[0] if isinstance(consumed, list) and consumed else consumed or {}
        if model.name in {"Query", "GetItem", "Scan"}:
            key = _read_key(params)
            request.read_units[key] = float(consumed.get("CapacityUnits", 0))
            if "Key" in params:
                request.item = params["Key"]["sk"]["S"].split("#")[0]
        elif model.name == "TransactWriteItems":
            for entry in params["TransactItems"]:
                (action,) = entry.values()
                key = action.get("Key") or {"pk": action["Item"]["pk"], "sk": action["Item"]["sk"]}
                self.items.append((request, key, 2))  # charged by size below
                request.write_units.setdefault(key["pk"]["S"], 0.0)
            request.write_units["(indexes)"] = _index_units(consumed)
        elif model.name in {"PutItem", "UpdateItem", "DeleteItem"}:
            table = consumed.get("Table", {}).get("CapacityUnits", consumed.get("CapacityUnits", 0))
            key = _item_key(params)
            request.write_units[key] = float(table)
            request.write_units["(indexes)"] = _index_units(consumed)
        self.requests.append(request)

    def settle(self) -> None:
        """Charge each transaction's item by its size (read back, uncounted): a transactional
        write costs two units per KB of the item."""
        for request, key, factor in self.items:
            found = self.reader.get_item(TableName=self.table, Key=key).get("Item")
            size = item_size(found) if found else 1
            pk = key["pk"]["S"]
            request.write_units[pk] += factor * max(1, math.ceil(size / 1024))
        self.items.clear()


def _read_key(params: Mapping[str, Any]) -> str:
    if "Key" in params:
        return str(params["Key"]["pk"]["S"])
    values = params.get("ExpressionAttributeValues", {})
    value = values.get(":pk") or values.get(":partition") or {"S": "?"}
    index = params.get("IndexName")
    return f"{index}:{value['S']}" if index else str(value["S"])


def _item_key(params: Mapping[str, Any]) -> str:
    return str((params.get("Key") or params["Item"])["pk"]["S"])


def _index_units(consumed: Mapping[str, Any]) -> float:
    indexes = consumed.get("GlobalSecondaryIndexes", {})
    return float(sum(i.get("CapacityUnits", 0) for i in indexes.values()))


def item_size(item: Mapping[str, Any]) -> int:
    """DynamoDB's size of an item: each attribute's name and value in UTF-8 (numbers roughly)."""
    size = 0
    for name, value in item.items():
        size += len(name.encode())
        ((kind, inner),) = value.items()
        size += len(str(inner).encode()) if kind in ("S", "N") else 1
    return size


# ---- measuring ---------------------------------------------------------------------------------

RULESET = CAPACITY_GAME
BOARD_PAGE = 20
GAME_LENGTH = 40
"""Moves a casual game has had when its move, read and finish are measured: a read loads the
whole game (one strongly consistent Query of its record and moves), so its units grow with the
game's length; the scenarios' games are about this long (a viral day: ~11,000 moves a second
over ~280 finishes)."""


def measure_patterns(endpoint: str, rank_entries: int = 0, runs: int = 3) -> dict[str, Pattern]:
    """Every access pattern through the app on DynamoDB Local at `endpoint`, a fresh table each
    call; the time of each is the median of `runs`. With `rank_entries`, the board's tallies are
    first filled as that many finishes fill them, and `board.you` is measured on them."""
    from handlers.config import Settings, build_service
    from handlers.http.app import create_app

    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(key, "bench")  # DynamoDB Local takes any
    settings = replace(
        Settings.from_env(default_store="dynamodb"),
        store="dynamodb",
        endpoint_url=endpoint,
        region="us-east-1",
        table=f"capacity-{random.getrandbits(40):010x}",
        daily_secret="capacity-model",
    )
    service = build_service(settings)
    store: Any = service.store
    store.create_table()
    app = create_app(service).test_client()
    meter = Meter(store.client, store.table)
    measured: dict[str, Pattern] = {}

    def measure(name: str, call: Callable[[], Any]) -> Any:
        times, response = [], None
        for _ in range(runs):
            meter.requests.clear()
            started = time.perf_counter()
            response = call()
            times.append(time.perf_counter() - started)
            assert response.status_code < 300, (name, response.status_code, response.json)
            meter.settle()
        measured[name] = Pattern(name, list(meter.requests), statistics.median(times))
        return response

    def new_game() -> tuple[str, dict[str, str], Any, int] | None:
        """A game GAME_LENGTH - 1 moves on (unmeasured), still playing: its id, the seat's
        headers, its view and its version; None if it ended on the way."""
        created = app.post("/v1/games", json={"ruleset": RULESET}).json
        gid, headers = created["game"]["id"], {"Authorization": f"Bearer {created['token']}"}
        view, version = created["view"], 0
        for _ in range(GAME_LENGTH - 1):
            move = next((m for m in view["legal_moves"] if m["type"] != "resign"), None)
            if move is None:
                return None
            played = app.post(f"/v1/games/{gid}/moves", json={"version": version, "move": move},
                              headers=headers).json  # fmt: skip
            if played["game"]["status"] != "playing":
                return None
            view, version = played["view"], played["game"]["version"]
        return gid, headers, view, version

    measure("game.create", lambda: app.post("/v1/games", json={"ruleset": RULESET}))
    # Twice as many games as runs: the first half for the reads and moves, the other half
    # finished untouched, so that no finish meets a game its measured move happened to end.
    made = (new_game() for _ in range(40 * runs))  # lazily: no more than needed are played
    games = list(itertools.islice((g for g in made if g is not None), 2 * runs))
    assert len(games) == 2 * runs, "no game of the capacity ruleset lasts GAME_LENGTH moves"
    read = iter(games)

    def read_game() -> Any:
        gid, headers, _, _ = next(read)
        return app.get(f"/v1/games/{gid}", headers=headers)

    measure("game.read", read_game)  # a whole game loaded: its units grow with its moves
    moves = iter(games)

    def move() -> Any:
        gid, headers, view, version = next(moves)
        first = next(m for m in view["legal_moves"] if m["type"] != "resign")
        return app.post(f"/v1/games/{gid}/moves", json={"version": version, "move": first},
                        headers=headers)  # fmt: skip

    measure("game.move", move)
    finishes = iter(games[runs:])

    def finish() -> Any:
        gid, headers, _, version = next(finishes)
        return app.post(f"/v1/games/{gid}/moves",
                        json={"version": version, "move": {"type": "resign"}},
                        headers=headers)  # fmt: skip

    measure("game.finish", finish)
    measure("finished.page", lambda: app.get(f"/v1/games?status=finished&limit={BOARD_PAGE}"))
    app.get("/v1/daily/today")  # the deal chosen (seconds of solver), then read as players do

    def daily_page() -> Any:
        service.court.deals_read.clear()  # as a process reads it once every few seconds
        return app.get("/v1/daily/today")

    measure("daily.page", daily_page)
    players = [app.post("/v1/players", json={"name": f"P{i}"}).json for i in range(runs)]
    starts = iter(players)
    attempts: list[tuple[str, dict[str, str]]] = []

    def start() -> Any:
        headers = {"Authorization": f"Bearer {next(starts)['token']}"}
        response = app.post(f"/v1/daily/today/{RULESET}/games", headers=headers)
        attempts.append(
            (response.json["game"]["id"], {"Authorization": f"Bearer {response.json['token']}"})
        )
        return response

    measure("daily.start", start)
    ranked = iter(attempts)

    def ranked_finish() -> Any:
        gid, headers = next(ranked)
        return app.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": {"type": "resign"}},
                        headers=headers)  # fmt: skip

    measure("daily.finish", ranked_finish)
    board = f"/v1/daily/today/{RULESET}/leaderboard"
    measure("board.page", lambda: app.get(f"{board}?limit={BOARD_PAGE}"))
    if rank_entries:
        fill_tallies(store, service.court.today(), rank_entries)
    you = {"Authorization": f"Bearer {players[0]['token']}"}
    measure("board.you", lambda: app.get(f"{board}?limit=1", headers=you))
    measure_sign_ins(service, app, measure, runs)
    return measured


def measure_sign_ins(service: Any, app: Any, measure: Callable[..., Any], runs: int) -> None:
    """An account's first sign-in and a later one, with ID tokens of an issuer served over
    HTTP here (tests/oidc_issuer.py), as a provider's: measured last, since with a provider
    configured today's ranked attempts are for accounts only."""
    from infra.oidc import OidcVerifier
    from tests.oidc_issuer import AUDIENCE, Issuer

    issuer = Issuer()
    try:
        service.court.identities = OidcVerifier(issuer.url, AUDIENCE)
        app.post("/v1/sessions", json={"id_token": issuer.token("warm-up")})  # keys fetched
        first = iter(range(runs))
        measure(
            "account.first_sign_in",
            lambda: app.post("/v1/sessions", json={"id_token": issuer.token(f"a{next(first)}")}),
        )
        again = iter(range(runs))
        measure(
            "account.sign_in",
            lambda: app.post("/v1/sessions", json={"id_token": issuer.token(f"a{next(again)}")}),
        )
    finally:
        service.court.identities = None
        issuer.close()


def outcomes(playouts: int) -> list[tuple[str, int, int]]:
    """(result, score, moves) of `playouts` games of the day's ruleset on as many deals: half
    by the noisy greedy bot the daily's rating uses, half at random, so that the spread covers
    players good and bad."""
    from domain.bots import random_policy
    from domain.daily import _noisy
    from domain.deal import DealRandom
    from domain.registry import get_game

    game = get_game(RULESET)
    ruleset = game.ruleset
    out = []
    for i in range(playouts):
        seed = f"capacity-{i}"
        rng = DealRandom(seed, "capacity")
        choose = _noisy(game.policies["greedy"](rng), rng) if i % 2 else random_policy(rng)
        state = ruleset.start(seed)
        moves = 0
        while not ruleset.is_over(state):
            seat = ruleset.to_move(state)[0]
            state = ruleset.apply(
                state, seat, choose(ruleset, state, seat, ruleset.legal_moves(state, seat))
            ).state
            moves += 1
        outcome = ruleset.outcome(state)
        assert outcome is not None
        out.append((outcome["result"], outcome["score"], moves))
    return out


def fill_tallies(store: Any, day: str, entries: int, playouts: int = 2000) -> None:
    """The tallies `entries` finishes leave, each finish's outcome drawn from bot playouts and
    its player's tally partition from a made-up player id, written by BatchWriteItem on a
    client of their own (not metered)."""
    from domain.daily import leaderboard_key, tie_prefix
    from infra.dynamo_store import TALLY_SHARDS, make_client

    pool = outcomes(playouts)
    rng = random.Random(39)
    counts: Counter[tuple[str, str]] = Counter()
    for i in range(entries):
        result, score, moves = rng.choice(pool)
        band = tie_prefix(leaderboard_key(result, score, moves, "t", "g"))
        shard = int.from_bytes(hashlib.sha256(f"player-{i}".encode()).digest()[:4], "big")
        pk = f"DAILY#{day}#{RULESET}#TALLY#{shard % TALLY_SHARDS}"
        counts[(pk, f"S#{band.rsplit('|', 2)[0]}")] += 1
        counts[(pk, f"M#{band}")] += 1
    client = make_client(store.client.meta.endpoint_url, "us-east-1")
    items = [{"PutRequest": {"Item": {"pk": {"S": pk}, "sk": {"S": sk}, "n": {"N": str(n)}}}}
             for (pk, sk), n in counts.items()]  # fmt: skip
    for at in range(0, len(items), 25):
        client.batch_write_item(RequestItems={store.table: items[at : at + 25]})


# ---- the model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A named load: each pattern's rate across the service (requests a second), how long it
    lasts in its day, and the pace of the busiest single game or player (its own partition's
    requests a second, by pattern)."""

    id: str
    name: str
    rates: Mapping[str, float]
    hours: float
    own_pace: Mapping[str, float]


VIRAL_FINISHES = 1_000_000 / 3600
SCENARIOS = (
    Scenario(
        "viral_daily",
        "a viral daily: 1,000,000 ranked finishes in one hour (~11,000 moves/s)",
        {"daily.start": VIRAL_FINISHES, "daily.finish": VIRAL_FINISHES, "game.move": 11_000,
         "daily.page": VIRAL_FINISHES, "board.page": VIRAL_FINISHES, "board.you": VIRAL_FINISHES},
        1,
        {"game.move": 1.0, "daily.start": 1 / 60, "daily.finish": 1 / 60},  # a fast player
    ),
    Scenario(
        "watched_game",
        "one game watched by 10,000 spectators, a move every 10 s, each watcher re-reading it",
        {"game.move": 0.1, "game.read": 10_000 * 0.1},
        1,
        {"game.move": 0.1, "game.read": 10_000 * 0.1},
    ),
    Scenario(
        "two_seat_games",
        "100,000 two-seat games at once, a move every 10 s each, the other seat reading it",
        {"game.move": 10_000, "game.read": 10_000, "game.create": 10_000 / 160,
         "game.finish": 10_000 / 160, "finished.page": 10},
        24,
        {"game.move": 0.1, "game.read": 0.1},
    ),
    Scenario(
        "ten_million_moves",
        "a day of 10 million moves (its busiest hour at three times the average)",
        {"game.move": 3 * 1e7 / 86400, "game.read": 3 * 1e7 / 86400,
         "game.create": 3 * 1e7 / 86400 / 40, "game.finish": 3 * 1e7 / 86400 / 40},
        24 / 3,  # the day's moves, at the busiest hour's rate
        {"game.move": 1.0, "game.read": 1.0},
    ),
)  # fmt: skip


@dataclass(frozen=True)
class Deployed:
    """What serverless.yml deploys that a scenario is held against."""

    api_rate: float  # the stage's steady requests a second
    api_concurrency: int  # the API function's reserved concurrency
    board_shards: int  # leaderboardShards
    other_reserved: int  # the other functions' reserved concurrency, summed
    create_rate: float  # each creation route's own steady requests a second


def deployed() -> Deployed:
    from pathlib import Path

    import yaml

    text = (Path(__file__).resolve().parent.parent / "serverless.yml").read_text()
    text = re.sub(r"\$\{[^}]*\}", "x", text)  # the framework's variables: not YAML's
    params = yaml.load(text, Loader=yaml.CSafeLoader)["params"]["default"]
    functions = yaml.load(text, Loader=yaml.CSafeLoader)["functions"]
    fixed = sum(f["reservedConcurrency"] for f in functions.values()
                if isinstance(f.get("reservedConcurrency"), int))  # fmt: skip
    others = fixed + int(params["socketConcurrency"]) + int(params["pushConcurrency"])
    return Deployed(float(params["rateLimit"]), int(params["apiConcurrency"]),
                    int(params["leaderboardShards"]), others,
                    float(params["createRateLimit"]))  # fmt: skip


def spread(partition: str, board_shards: int) -> float | None:
    """Over how many partitions a service-wide rate on this class of key spreads; None for a
    class with one partition per game or player (its load is that one's own pace)."""
    from infra.dynamo_store import TALLY_SHARDS

    if partition.startswith(("GAME#", "PLAYER#")):
        return None
    if partition.endswith("#TALLY#<k>"):
        return TALLY_SHARDS
    if partition.endswith("#<shard>"):
        return board_shards
    return 1


@dataclass
class Load:
    """A scenario's result: the hottest partitions, the functions and the gateway, the cost."""

    hottest_write: tuple[float, str]
    hottest_read: tuple[float, str]
    concurrency: float
    api_rate: float
    cost_per_day: float
    limits: list[tuple[str, float, float, str]]  # (what, load, limit, how to raise it)
    top_writes: list[tuple[float, str]]  # the hottest few partitions: (units a second, key)
    top_reads: list[tuple[float, str]]

    def headroom(self) -> list[tuple[float, str, str]]:
        """(limit / load, what, how to raise it) for each limit, tightest first."""
        rows = [
            (limit / load if load else math.inf, what, raise_)
            for what, load, limit, raise_ in self.limits
        ]
        return sorted(rows)


def load_of(scenario: Scenario, patterns: Mapping[str, Pattern], at: Deployed) -> Load:
    from domain.usecases.daily import DEAL_FRESH_SECONDS

    writes: dict[str, float] = defaultdict(float)
    reads: dict[str, float] = defaultdict(float)
    concurrency = sum(rate * patterns[n].seconds for n, rate in scenario.rates.items())
    stored = dict(scenario.rates)  # the rates that reach the store
    if "daily.page" in stored:  # each process reads the day's deals once every few seconds
        stored["daily.page"] = min(stored["daily.page"], concurrency / DEAL_FRESH_SECONDS)
    for name, rate in stored.items():
        pattern = patterns[name]
        for kind, into in (("write", writes), ("read", reads)):
            for partition, units in pattern.units(kind).items():
                over = spread(partition, at.board_shards)
                pace = scenario.own_pace.get(name, 0.0) if over is None else rate / over
                into[partition] += units * pace
    writes.pop("(indexes)", None)  # index writes are charged to their index partitions below
    for name, rate in stored.items():  # every finish writes both finished indexes
        index_units = patterns[name].units("write").get("(indexes)", 0.0)
        for index in ("finished:FINISHED", f"finished-by-ruleset:FINISHED#{RULESET}"):
            writes[index] += rate * index_units / 2
    hottest_write = max(((v, k) for k, v in writes.items()), default=(0.0, "-"))
    hottest_read = max(((v, k) for k, v in reads.items()), default=(0.0, "-"))
    top_writes = sorted(((v, k) for k, v in writes.items()), reverse=True)[:4]
    top_reads = sorted(((v, k) for k, v in reads.items()), reverse=True)[:4]
    api_rate = sum(scenario.rates.values())
    creations = [rate for name, rate in scenario.rates.items() if name in CREATIONS]
    day = scenario.hours * 3600
    write_units = sum(rate * patterns[n].total("write") for n, rate in stored.items())
    read_units = sum(rate * patterns[n].total("read") for n, rate in stored.items())
    gb_s = concurrency * LAMBDA_MEMORY_GB
    cost = day * (
        write_units * PRICES["dynamodb_write_unit"]
        + read_units * PRICES["dynamodb_read_unit"]
        + api_rate * (PRICES["http_request"] + PRICES["lambda_request"])
        + gb_s * PRICES["lambda_gb_s_arm64"]
        + api_rate * LOG_BYTES_PER_REQUEST / 1e9 * PRICES["log_gb"]
    )
    limits = [
        (f"write units on {hottest_write[1]}", hottest_write[0], PARTITION_WRITE_UNITS,
         "spread its key over more partitions"),
        (f"read units on {hottest_read[1]}", hottest_read[0], PARTITION_READ_UNITS,
         "cache its reads or spread its key"),
        ("the API's reserved concurrency", concurrency, at.api_concurrency,
         f"apiConcurrency >= {math.ceil(concurrency * 1.5)} (account quota: Lambda concurrent "
         f"executions >= {math.ceil(concurrency * 1.5) + at.other_reserved + 100}: the other "
         f"functions' {at.other_reserved} and the 100 AWS keeps unreserved)"),
        ("the account's Lambda concurrency", concurrency + at.other_reserved + 100,
         LAMBDA_ACCOUNT_CONCURRENCY, "quota 'Concurrent executions' raised (its default: 1,000)"),
        ("a creation route's request rate", max(creations, default=0.0), at.create_rate,
         f"createRateLimit >= {math.ceil(max(creations, default=0.0) * 1.25)}"),
        ("the stage's request rate", api_rate, at.api_rate,
         f"rateLimit >= {math.ceil(api_rate * 1.25)}"),
        ("API Gateway's account request rate", api_rate, API_REQUESTS_PER_S,
         f"quota 'Throttle rate' >= {math.ceil(api_rate * 1.25)}"),
    ]  # fmt: skip
    return Load(hottest_write, hottest_read, concurrency, api_rate, cost, limits,
                top_writes, top_reads)  # fmt: skip


# ---- the figures -------------------------------------------------------------------------------

CREATIONS = frozenset({"game.create", "daily.start"})
"""Patterns on a creation route, which the stage throttles on its own (createRateLimit)."""
PATTERNS = ("game.create", "game.read", "game.move", "game.finish", "finished.page",
            "daily.page", "daily.start", "daily.finish", "board.page", "board.you",
            "account.first_sign_in", "account.sign_in")  # fmt: skip


def describe(pattern: Pattern) -> str:
    """`2 requests (Query, PutItem); writes 1 on GAME#<game>; reads 1.5 on ...`."""
    ops = Counter(r.operation for r in pattern.requests)
    said = ", ".join(f"{n} {op}" for op, n in sorted(ops.items()))
    parts = [f"{len(pattern.requests)} requests ({said})"]
    for kind in ("write", "read"):
        units = pattern.units(kind)
        if units:
            parts.append(f"{kind}s " + ", ".join(f"{v:g} on {k}" for k, v in sorted(units.items())))
    parts.append(f"{pattern.seconds * 1000:.1f} ms through the app")
    return "; ".join(parts)


def benches() -> list[Bench]:
    ids = (
        *(f"capacity.pattern.{p}.requests" for p in PATTERNS),
        "capacity.rank.requests",
        "capacity.rank.read_units",
        *(f"capacity.{s.id}.{f}" for s in SCENARIOS
          for f in ("hottest_write_units", "hottest_read_units", "lambda_concurrency",
                    "headroom", "cost_per_day")),
    )  # fmt: skip

    def run() -> Iterator[Figure]:
        from tests.stores import dynamodb_local

        with dynamodb_local() as endpoint:
            patterns = measure_patterns(endpoint, rank_entries=RANK_ENTRIES)
        for name in PATTERNS:
            pattern = patterns[name]
            yield Figure(f"capacity.pattern.{name}.requests", f"DynamoDB requests: {name}",
                         len(pattern.requests), "requests", describe(pattern))  # fmt: skip
        you = patterns["board.you"]
        # The rank's own reads: the player's attempt (with its entry) and the tallies; the
        # token's player and the page of entries are what any board request reads.
        rank_reads = [r for r in you.requests if r.touches("ATTEMPT", "#TALLY#<k>")]
        detail = f"{RANK_ENTRIES:,} entries, the last rank: " + describe(you)
        yield Figure("capacity.rank.requests", "a player's own rank (`you`): requests",
                     len(rank_reads), "requests", detail)  # fmt: skip
        units = sum(sum(r.read_units.values()) for r in rank_reads)
        yield Figure("capacity.rank.read_units", "a player's own rank (`you`): read units",
                     units, "RRU", detail)  # fmt: skip
        at = deployed()
        for scenario in SCENARIOS:
            load = load_of(scenario, patterns, at)
            tightest = load.headroom()[0]
            first = f"first limit: {tightest[1]} ({tightest[0]:.2f}x); to raise: {tightest[2]}"
            limits = "; ".join(f"{what} {h:.2f}x" for h, what, _ in load.headroom())
            for kind, unit, top in (("write", "WCU/s", load.top_writes),
                                    ("read", "RCU/s", load.top_reads)):  # fmt: skip
                yield Figure(
                    f"capacity.{scenario.id}.hottest_{kind}_units",
                    f"{scenario.name}: hottest partition's {kind} units",
                    top[0][0] if top else 0.0,
                    unit,
                    "; ".join(f"{v:,.0f} on {k}" for v, k in top),
                )
            yield Figure(
                f"capacity.{scenario.id}.lambda_concurrency",
                f"{scenario.name}: API Lambda concurrency",
                load.concurrency,
                "functions",
                f"{load.api_rate:,.0f} requests/s; deployed: {at.api_concurrency}",
            )
            yield Figure(
                f"capacity.{scenario.id}.headroom",
                f"{scenario.name}: headroom at the settings deployed",
                tightest[0],
                "x",
                f"{first}. {limits}",
            )
            yield Figure(f"capacity.{scenario.id}.cost_per_day",
                         f"{scenario.name}: cost of its day", load.cost_per_day, "USD",
                         f"{scenario.hours:g} h at these rates; DynamoDB on demand, HTTP API, "
                         "Lambda arm64 512 MB, logs")  # fmt: skip

    return [Bench(ids, run)]
