"""Moves told across `court serve`'s worker processes, so that a stream held by one worker hears
of a move another worker made at once, with nothing polled (handlers/serve/stream_hub.py).

The parent makes one datagram socket pair per worker before it forks; every worker inherits
them all, reads its own pair's inbox on a thread that sleeps until a datagram arrives, and sends
the game id of each move it makes to every other worker's inbox. A replaced worker inherits the
same pair from the parent. Sends never block: when an inbox is full (its worker busy or being
replaced) the notice is dropped, and the hub's safety poll finds the move instead.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable

MAX_GAME_ID = 128
"""Bytes of a game id a notice carries at most (ids are 22 characters)."""


class WorkerNotices:
    """The socket pairs of `workers` workers: made in the parent, used in each worker."""

    def __init__(self, workers: int) -> None:
        self.pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM) for _ in range(workers)]
        for inbox, outbox in self.pairs:
            inbox.setblocking(True)
            outbox.setblocking(False)

    def tell_others(self, number: int) -> Callable[[str], None]:
        """What worker `number` calls with each game it moved: a notice to every other worker."""
        others = [outbox for n, (_, outbox) in enumerate(self.pairs) if n != number]

        def tell(game_id: str) -> None:
            data = game_id.encode()[:MAX_GAME_ID]
            for outbox in others:
                with contextlib.suppress(BlockingIOError, OSError):
                    outbox.send(data)

        return tell

    def listen(self, number: int, heard: Callable[[str], None]) -> None:
        """Call `heard` with each game another worker moved, on a thread of worker `number`."""
        inbox = self.pairs[number][0]

        def loop() -> None:
            while True:
                try:
                    data = inbox.recv(MAX_GAME_ID)
                except OSError:
                    return
                heard(data.decode(errors="replace"))

        threading.Thread(target=loop, name="worker-notices", daemon=True).start()
