"""Event streams on `court serve` (issues 30 and 38): 2,000 streams open on one server (two
seats of each of 1,000 Duels), the share of a core they cost idle, and meanwhile `/healthz`
and a move, how soon a move reaches the other seat's stream, and the server's memory."""

from __future__ import annotations

import json
import os
import random
import statistics
import threading
import time
import urllib.request
from pathlib import Path

from bench.figures import Bench, Figure, pct
from bench.games import LOG_GAME, STREAM_GAME
from bench.server import latencies, server_pid, serving
from domain.errors import Json
from handlers.serve.server import raise_fd_limit
from tests.sse import SseStream

IDS = (
    "server.streams.open",
    "server.streams.healthz",
    "server.streams.move",
    "server.streams.delivery_median",
    "server.streams.delivery_max",
    "server.streams.rss",
    "server.streams.idle_cpu",
)
IDLE_SECONDS = 10.0
"""How long the open streams are left idle while the server's CPU time is counted."""


def benches() -> list[Bench]:
    return [streams()]


def call(base: str, method: str, path: str, body: object = None, token: str | None = None) -> Json:
    request = urllib.request.Request(
        base + path,
        None if body is None else json.dumps(body).encode(),
        {"Content-Type": "application/json"},
        method=method,
    )
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        data: Json = json.loads(answer.read())
        return data


def process_tree(pid: int) -> list[int]:
    """A process and its children (`court serve` and its workers)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [pid, *(int(x) for x in (children.read_text().split() if children.exists() else ()))]


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the workers), in MB."""
    total = 0
    for p in process_tree(pid):
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children (the workers), in seconds."""
    total = 0
    for p in process_tree(pid):
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def streams(games: int = 1000, moves: int = 300, seconds: float = 8.0) -> Bench:
    """`court serve` with a worker per core (its default; the daily deals' background step
    off, as in bench.server's long-poll figure): `games` Duels, each seat's
    stream open; then `moves` moves on random ones of them, each timed from the POST to its
    event on the other seat's stream, while /healthz and a move on a game of its own are timed
    in turn on another connection (bench.server.latencies) for `seconds`."""

    def run() -> list[Figure]:
        raise_fd_limit()  # a thousand client sockets in this process
        rng = random.Random(30)
        with serving() as base:  # no solver busy at start (serving's default)
            pid = server_pid(base)
            seats: list[tuple[str, list[str], list[SseStream]]] = []
            for _ in range(games):
                created = call(base, "POST", "/v1/games", {"ruleset": STREAM_GAME})
                [invite] = created["invites"]
                joined = call(base, "POST", invite["join"], {"invite": invite["invite"]})
                gid, tokens = created["game"]["id"], [created["token"], joined["token"]]
                seats.append((gid, tokens, [SseStream(base, gid, t, timeout=30) for t in tokens]))
            opened = 0
            for _, _, pair in seats:
                for stream in pair:
                    stream.next(timeout=30)
                    opened += 1
            rss_before = tree_rss_mb(pid)
            time.sleep(1)  # the last heads written
            spent = cpu_seconds(pid)
            time.sleep(IDLE_SECONDS)
            idle_share = (cpu_seconds(pid) - spent) / IDLE_SECONDS
            versions = {gid: 0 for gid, _, _ in seats}
            loaded: list[tuple[list[float], list[float]]] = []
            timer = threading.Thread(
                target=lambda: loaded.append(latencies(base, seconds, LOG_GAME))
            )
            timer.start()
            delays: list[float] = []
            move_times: list[float] = []
            for _ in range(moves):
                gid, tokens, pair = rng.choice(seats)
                view = call(base, "GET", f"/v1/games/{gid}", token=tokens[0])
                if view["game"]["status"] != "playing":
                    continue
                seat = view["view"]["to_move"][0]
                mine = call(base, "GET", f"/v1/games/{gid}", token=tokens[seat])["view"]
                move = next(m for m in mine["legal_moves"] if m["type"] != "resign")
                started = time.perf_counter()
                played = call(base, "POST", f"/v1/games/{gid}/moves",
                              {"version": versions[gid], "move": move}, tokens[seat])  # fmt: skip
                move_times.append(time.perf_counter() - started)
                versions[gid] = played["game"]["version"]
                seen = -1
                while seen < versions[gid]:
                    seen, _ = pair[1 - seat].next(timeout=10)
                delays.append(time.perf_counter() - started)
                while pair[seat].next(timeout=10)[0] < versions[gid]:  # drain the mover's own
                    pass
            timer.join()
            rss_after = tree_rss_mb(pid)
            for _, _, pair in seats:
                for stream in pair:
                    stream.close()
        health, move_loaded = loaded[0]
        ms = 1e3
        return [
            Figure(IDS[0], "court serve event streams held open at once", opened, "streams",
                   f"{games} Duels, each seat's stream; default workers ({os.cpu_count()})"),
            Figure(IDS[1], f"court serve /healthz under {opened} open streams, p99",
                   pct(health, 0.99) * ms, "ms",
                   f"p50 {statistics.median(health) * ms:.1f} ms, {len(health)} requests"),
            Figure(IDS[2], f"court serve POST move under {opened} open streams, p99",
                   pct(move_loaded + move_times, 0.99) * ms, "ms",
                   f"p50 {statistics.median(move_loaded + move_times) * ms:.1f} ms, "
                   f"{len(move_loaded) + len(move_times)} moves (streamed games and others)"),
            Figure(IDS[3], "a move to its event on the other seat's stream, median",
                   statistics.median(delays) * ms, "ms",
                   f"from the POST sent; p90 {pct(delays, 0.9) * ms:.1f} ms, {len(delays)} moves"),
            Figure(IDS[4], "a move to its event on the other seat's stream, slowest",
                   max(delays) * ms, "ms", f"{len(delays)} moves over {opened} streams"),
            Figure(IDS[5], f"court serve resident memory with {opened} streams open",
                   rss_after, "MB", f"all workers; {rss_before:.0f} MB before the moves"),
            Figure(IDS[6], f"court serve CPU with {opened} streams open and idle",
                   idle_share * 100, "% of a core",
                   f"all workers, over {IDLE_SECONDS:.0f} s (heartbeats every 15 s each)"),
        ]  # fmt: skip

    return Bench(IDS, run)
