"""`court serve`'s figures, over loopback against a real server: POST throughput with one
worker and with two, and /healthz and a move while many clients long-poll."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.figures import Bench, Figure, pct
from bench.games import LOG_GAME
from domain.errors import Json
from tests.stores import _free_port  # a free port, in ROYAL_TEST_PORTS if set


def benches() -> list[Bench]:
    return [workers(), load(), cold_start(), long_polls()]


@contextmanager
def serving(*args: str, daily: bool = False) -> Iterator[str]:
    """`court serve` on a free loopback port and a fresh SQLite file, with `args` added; its
    base URL once it accepts connections, and stopped after. The per-address limits are off:
    one address here plays every client (docs/api.md, "Limits"); so is the choosing of the
    day's deals, unless `daily` (then the server needs its daily secret file, made at start)."""
    if not daily:
        args = (*args, "--no-prepare-daily")
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "handlers.cli", "serve", "--port", str(port),
             "--db", f"{tmp}/court.db", "--games-per-minute", "0", "--moves-per-minute", "0",
             "--costly-reads-per-minute", "0", "--streams-per-address", "100000",
             "--connections-per-address", "100000", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.5).close()
                    break
                except OSError:
                    time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(10)


def post_loop(base: str, seconds: float, seed: str, ruleset: str, moves: int | None = None) -> int:
    """One client process: deal a game, play it by its first legal move, deal again; count
    accepted moves. Each game is played over one keep-alive connection, as a client app does
    for a session; a new game opens a new connection, so that the kernel spreads connections
    over the workers as they come instead of pinning each client to one worker for the run.

    HTTP/1.1 written and read by hand over one socket, like wrk or hey: `http.client` spends
    more CPU per request than the server's routing does, and on a two-core host the clients
    share the cores with the workers, so a heavy client caps what any number of workers shows.
    """
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    reader = sock.makefile("rb")

    def reconnect() -> None:
        nonlocal sock, reader
        reader.close()
        sock.close()
        sock = socket.create_connection((host, int(port)), timeout=10)
        reader = sock.makefile("rb")

    def call(path: str, body: object, token: str | None = None) -> Json:
        payload = json.dumps(body).encode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"{auth}Content-Length: {len(payload)}\r\n\r\n"
        )
        sock.sendall(head.encode() + payload)
        status = reader.readline()
        assert status.split()[1] in (b"200", b"201"), status
        length = 0
        while (line := reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        data: Json = json.loads(reader.read(length))
        return data

    accepted, n = 0, 0
    deadline = time.perf_counter() + seconds

    def going() -> bool:  # for `seconds`, or until `moves` were accepted
        return accepted < moves if moves is not None else time.perf_counter() < deadline

    while going():
        if n:
            reconnect()
        created = call("/v1/games", {"ruleset": ruleset, "seed": f"{seed}-{n}"})
        n += 1
        game, token, version = created["game"], created["token"], 0
        view = created["view"]
        while game["status"] == "playing" and going():
            move = next(m for m in view["legal_moves"] if m["type"] != "resign")
            body = call(f"/v1/games/{game['id']}/moves", {"version": version, "move": move}, token)
            game, view, version = body["game"], body["view"], version + 1
            accepted += 1
    sock.close()
    return accepted


def throughput(workers: int, clients: int = 4, seconds: float = 4.0) -> float:
    """Accepted POST moves per second against a real `court serve --workers N`."""
    with serving("--workers", str(workers)) as base:
        jobs = [(base, seconds, f"t{workers}-{i}", LOG_GAME) for i in range(clients)]
        with multiprocessing.get_context("spawn").Pool(clients) as pool:
            counts = pool.starmap(post_loop, jobs)
    return sum(counts) / seconds


def server_pid(base: str) -> int:
    """The pid of the `court serve` listening on `base`'s port (its parent process)."""
    port = int(base.rsplit(":", 1)[1])
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in cmdline and str(port).encode() in cmdline and b"handlers.cli" in cmdline:
            return int(entry.name)
    raise RuntimeError(f"no court serve on port {port}")


def process_tree(pid: int) -> list[int]:
    """`pid` and every process descended from it (its workers, its background process)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(stat.parent.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo += parents.get(tree[-1], [])
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU the processes have spent so far (those still running)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def load(rounds: int = 3, seconds: float = 4.0) -> Bench:
    """`court serve` as it starts by default (a worker per core, the background process
    choosing the day's deals once the file is new), under 4 and then 16 client processes in
    turn, `rounds` times: moves a second, and the server's CPU per move over all its
    processes (user and system, the background's included). The clients share the cores."""
    ids = (
        "server.load.cpu_per_move_4",
        "server.load.cpu_per_move_16",
        "server.load.sixteen_over_four",
    )

    def run() -> list[Figure]:
        rates: dict[int, list[float]] = {4: [], 16: []}
        costs: dict[int, list[float]] = {4: [], 16: []}
        with serving(daily=True) as base:
            pids = process_tree(server_pid(base))
            ctx = multiprocessing.get_context("spawn")
            for r in range(rounds):
                for clients in (4, 16):
                    jobs = [(base, seconds, f"load{r}-{clients}-{i}", LOG_GAME)
                            for i in range(clients)]  # fmt: skip
                    with ctx.Pool(clients) as pool:
                        pool.starmap(post_loop, [(base, 0.3, f"w{j}", LOG_GAME)
                                                 for j, *_ in enumerate(jobs)])  # fmt: skip
                        before = cpu_seconds(pids)
                        moves = sum(pool.starmap(post_loop, jobs))
                        spent = cpu_seconds(pids) - before
                    rates[clients].append(moves / seconds)
                    costs[clients].append(spent / moves * 1e3)

        def rounds_of(values: list[float], unit: str) -> str:
            return ", ".join(f"{v:,.{2 if unit == 'ms' else 0}f}" for v in values)

        figures = [
            Figure(
                f"server.load.cpu_per_move_{clients}",
                f"court serve CPU per move, {clients} client processes (median of {rounds})",
                statistics.median(costs[clients]),
                "ms",
                f"rounds: {rounds_of(costs[clients], 'ms')} ms; moves/s "
                f"{rounds_of(rates[clients], '/s')}",
            )
            for clients in (4, 16)
        ]
        ratios = [sixteen / four for four, sixteen in zip(rates[4], rates[16], strict=True)]
        figures.append(
            Figure(
                "server.load.sixteen_over_four",
                "court serve moves/s at 16 clients / at 4, the same round (the worst round)",
                min(ratios),
                "x",
                f"rounds: {', '.join(f'{x:.2f}' for x in ratios)}",
            )
        )
        return figures

    return Bench(ids, run)


def cold_start(runs: int = 7) -> Bench:
    """A fresh `court serve` (one worker, a new SQLite file) from its process's start to the
    answer of its first move: the median of `runs`, and the CPU it spent to get there."""
    ids = ("server.cold_start.first_move", "server.cold_start.cpu")

    def once() -> tuple[float, float]:
        port = _free_port()
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            server = subprocess.Popen(
                [sys.executable, "-m", "handlers.cli", "serve", "--port", str(port),
                 "--db", f"{tmp}/court.db", "--workers", "1", "--no-prepare-daily"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                while True:
                    try:
                        sock = socket.create_connection(("127.0.0.1", port), 0.5)
                        break
                    except OSError:
                        time.sleep(0.002)
                sock.close()
                post_loop(f"http://127.0.0.1:{port}", 0.0, "cold", LOG_GAME, moves=1)
                elapsed = time.perf_counter() - started
                spent = cpu_seconds(process_tree(server.pid))
            finally:
                server.terminate()
                server.wait(10)
        return elapsed * 1e3, spent * 1e3

    def run() -> list[Figure]:
        times, cpus = zip(*(once() for _ in range(runs)), strict=True)
        return [
            Figure(
                ids[0],
                "court serve: process start to its first move answered",
                statistics.median(times),
                "ms",
                f"median of {runs}: {', '.join(f'{t:.0f}' for t in times)} ms",
            ),
            Figure(
                ids[1],
                "court serve: CPU spent to its first move answered",
                statistics.median(cpus),
                "ms",
                f"median of {runs}: {', '.join(f'{t:.0f}' for t in cpus)} ms",
            ),
        ]

    return Bench(ids, run)


def workers(runs: int = 3, clients: int = 4, seconds: float = 4.0) -> Bench:
    """Best of three runs each, taking turns (1, 2, 1, 2, ...): a shared host's noisy
    neighbours then cost both sides alike."""
    ident = "server.workers.two_over_one"

    def run() -> list[Figure]:
        ones: list[float] = []
        twos: list[float] = []
        for _ in range(runs):
            ones.append(throughput(1, clients, seconds))
            twos.append(throughput(2, clients, seconds))
        one, two = max(ones), max(twos)
        return [
            Figure(
                ident,
                f"court serve POST moves/s, 2 workers / 1, {clients} client processes, loopback, "
                "SQLite",
                two / one,
                "x",
                f"1 worker {one:,.0f}/s; 2 workers {two:,.0f}/s; best of {runs} each",
            )
        ]

    return Bench((ident,), run)


def latencies(base: str, seconds: float, ruleset: str) -> tuple[list[float], list[float]]:
    """GET /healthz and POST a move (on a game of its own), in turn, for `seconds`: the time
    each took, over one keep-alive connection each."""
    host, port = base.removeprefix("http://").split(":")
    health = http.client.HTTPConnection(host, int(port), timeout=30)
    moves = http.client.HTTPConnection(host, int(port), timeout=30)

    def post(path: str, body: object, token: str | None = None) -> Json:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        moves.request("POST", path, json.dumps(body), headers)
        answer = moves.getresponse()
        data: Json = json.loads(answer.read())
        assert answer.status == 201, data
        return data

    health_times: list[float] = []
    move_times: list[float] = []
    game: Json = {}
    n = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        health.request("GET", "/healthz")
        health.getresponse().read()
        health_times.append(time.perf_counter() - started)
        if not game or game["game"]["status"] != "playing":
            game = post("/v1/games", {"ruleset": ruleset, "seed": f"lat-{n}"})
            token, n = game["token"], n + 1
        move = next(m for m in game["view"]["legal_moves"] if m["type"] != "resign")
        started = time.perf_counter()
        path = f"/v1/games/{game['game']['id']}/moves"
        game = post(path, {"version": game["game"]["version"], "move": move}, token)
        move_times.append(time.perf_counter() - started)
    health.close()
    moves.close()
    return health_times, move_times


def long_polls(polls: int = 64, seconds: float = 5.0) -> Bench:
    """/healthz and a move against `court serve --workers 1` (8 threads), alone and while
    `polls` clients long-poll one game: each waits (`?wait=20`) or, answered at once for want of
    a waiting place, asks again after `Retry-After`, as a well-behaved client does. The figure
    is the p99 under the long-polls."""
    ids = ("server.long_polls.healthz", "server.long_polls.move")

    def run() -> list[Figure]:
        alone, loaded = polled_latencies(polls, seconds)

        def spread(times: list[float]) -> str:
            return (
                f"p50 {statistics.median(times) * 1e3:.1f} ms, p99 {pct(times, 0.99) * 1e3:.1f} ms"
            )

        return [
            Figure(
                ident,
                f"court serve {what} under {polls} long-polls, p99",
                pct(loaded[k], 0.99) * 1e3,
                "ms",
                f"under them {spread(loaded[k])}; alone {spread(alone[k])}",
            )
            for k, (ident, what) in enumerate(zip(ids, ("/healthz", "POST move"), strict=True))
        ]

    return Bench(ids, run)


def polled_latencies(
    polls: int, seconds: float
) -> tuple[tuple[list[float], list[float]], tuple[list[float], list[float]]]:
    """`latencies` alone, then while `polls` threads long-poll one game."""
    stop = threading.Event()

    def poller(port: int, game_id: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            while not stop.is_set():
                conn.request("GET", f"/v1/games/{game_id}?wait=20",
                             headers={"If-None-Match": '"0"'})  # fmt: skip
                answer = conn.getresponse()
                answer.read()
                stop.wait(float(answer.headers.get("Retry-After") or 0))
        except (OSError, http.client.HTTPException):  # the server stopped under a wait
            pass
        finally:
            conn.close()

    threads: list[threading.Thread] = []
    with serving("--workers", "1") as base:
        port = int(base.rsplit(":", 1)[1])
        try:
            alone = latencies(base, seconds, LOG_GAME)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/v1/games", json.dumps({"ruleset": LOG_GAME}),
                         {"Content-Type": "application/json"})  # fmt: skip
            polled = json.loads(conn.getresponse().read())["game"]["id"]
            conn.close()
            threads = [threading.Thread(target=poller, args=(port, polled)) for _ in range(polls)]
            for t in threads:
                t.start()
            time.sleep(1)
            loaded = latencies(base, seconds, LOG_GAME)
        finally:
            stop.set()
    # The server has stopped: every poller's wait is cut.
    for t in threads:
        t.join(1)
    return alone, loaded
