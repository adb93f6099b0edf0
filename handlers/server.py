"""`court serve`: waitress, in one process or in several sharing one listening socket.

Waitress reads requests asynchronously, so idle and slow clients hold no thread (the reason it
stays, over a blocking pre-fork server). Several cores are used by forking workers that each
run waitress on the same socket, the kernel handing each new connection to one of them; every
worker builds its own app, store connections and replay cache after the fork. The parent only
supervises: a worker that dies (even by kill -9) is replaced, and SIGTERM or Ctrl-C stops all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

from waitress import serve

AppFactory = Callable[[], Any]


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before any worker starts (OSError if the port is taken)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    return sock


def run(make_app: AppFactory, sock: socket.socket, workers: int, **options: Any) -> None:
    """Serve on `sock` until stopped: in this process if `workers` is 1, else in forks."""
    if workers <= 1:
        serve(make_app(), sockets=[sock], **options)
        return
    children: dict[int, int] = {}  # pid -> worker number

    def start(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker: its own app, connections and cache
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops workers
            try:
                serve(make_app(), sockets=[sock], **options)
            finally:
                os._exit(0)
        children[pid] = number

    def stop(signum: int, frame: object) -> None:
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(workers):
        start(number)
    while True:
        pid, status = os.wait()
        if pid in children:
            number = children.pop(pid)
            print(f"court serve: worker {number} (pid {pid}) exited ({status}); restarting",
                  file=sys.stderr, flush=True)  # fmt: skip
            start(number)
