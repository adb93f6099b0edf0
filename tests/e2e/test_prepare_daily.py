"""`court serve` chooses the day's deals before anyone asks: a fresh server keeps today's and
tomorrow's deals of every solitaire shortly after start (its background process does it), and
the first `GET /v1/daily/today` then answers at once instead of running the solver."""

import json
import os
import signal
import sqlite3
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

from domain.registry import GAMES
from tests.e2e.test_e2e import call, server

SOLITAIRES = {g.id for g in GAMES.values() if g.ruleset.max_seats == 1}
SECRET = {"ROYAL_DAILY_SECRET": "e2e-daily-secret"}


def kept(db, day):
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return {r for (r,) in conn.execute("SELECT ruleset FROM daily WHERE date = ?", (day,))}
    except sqlite3.Error:
        return set()


def children(pid):
    """{child pid: its niceness} of process `pid`, from /proc."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # ppid; niceness is the 19th field, 17th after the name
            found[int(stat.parent.name)] = int(fields[16])
    return found


def alive(pid):
    """Whether `pid` still runs (a zombie waiting to be reaped has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone(pids, within=10.0):
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def timed(base, path):
    """GET with time to wait: the lazy path runs the solver and 200 playouts per solitaire."""
    started = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as response:
        status, body = response.status, json.loads(response.read())
    return status, body, time.perf_counter() - started


def test_a_fresh_server_has_todays_and_tomorrows_deals_ready(tmp_path):
    db = tmp_path / "court.db"
    log = tmp_path / "server.log"
    with (
        open(log, "w") as err,
        server("--db", str(db), "--workers", "2", env=SECRET, stderr=err, prepare_daily=True) as (
            base,
            proc,
        ),
    ):
        # Two workers at the server's priority, and the background process that chooses the
        # deals at a lower one: its seconds of CPU never hold a worker's GIL.
        processes = children(proc.pid)
        nice = os.getpriority(os.PRIO_PROCESS, proc.pid)
        assert sorted(processes.values()) == [nice, nice, min(nice + 10, 19)], processes
        now = datetime.now(UTC)
        today, tomorrow = now.date().isoformat(), (now + timedelta(days=1)).date().isoformat()
        deadline = time.monotonic() + 120  # Risus Royale's 200 rating playouts: ~10 s loaded
        while not (kept(db, today) == SOLITAIRES and kept(db, tomorrow) == SOLITAIRES):
            assert time.monotonic() < deadline, (kept(db, today), kept(db, tomorrow))
            time.sleep(0.25)
        status, body, seconds = timed(base, "/v1/daily/today")
        assert status == 200 and {c["ruleset"] for c in body["challenges"]} == SOLITAIRES
        assert seconds < 1.0, f"the first /v1/daily/today took {seconds:.2f} s"
        print(f"first /v1/daily/today with the deals prepared: {seconds:.3f} s")
        # Tomorrow's deal is kept but shown to nobody.
        assert call(base, "GET", f"/v1/daily/{tomorrow}")[0] == 404
    assert gone(processes), "a process of the server outlived it"
    text = log.read_text()
    assert text.count("daily deals chosen") == 1, text  # one process, one run that chose them
    assert "Traceback" not in text


def test_without_the_step_the_first_request_chooses_them(tmp_path):
    db = tmp_path / "court.db"
    with server("--db", str(db), "--workers", "1", env=SECRET) as (base, _):
        time.sleep(1)
        assert kept(db, datetime.now(UTC).date().isoformat()) == set()
        status, body, seconds = timed(base, "/v1/daily/today")  # the lazy fallback
        assert status == 200 and {c["ruleset"] for c in body["challenges"]} == SOLITAIRES
        print(f"first /v1/daily/today without the step: {seconds:.2f} s")


def test_a_failing_step_is_logged_and_the_worker_serves_on(tmp_path):
    # A daily secret that cannot be read: the step fails at every run; the server serves on.
    log = tmp_path / "server.log"
    db = tmp_path / "court.db"
    db.with_name("court.db.daily-secret").mkdir()  # the secret file cannot be made or read
    with (
        open(log, "w") as err,
        server("--db", str(db), "--workers", "1", stderr=err, prepare_daily=True) as (base, proc),
    ):
        deadline = time.monotonic() + 30
        while "preparing the daily deals failed" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert call(base, "GET", "/healthz")[0] == 200 and proc.poll() is None
        # The server killed outright: its background process ends with it, no orphan.
        (background,) = children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        assert gone([background]), "the background process outlived a server killed by -9"
