"""`court serve`'s background steps: the day's deals chosen before the first player asks, and
unfinished casual games nobody touched deleted once their time is up.

The server's background process (`handlers/serve/server.py: start_background`, no worker) runs
each in a daemon thread of its own, at start and then every `EVERY` seconds:
`GameService.prepare_daily`, so today's deals are ready at once and tomorrow's are kept hours
before midnight UTC (the lazy path, the first request of a day choosing them, stays as the
fallback), and `GameService.delete_expired` (SQLite; on DynamoDB the table's TTL does it and
the step deletes nothing). A failure (a store that is down, no daily secret) is logged and
tried again at the next run; it never ends the thread or the process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from domain.errors import StoreUnavailable
from domain.service import GameService

EVERY = 600.0  # seconds between runs: 10 minutes
log = logging.getLogger("royal_court.background")


def repeat(
    step: Callable[[], str | None],
    every: float,
    name: str,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """Run `step` now and then every `every` seconds in a daemon thread, until `stop` is set.
    What a run returns is logged; an exception is logged (a traceback only for the
    unexpected) and the next run comes at its time."""
    stopped = stop or threading.Event()

    def loop() -> None:
        while True:
            try:
                said = step()
            except StoreUnavailable as e:
                log.warning("court serve: %s failed (will retry): %s", name, e)
            except Exception:
                log.exception("court serve: %s failed (will retry)", name)
            else:
                if said:
                    log.info("court serve: %s: %s", name, said)
            if stopped.wait(every):
                return

    thread = threading.Thread(target=loop, name=name, daemon=True)
    thread.start()
    return thread


def prepare_daily(
    make_service: Callable[[], GameService],
    every: float = EVERY,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """Keep today's and tomorrow's daily deals chosen, from a service of its own."""

    def step(service: GameService) -> str | None:
        chosen = service.prepare_daily()
        return f"daily deals chosen: {', '.join(chosen)}" if chosen else None

    return repeat(_on_own_service(make_service, step), every, "preparing the daily deals", stop)


def delete_expired(
    make_service: Callable[[], GameService],
    every: float = EVERY,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """Delete the unfinished casual games whose time is up, from a service of its own."""

    def step(service: GameService) -> str | None:
        deleted = service.delete_expired()
        return f"{deleted} expired game{'s' if deleted != 1 else ''} deleted" if deleted else None

    return repeat(_on_own_service(make_service, step), every, "deleting expired games", stop)


def _on_own_service(
    make_service: Callable[[], GameService], step: Callable[[GameService], str | None]
) -> Callable[[], str | None]:
    """`step` on a service made in the thread on its first run (after any fork), then kept."""
    made: list[GameService] = []

    def run() -> str | None:
        if not made:
            made.append(make_service())
        return step(made[0])

    return run
