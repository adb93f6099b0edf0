"""`court serve`: waitress, in one process or in several sharing one listening socket.

Waitress reads requests asynchronously, so idle and slow clients hold no thread (the reason it
stays, over a blocking pre-fork server). Several cores are used by forking workers that each
run waitress on the same socket, the kernel handing each new connection to one of them; every
worker builds its own app, store connections and replay cache after the fork. The parent only
supervises: a worker that dies (even by kill -9) is replaced, and SIGTERM or Ctrl-C stops all.

Hardened against hostile clients (README, "What `court serve` is for"): the event loop polls
(`poll()`, not `select()`, which fails past descriptor 1023), the open-file limit is raised to
its hard limit at start so that `--connection-limit` sockets fit, and a body is refused with a
413 problem once it passes the API's largest body limit, held in memory up to it: waitress
never spools a request body to a temporary file. Errors waitress answers itself (413, 400,
431, 500, 501) are `application/problem+json`, like every error of the API.

Event streams (`GET /v1/games/{id}/events`) hold no thread: once waitress has parsed such a
request, its channel leaves waitress's event loop and the socket goes to the worker's
`StreamHub` (handlers/serve/stream_hub.py), which answers the head through the same Flask route
and then keeps the connection on a selector loop of its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.parser import HTTPRequestParser  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import (  # type: ignore[import-untyped]
    ErrorTask,
    ThreadedTaskDispatcher,
    WSGITask,
)
from waitress.utilities import RequestHeaderFieldsTooLarge  # type: ignore[import-untyped]

from handlers.http.app import MAX_RECORD_BYTES
from handlers.http.limits import client_key
from handlers.http.problems import KINDS
from handlers.serve.notices import WorkerNotices
from handlers.serve.stream_hub import (
    EVENTS_PATH,
    MAX_STREAMS,
    MAX_STREAMS_PER_ADDRESS,
    MAX_STREAMS_PER_GAME,
    StreamHub,
)

AppFactory = Callable[[], Any]

FD_RESERVE = 64
"""Open files kept free beyond the connection limit: store connections, the SQLite file and
its WAL, the log, waitress's trigger pipe, a worker's listening socket."""
MAX_BODY = MAX_RECORD_BYTES + 1
"""waitress refuses a body of `max_request_body_size` bytes or more: the API takes up to
MAX_RECORD_BYTES (a record to verify), so a body of MAX_RECORD_BYTES + 1 is the first refused."""
HARDENED = {
    "asyncore_use_poll": True,  # select() raises ValueError past descriptor 1023
    "max_request_body_size": MAX_BODY,
    # A body is buffered in memory up to this size, then in a temporary file. The parser checks
    # the limit after each read of at most recv_bytes (8 KiB), so a chunked body may pass it by
    # one read before the 413: the margin keeps even that in memory.
    "inbuf_overflow": MAX_BODY + 2 * 8192,
    # Keep reading a connection while its request is served, so that a client that hangs up
    # is noticed (`waitress.client_disconnected`): a long-poll then stops waiting for it.
    "channel_request_lookahead": 1,
    # How often idle and stalled connections are looked for (CourtServer.maintenance).
    "cleanup_interval": 1,
}
"""The waitress adjustments `court serve` always uses, whatever its flags."""
SOCKET_OPTIONS = [
    (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),  # waitress's own
    # A fixed kernel send buffer per connection (the kernel doubles it): left to autotune, it
    # grows to 4 MiB, and a client that never reads has that much of the machine's memory.
    (socket.SOL_SOCKET, socket.SO_SNDBUF, 128 << 10),
]
"""Options of every accepted connection (waitress takes them as an attribute, not a flag)."""
ACCEPT_BATCH = 256
"""Connections accepted at most per turn of the event loop."""


def raise_fd_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (workers inherit it);
    return the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or soft >= target:
        return soft if soft != resource.RLIM_INFINITY else target
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):  # e.g. above the kernel's nr_open: keep what we have
        return soft
    return target


def fitting_connection_limit(requested: int, fd_limit: int) -> int:
    """The connection limit that the open-file limit leaves room for (at least 1)."""
    return max(1, min(requested, fd_limit - FD_RESERVE))


class ProblemErrorTask(ErrorTask):  # type: ignore[misc]
    """An error waitress answers itself (a body too large, a malformed request), written as
    an RFC 9457 problem like every other error of the API, instead of waitress's text."""

    def execute(self) -> None:
        error = self.request.error
        code = int(error.code)
        slug = {400: "malformed-request", 413: "body-too-large", 500: "internal-error"}
        kind = KINDS[slug.get(code, "http-error")]
        detail = (
            f"bodies here are limited to {MAX_RECORD_BYTES} bytes"
            if code == 413
            else "the error has been logged"
            if code == 500
            else str(error.body)
        )
        problem = kind.body(detail) | {"status": code}
        if kind.slug == "http-error":  # 431, 501: waitress's reason names it best
            problem["title"] = error.reason
        body = json.dumps(problem).encode()
        self.status = f"{code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/problem+json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


MAX_PIPELINED = 8
"""Requests one connection may have in flight. waitress parses every request a read brings
(8 KiB: a hundred short GETs) and serves them all, one after another."""
MAX_UNSENT_PER_CONNECTION = 256 << 10
"""Answer bytes a connection may have unsent (its client not reading them) before its next
request waits to be served. It waits holding no thread: it is served once the answers before
it have gone below this (or dropped with the connection), so no thread ever waits on a client,
and a connection holds at most this and one answer (the largest, a record at the event
cap, about half a MiB)."""
MAX_UNSENT_PER_WORKER = 64 << 20
"""Answer bytes a worker may hold unsent across all its connections: past it, every request
not yet begun waits (holding no thread) until stalled readers are closed. A worker holds at
most this and one answer per request thread."""
STALLED_SECONDS = 30
"""A connection whose unsent answer has not moved for this long (or for `--idle-timeout`, if
shorter) is closed, its client not reading: its memory and its place are given back. Not
less: a phone in a tunnel, or a browser on a machine whose cores are all taken, can read
nothing for ten seconds and more; at 10 s a page's script was cut mid-answer (net::
ERR_CONTENT_LENGTH_MISMATCH) while the server chose the day's deals. The bytes it may hold
meanwhile are bounded anyway (MAX_UNSENT_PER_CONNECTION, MAX_UNSENT_PER_WORKER)."""
MAX_CONNECTIONS_PER_ADDRESS = 256
"""Open connections (event streams apart) one client address may have per worker by default
(`--connections-per-address`; an IPv6 address's /64 counts as one): a browser opens six."""


MAX_HEADER_LINES = 100
"""Header lines a request may have (a browser sends about 20). Past it: 431, unparsed."""
MAX_HEADER_REPEATS = 16
"""Lines one header name may have. waitress joins a repeated header's values into one string,
copying it whole at each line: 10,000 `Authorization` lines cost 124 ms of a core."""


class BoundedRequestParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's parser, refusing a request whose header has too many lines, or one name on
    too many of them, with 431 before parsing it (the bytes are bounded by waitress's
    `max_request_header_size`, 256 KiB)."""

    def parse_header(self, header_plus: bytes) -> None:
        if header_plus.count(b"\n") <= MAX_HEADER_REPEATS:  # no name can be past its bound:
            super().parse_header(header_plus)  # nothing to count (every browser's request)
            return
        # The request line first, the blank line ending the head last: neither is a header.
        lines = [line for line in header_plus.split(b"\n")[1:] if line.strip()]
        if len(lines) <= MAX_HEADER_LINES:
            names = Counter(line.split(b":", 1)[0].strip().lower() for line in lines)
            if max(names.values(), default=0) <= MAX_HEADER_REPEATS:
                super().parse_header(header_plus)
                return
        super().parse_header(b"GET / HTTP/1.0\r\n")  # as waitress does past its byte limit
        self.error = RequestHeaderFieldsTooLarge(
            f"at most {MAX_HEADER_LINES} header lines, and {MAX_HEADER_REPEATS} of one name"
        )
        self.completed = True


class ProblemChannel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection that answers its own errors as problems, bounds its pipelined
    requests and the header lines of each, counts the answer bytes it holds unsent toward the
    worker's bound, and counts toward its client address's connections."""

    error_task_class = ProblemErrorTask
    parser_class = BoundedRequestParser
    requests: list[Any]
    socket: socket.socket | None
    server: CourtServer
    _unsent = 0
    address = ""

    def __init__(self, server: CourtServer, sock: Any, addr: Any, *args: Any,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(server, sock, addr, *args, **kwargs)
        self.address = client_key(addr[0] if isinstance(addr, tuple) else None)
        if not server.admit(self.address):
            kind = KINDS["too-many-requests"]
            detail = f"at most {server.per_address} open connections from one address"
            body = json.dumps(kind.body(detail)).encode()
            head = (
                "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/problem+json\r\n"
                f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"
            ).encode()
            with self.outbuf_lock:
                self.outbufs[-1].append(head + body)
                self.total_outbufs_len += len(head) + len(body)
            self.close_when_flushed = True  # nothing is read from it

    @property
    def total_outbufs_len(self) -> int:
        """waitress's count of this connection's unsent bytes, kept in the worker's too."""
        return self._unsent

    @total_outbufs_len.setter
    def total_outbufs_len(self, value: int) -> None:
        self.server.count_unsent(value - self._unsent)
        self._unsent = value

    def handle_close(self) -> None:
        if self.address:
            self.server.leave(self.address)
            self.address = ""
        super().handle_close()

    def received(self, data: bytes) -> bool:
        """Take what a read brought, then keep at most MAX_PIPELINED requests: the last kept
        closes the connection once answered, and those past it are dropped unanswered (as
        a server may close a persistent connection: the client retries them)."""
        taken = bool(super().received(data))
        with self.requests_lock:
            if len(self.requests) > MAX_PIPELINED:
                del self.requests[MAX_PIPELINED:]
                self.requests[-1].headers["CONNECTION"] = "close"
                self.request = None  # nor a half-read one after them
        return taken

    def wants_stream(self) -> bool:
        """Whether the request to serve next asks for an event stream the hub should hold."""
        request = self.requests[0] if self.requests else None
        return bool(
            request is not None
            and request.error is None
            and request.command == "GET"
            and EVENTS_PATH.fullmatch(request.path)
        )

    def hand_to_hub(self) -> None:
        """In the event loop's thread (a trigger's thunk): leave waitress's map and give the
        socket, the request's environ and any answer still owed to earlier requests of this
        connection to the hub. Requests pipelined after the stream's are dropped: a stream
        is the connection's last answer."""
        hub = self.server.hub
        assert hub is not None  # add_task hands streams over only with a hub
        with self.requests_lock:
            request = self.requests[0] if self.requests else None
            del self.requests[:]
            self.request = None
        if self.socket is None:  # closed meanwhile (an idle timeout, the server stopping)
            return
        if request is None or not self.connected:  # the client hung up first
            self.handle_close()
            return
        environ = WSGITask(self, request).get_environment()
        environ.pop("waitress.client_disconnected", None)
        with self.outbuf_lock:
            owed = b"".join(bytes(buf.get(len(buf), True)) for buf in self.outbufs)
        sock, self.socket = self.socket, None  # handle_close must not close it
        self.handle_close()
        hub.open(sock, environ, owed)

    def send_continue(self) -> None:
        """No `100 Continue` for a request refused from its headers (a Content-Length past the
        limit): waitress would invite the body, then read it up to the limit before the 413."""
        if self.request is not None and self.request.error is not None:
            self.request.expect_continue = False
            return
        super().send_continue()


class CourtServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server on an already bound socket, answering its own errors as
    problems, taking every waiting connection at once, bounding the connections of one
    address and the answers held unsent, and counting its event streams as connections."""

    channel_class = ProblemChannel
    hub: StreamHub | None = None

    def __init__(self, *args: Any, per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
                 **kwargs: Any) -> None:  # fmt: skip
        self.per_address = per_address
        self.addresses: Counter[str] = Counter()
        self.unsent = 0
        self.unsent_lock = threading.Lock()
        self.waiting: set[ProblemChannel] = set()  # requests held back (unsent answers)
        super().__init__(*args, **kwargs)

    def admit(self, address: str) -> bool:
        """Count a new connection of `address` (the event loop's thread): False past its cap."""
        self.addresses[address] += 1
        return self.addresses[address] <= self.per_address

    def leave(self, address: str) -> None:
        self.addresses[address] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]

    def count_unsent(self, change: int) -> None:
        with self.unsent_lock:
            self.unsent += change

    def must_wait(self, channel: ProblemChannel) -> bool:
        """Whether a connection's next request waits for unsent answers to go out."""
        return bool(
            channel.total_outbufs_len > MAX_UNSENT_PER_CONNECTION
            or self.unsent > MAX_UNSENT_PER_WORKER
        )

    def add_task(self, channel: Any) -> None:
        """A request for an event stream goes to the hub, not to a request thread: the
        hand-over runs in the event loop's thread (this may be called from a request
        thread, for a request pipelined behind another). A request behind too many unsent
        bytes waits, holding no thread, until the event loop finds them gone (`readable`)."""
        if isinstance(channel, ProblemChannel) and self.must_wait(channel):
            with self.unsent_lock:
                self.waiting.add(channel)
            return
        if self.hub is not None and isinstance(channel, ProblemChannel) and channel.wants_stream():
            self.trigger.pull_trigger(channel.hand_to_hub)
            return
        super().add_task(channel)

    def readable(self) -> bool:
        """Called by the event loop at every turn: requests that waited on unsent answers go
        to a thread once those are sent (or the connection is gone)."""
        if self.waiting:
            with self.unsent_lock:
                waiting, self.waiting = self.waiting, set()
            for channel in waiting:
                if channel.connected and channel.requests:
                    self.add_task(channel)
        crowded = self.connections() >= self.adj.connection_limit  # streams too
        return bool(super().readable()) and not crowded

    def maintenance(self, now: float) -> None:
        """waitress closes connections idle for `channel_timeout`; also those whose unsent
        answer has not moved for STALLED_SECONDS, requests waiting or not."""
        super().maintenance(now)
        cutoff = now - min(STALLED_SECONDS, self.adj.channel_timeout)
        for channel in list(self.active_channels.values()):
            if channel.total_outbufs_len and channel.last_activity < cutoff:
                # Closed now: marking it to close, as waitress does an idle connection, would
                # wait for its socket to take a write, which a client that reads nothing stops.
                channel.handle_close()

    def connections(self) -> int:
        """Open connections, event streams included (they count toward the limit)."""
        return len(self._map) + (self.hub.places if self.hub is not None else 0)

    def handle_accept(self) -> None:
        """Accept what is waiting, up to ACCEPT_BATCH, not just one: each turn of the event
        loop polls every open connection, so a burst of new ones (thousands) would otherwise
        cost a turn each, while a newcomer waits behind them in the kernel's backlog."""
        for _ in range(ACCEPT_BATCH):
            if self.connections() >= self.adj.connection_limit:
                return
            before = len(self._map)
            super().handle_accept()
            if len(self._map) == before:  # nothing was waiting (or it failed)
                return


def serve(
    app: Any,
    sock: socket.socket,
    streams: int = MAX_STREAMS,
    streams_per_game: int = MAX_STREAMS_PER_GAME,
    streams_per_address: int = MAX_STREAMS_PER_ADDRESS,
    connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    notices: WorkerNotices | None = None,
    worker: int = 0,
    **options: Any,
) -> None:
    """Serve `app` on `sock` until stopped: waitress's `serve`, with the hardened server, and
    a stream hub holding up to `streams` event streams (`streams_per_game` spectators of one
    game, `streams_per_address` of one address) if the app offers its games' events
    (`create_app` does); `notices`: the workers' (`run`), this one being number `worker`."""
    adj = Adjustments(**(options | HARDENED))
    adj.socket_options = SOCKET_OPTIONS
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    server = CourtServer(
        app,
        map={},
        _sock=sock,
        dispatcher=dispatcher,
        adj=adj,
        bind_socket=False,
        sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
        per_address=connections_per_address,
    )
    events = getattr(app, "extensions", {}).get("royal_court.events")
    if events is not None and streams > 0:
        hub = server.hub = StreamHub(
            app, events, max_streams=streams, per_game=streams_per_game,
            per_address=streams_per_address)  # fmt: skip
        if notices is not None:  # moves made by the other workers wake this one's streams
            events.listen(notices.tell_others(worker))
            notices.listen(worker, hub.moved)
    server.run()


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before any worker starts (OSError if the port is taken)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    return sock


BACKGROUND_NICENESS = 10
"""How much lower the background process's CPU priority is than the workers': choosing a day's
deals costs seconds of CPU (11 s on this machine for two days of three solitaires), which
should go to idle cores, never ahead of an answer."""


def run(
    make_app: AppFactory,
    sock: socket.socket,
    workers: int,
    background: Callable[[], object] | None = None,
    **options: Any,
) -> None:
    """Serve on `sock` until stopped: in this process if `workers` is 1, else in forks.

    `background`, if given, starts what one process should do for all (the daily deals'
    step, expired games deleted): it runs in a process of its own (`start_background`),
    forked before any worker, never in a worker, whose requests would otherwise wait behind
    its threads for the GIL (a move's answer took several times as long while the deals were
    chosen)."""
    helper = None if background is None else start_background(background)
    if workers <= 1:
        if helper is not None:  # reaped when it ends (it is not forked again from threads)
            threading.Thread(target=_reap, args=(helper,), name="background", daemon=True).start()
        serve(make_app(), sock, **options)
        return
    children: dict[int, int] = {}  # pid -> worker number
    notices = WorkerNotices(workers)

    def start(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker: its own app, connections and cache
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops workers
            try:
                serve(make_app(), sock, notices=notices, worker=number, **options)
            except BaseException:  # said before the parent replaces the worker
                traceback.print_exc()
                os._exit(1)
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
        elif pid == helper and background is not None:
            print(f"court serve: the background process (pid {pid}) exited ({status}); "
                  "restarting", file=sys.stderr, flush=True)  # fmt: skip
            helper = start_background(background)


def _reap(pid: int) -> None:
    """Wait for the background process of a one-process server and say that it ended: the
    day's deals are then chosen by the first request of a day, and expired games are kept
    until the server restarts (a process with threads forks nothing new)."""
    _, status = os.waitpid(pid, 0)
    print(f"court serve: the background process (pid {pid}) exited ({status}); its steps "
          "stop until the server restarts", file=sys.stderr, flush=True)  # fmt: skip


def start_background(background: Callable[[], object]) -> int:
    """Fork the background process: at a lower CPU priority (BACKGROUND_NICENESS), it calls
    `background` (which starts its steps' daemon threads and returns) and then lives as long
    as the server: it waits on a pipe whose write end only the server's processes hold, which
    the kernel closes once they have all ended, however they end (SIGTERM, Ctrl-C, kill -9).
    Forked before any thread or worker, so it holds no copy of a lock or a connection."""
    alive_r, alive_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(alive_w)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C ends the parent, then this
        with contextlib.suppress(OSError):
            os.nice(BACKGROUND_NICENESS)
        code = 0
        try:
            background()
            while os.read(alive_r, 1):  # nothing is ever written: EOF when the parent is gone
                pass
        except BaseException:
            traceback.print_exc()
            code = 1
        os._exit(code)
    os.close(alive_r)  # the write end stays open here, and in the workers forked from here:
    return pid  # the background lives as long as any process of the server
