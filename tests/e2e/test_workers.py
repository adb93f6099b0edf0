"""`court serve --workers N`: several processes on one SQLite file lose nothing, answer no
5xx under racing clients, and a worker killed with -9 is replaced."""

import http.client
import os
import signal
import subprocess
import threading
import time

from domain.record import chain_breaks
from tests.e2e.test_e2e import call, server


def children_of(pid):
    """The server's workers: its children at its own priority, not the background process,
    which runs at a lower one (handlers/serve/server.py: start_background)."""
    nice = os.getpriority(os.PRIO_PROCESS, pid)
    out = subprocess.run(["ps", "-o", "pid=,ni=", "--ppid", str(pid)], capture_output=True,
                         text=True)  # fmt: skip
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [int(child) for child, ni in rows if int(ni) == nice]


def test_three_workers_racing_on_one_sqlite_file(tmp_path):
    log = tmp_path / "server.log"
    with (
        open(log, "w") as err,
        server("--db", str(tmp_path / "court.db"), "--workers", "3", stderr=err) as (base, proc),
    ):
        assert len(children_of(proc.pid)) == 3
        games = []
        for i in range(4):
            status, _, created = call(base, "POST", "/v1/games",
                                      {"ruleset": "royal-assassin", "seed": f"w{i}"})  # fmt: skip
            assert status == 201
            games.append((created["game"]["id"], created["token"]))
        statuses = []
        accepted = []
        lock = threading.Lock()

        def player(n):
            for step in range(25):
                gid, token = games[(n + step) % len(games)]
                try:
                    status, _, body = call(base, "GET", f"/v1/games/{gid}", token=token)
                except (ConnectionError, http.client.HTTPException, OSError):
                    continue  # cut by the killed worker: a read is simply tried again later
                if status != 200 or body["game"]["status"] != "playing":
                    with lock:
                        statuses.append(status)
                    continue
                legal = [m for m in body["view"]["legal_moves"] if m["type"] != "resign"]
                move = {"version": body["game"]["version"], "move": legal[step % len(legal)]}
                key = {"Idempotency-Key": f"p{n}-{step}"}
                for _ in range(5):  # a connection cut by the killed worker: retry, same key
                    try:
                        status, _, _ = call(base, "POST", f"/v1/games/{gid}/moves", move, token,
                                            headers=key)  # fmt: skip
                        break
                    except (ConnectionError, http.client.HTTPException, OSError):
                        time.sleep(0.05)
                with lock:
                    statuses.append(status)
                    if status == 201:
                        accepted.append((gid, move["version"] + 1))

        threads = [threading.Thread(target=player, args=(n,)) for n in range(12)]
        for t in threads:
            t.start()
        # Mid-load, one worker dies hard; the parent replaces it and clients go on.
        time.sleep(0.5)
        victim = children_of(proc.pid)[0]
        os.kill(victim, signal.SIGKILL)
        for t in threads:
            t.join()
        assert all(s in (200, 201, 409) for s in statuses), sorted(set(statuses))
        assert statuses.count(201) == len(accepted) > 0
        deadline = time.monotonic() + 10
        while len(children_of(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(children_of(proc.pid)) == 3 and victim not in children_of(proc.pid)
        for gid, token in games:
            status, _, moves = call(base, "GET", f"/v1/games/{gid}/moves")
            seqs = [m["seq"] for m in moves["moves"]]
            assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
            status, _, game = call(base, "GET", f"/v1/games/{gid}", token=token)
            log_ = [(m["seq"], m["seat"], m["move"], m["hash"]) for m in moves["moves"]]
            salts = [m["salt"] for m in moves["moves"]]
            assert chain_breaks(game["game"]["seed_commitment"], log_, salts) == []
        # Every accepted move is in the log at the seq it was accepted as.
        for gid, seq in accepted:
            _, _, moves = call(base, "GET", f"/v1/games/{gid}/moves")
            assert len(moves["moves"]) >= seq
    assert "restarting" in log.read_text()
