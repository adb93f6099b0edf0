"""Records' figures: `court verify` against a replay, verify throughput, the costliest cheap
request (a replay step or a verification of a log at the event cap), and the bytes one client
can make the SQLite store keep a day at `court serve`'s default rates."""

from __future__ import annotations

import os
import sqlite3
import statistics
import tempfile

from bench.figures import Bench, Figure, timings
from bench.games import EVENT_CAP_GAME, LOG_GAME, stalling_log
from domain.bots import play_out
from domain.errors import Json
from domain.registry import get_game, get_ruleset
from domain.replay import replay
from domain.replay_cache import ReplayCache
from domain.service import MAX_EVENTS, GameService
from domain.stored import IDEMPOTENCY_KEY_MAX
from domain.verify import verify
from handlers.config import Settings, new_secret, utc_now
from handlers.http import limits
from infra.sqlite_store import SqliteStore
from tests.fakes import InMemoryStore


def benches() -> list[Bench]:
    return [verify_against_replay(), verify_throughput(), event_cap(), storage_per_client()]


def record_of(ruleset_id: str, seed: str, options: dict[str, object], moves: list[Json]) -> Json:
    """A finished game's record, played through the service on the in-memory store."""
    service = GameService(InMemoryStore(), utc_now, new_secret)
    snap = service.create_game(ruleset_id, options, seed)
    game_id, token = snap.game["id"], snap.token
    assert token is not None
    for version, move in enumerate(moves):
        service.play(game_id, token, version, move)
    return service.record(game_id, None)


def verify_against_replay(moves: int = 150) -> Bench:
    """Verifying costs about one replay: the chain is one SHA-256 per move (issue 9 asks for
    "about one replay", no number: this figure has no target)."""
    ident = f"records.verify_{moves}.over_replay"

    def run() -> list[Figure]:
        options: dict[str, object] = {"recycle_reserve": True}
        log = [*stalling_log("bench-0", options, moves - 1), {"type": "resign"}]
        record = record_of(LOG_GAME, "bench-0", options, log)
        assert verify(record).valid and len(record["moves"]) == moves
        ruleset = get_ruleset(LOG_GAME)
        events = [(m["seat"], m["move"]) for m in record["moves"]]
        verify_s = min(timings(lambda: verify(record), 30))
        replay_s = min(timings(lambda: replay(ruleset, "bench-0", record["options"], events), 30))
        return [
            Figure(
                ident,
                f"court verify of a {moves}-move record (in process) / one replay",
                verify_s / replay_s,
                "x",
                f"{verify_s * 1e3:.2f} ms vs {replay_s * 1e3:.2f} ms; issue 9: about one replay",
            )
        ]

    return Bench((ident,), run)


def verify_throughput(records: int = 100) -> Bench:
    """Finished `greedy` games of LOG_GAME verified one after another (best of three)."""
    ident = "records.verify.throughput"

    def run() -> list[Figure]:
        game = get_game(LOG_GAME)
        played = []
        for i in range(records):
            _, log = play_out(game.ruleset, f"verify-{i}", None, game.policies["greedy"])
            played.append(record_of(LOG_GAME, f"verify-{i}", {}, [m for _, m in log]))
        best = min(timings(lambda: [verify(r) for r in played], 3))
        moves = statistics.mean(len(r["moves"]) for r in played)
        return [
            Figure(
                ident,
                f"verify throughput, finished {LOG_GAME} records ({moves:.0f} moves avg)",
                len(played) / best,
                "records/s",
                f"{records} records, best of three",
            )
        ]

    return Bench((ident,), run)


def longest_log(
    ruleset_id: str, cap: int = MAX_EVENTS, service: GameService | None = None, key: bool = False
) -> tuple[GameService, str, str, int]:
    """A casual game at the event cap (the costliest log a client can build): moves in turn
    up to 200 events, then a move and its undo, over and over, to `cap`; on the in-memory
    store unless a `service` is given, each move with an Idempotency-Key of the longest kind
    if `key`."""
    service = service or GameService(InMemoryStore(), utc_now, new_secret)
    snap = service.create_game(ruleset_id, {"undo": True}, "bench-longest")
    token = snap.token
    assert token is not None
    game_id, version, view = snap.game["id"], 0, snap.view
    step = 0
    while version < cap:
        legal = [m for m in view["legal_moves"] if m["type"] != "resign"]
        real = [m for m in legal if m["type"] != "undo"]
        undo = version > 200 and {"type": "undo"} in legal and version % 2
        move = {"type": "undo"} if undo else real[step % len(real)]
        step += 1
        idempotency_key = f"{version:0{IDEMPOTENCY_KEY_MAX}d}" if key else None
        snap = service.play(game_id, token, version, move, idempotency_key)
        if snap.game["status"] != "playing":
            break
        version, view = snap.game["version"], snap.view
    return service, game_id, token, version


def event_cap(cap: int = MAX_EVENTS) -> Bench:
    """What the costliest cheap request costs: a replay step or a verification of a log at
    the event cap, with no replay cache to help (issue 27: seconds of CPU, once); and, as a
    server runs (its cache on, warmed by the game's own play), a step of the game's past over
    a read of its newest position (issue 38: replays from the nearest checkpoint)."""
    ids = (
        "records.event_cap.replay_step",
        "records.event_cap.verify",
        "records.event_cap.past_step_over_read",
    )

    def run() -> list[Figure]:
        service, game_id, token, version = longest_log(EVENT_CAP_GAME, cap)
        service.cache = ReplayCache()
        service.read_game(game_id, token)  # the newest position, and the checkpoints on the way
        read_s = statistics.median(timings(lambda: service.read_game(game_id, token), 50))

        def step(at: int) -> float:
            return statistics.median(timings(lambda: service.replay_step(game_id, token, at), 5))

        pasts = [step(at) for at in range(1, version, 97)]
        past_ms = (statistics.median(pasts) - read_s) * 1e3
        service.cache = None
        step_s = min(timings(lambda: service.replay_step(game_id, token, version), 3))
        service.play(game_id, token, version, {"type": "resign"})
        record = service.record(game_id, None)
        assert verify(record).valid
        verify_s = min(timings(lambda: verify(record), 3))
        undos = sum(m["move"]["type"] == "undo" for m in record["moves"])
        where = f"{EVENT_CAP_GAME}, {len(record['moves'])} events ({undos} undos)"
        return [
            Figure(ids[0], f"replay step at the event cap, no cache ({where})", step_s, "s"),
            Figure(ids[1], f"verify of a record at the event cap ({where})", verify_s, "s"),
            Figure(
                ids[2],
                f"a past replay step over a read of the newest position ({where}, "
                "cache on; median over every 97th step)",
                past_ms,
                "ms",
                f"worst step {max(pasts) * 1e3:.1f} ms, read {read_s * 1e3:.1f} ms",
            ),
        ]

    return Bench(ids, run)


def storage_per_client(games: int = 300) -> Bench:
    """Bytes the SQLite store keeps per move (a 64-character Idempotency-Key each, indexes
    and all) and per new game (a secret deal), and what one client address makes it keep a
    day at `court serve`'s default rates, every worker of this machine's default count (one
    per core) taking a full share. Retention bounds what it can pile up: a finished casual
    game is kept `ROYAL_FINISHED_TTL_DAYS` (an unfinished one less), so at most that many
    days of it are ever kept (issue 38)."""
    ids = ("records.storage.move_bytes", "records.storage.game_bytes",
           "records.storage.client_day")  # fmt: skip

    def run() -> list[Figure]:
        settings = Settings()
        with tempfile.TemporaryDirectory() as tmp:
            path = f"{tmp}/court.db"
            service = GameService(SqliteStore(path), utc_now, new_secret,
                                  game_ttl=settings.game_ttl,
                                  finished_ttl=settings.finished_ttl)  # fmt: skip
            empty = file_bytes(path)
            for _ in range(games):
                service.create_game(LOG_GAME, None, None)
            created = file_bytes(path)
            _, _, _, moves = longest_log(EVENT_CAP_GAME, service=service, key=True)
            played = file_bytes(path)
        per_game = (created - empty) / games
        per_move = (played - created) / moves
        workers = os.cpu_count() or 1
        minute = limits.MOVES_PER_MINUTE * per_move + limits.GAMES_PER_MINUTE * per_game
        day = minute * 60 * 24 * workers
        kept_days = settings.finished_ttl_days
        return [
            Figure(ids[0], "SQLite bytes kept per move", per_move, "bytes",
                   f"{moves} moves of a game at the event cap, each with a "
                   f"{IDEMPOTENCY_KEY_MAX}-character Idempotency-Key; indexes included"),
            Figure(ids[1], "SQLite bytes kept per new game", per_game, "bytes",
                   f"{games} secret deals of {LOG_GAME}, unplayed"),
            Figure(ids[2], "bytes one client address makes the store keep a day", day / 1e6,
                   "MB", f"{limits.MOVES_PER_MINUTE} moves and {limits.GAMES_PER_MINUTE} games a "
                   f"minute per worker, {workers} workers; kept {kept_days:.0f} days at most "
                   f"once finished: {day * kept_days / 1e9:.1f} GB at most from one address"),
        ]  # fmt: skip

    return Bench(ids, run)


def file_bytes(path: str) -> int:
    """The SQLite file's size once its write-ahead log is folded in."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return os.path.getsize(path)
