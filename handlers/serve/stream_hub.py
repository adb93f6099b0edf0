"""`court serve`'s event streams (`GET /v1/games/{id}/events`, docs/api.md "Streams"): each
worker's `StreamHub`, which holds the connections the Flask route alone would close after one
event (handlers/http/events.py: what is sent, and the bounded stream every other server gives).

Waitress gives every request a thread, so a stream must not stay a WSGI request. The waitress
channel (`handlers/serve/server.py`) hands the socket of a parsed `GET .../events` request over
to the hub, which runs the same Flask route once for the head and the first event (errors are
then the usual problem documents), and keeps the socket itself: one thread with a `selectors`
loop writing without blocking, into a bounded buffer per connection (a reader that falls behind
by more than `MAX_BUFFERED` bytes is closed, never buffered without bound), one thread polling
the versions of the games with open streams only (`GameEvents.versions`; it also sees moves made
by other worker processes), a small pool computing each stream's event through the read use
case. A move made in this process wakes its game's streams at once (`GameEvents.moved`),
without waiting for the next poll.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from domain.errors import GameNotFound
from handlers.http import presenter as present
from handlers.http.events import HEARTBEAT, HUB_KEY, TICKET_KEY, GameEvents, Ticket
from handlers.http.problems import KINDS, Problem

log = logging.getLogger("royal_court.streams")

EVENTS_PATH = re.compile(r"/v1/games/[^/]+/events")
"""The path a waitress channel hands over to the hub (with GET)."""
HEARTBEAT_SECONDS = 15.0
"""A comment line (`: keep-alive`) after this long without a write: proxies close silent
connections (nginx after 60 s by default), and it tells a client the stream is alive."""
POLL_SECONDS = 0.05
"""How often the hub reads the version of each game with an open stream (on SQLite one
statement for all of them, whatever their number of streams): the delay of a move made by
another worker process."""
MAX_BUFFERED = 256 * 1024
"""Bytes a stream may have waiting for its reader; past this it is closed (the client
reconnects with Last-Event-ID and gets the current state in one event)."""
MAX_STREAMS = 2000
"""Open streams per `court serve` worker by default (`--streams`): each is a socket and a few
KB; past it a stream is refused with 503 too-many-streams and Retry-After."""
MAX_STREAMS_PER_GAME = 16
"""Open streams of one game per worker by default (`--streams-per-game`): two seats and a few
spectators' tabs; every move costs one read per distinct token of the game's streams."""
RETRY_AFTER = 5
"""Retry-After of a stream refused for want of room."""
MAX_INPUT = 64 * 1024
"""Bytes a stream's client may send after its request before it is closed (it should send
none: nothing more is read as a request)."""


@dataclass(eq=False)
class Stream:
    """One open stream. `version` is the newest version queued to it; the rest is the
    selector thread's alone."""

    sock: socket.socket
    game_id: str = ""
    token: str | None = None
    version: int = -1
    out: bytearray = field(default_factory=bytearray)
    last_write: float = 0.0
    received: int = 0
    closed: bool = False
    finishing: bool = False  # close once `out` is written (an error response)
    registered: int = 0  # the selector events it is registered for


@dataclass(eq=False)
class Watch:
    """A game with open streams: its last known version and whether its events are being
    computed (`busy`; `again` if the game moved meanwhile)."""

    game_id: str
    streams: set[Stream] = field(default_factory=set)
    known: int = -1
    busy: bool = False
    again: bool = False


class StreamHub:
    """The streams of one `court serve` worker (see the module's docstring)."""

    def __init__(
        self,
        app: Callable[..., Iterable[bytes]],
        events: GameEvents,
        *,
        max_streams: int = MAX_STREAMS,
        per_game: int = MAX_STREAMS_PER_GAME,
        threads: int = 2,
        poll_seconds: float = POLL_SECONDS,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        max_buffered: int = MAX_BUFFERED,
    ) -> None:
        self.app, self.events = app, events
        self.max_streams, self.per_game = max_streams, per_game
        self.poll_seconds, self.heartbeat_seconds = poll_seconds, heartbeat_seconds
        self.max_buffered = max_buffered
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="stream-events")
        self.lock = threading.Lock()  # watches, counts
        self.watches: dict[str, Watch] = {}
        self.reserved: collections.Counter[str] = collections.Counter()
        self.pending = 0  # sockets handed over whose head is not yet written
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._commands: collections.deque[Callable[[], None]] = collections.deque()
        self._woken = False
        self._streams: set[Stream] = set()
        self._stopped = threading.Event()
        events.listen(self.moved)
        for target, name in ((self._loop, "stream-loop"), (self._poll, "stream-poll")):
            threading.Thread(target=target, name=name, daemon=True).start()

    # -- any thread --------------------------------------------------------------------------

    def open(self, sock: socket.socket, environ: dict[str, Any], prefix: bytes = b"") -> None:
        """Take over `sock`, whose request `environ` asks for a stream; `prefix` is output
        owed to earlier requests of the connection, written first."""
        with self.lock:
            crowded = self.pending > self.max_streams
            if not crowded:
                self.pending += 1
        if crowded:  # a flood of opens: refused without running the app
            kind = KINDS["too-many-streams"]
            body = present.json_bytes(kind.body("the server is opening too many streams"))
            head = (
                f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
                f"Content-Length: {len(body)}\r\nRetry-After: {RETRY_AFTER}\r\n"
                "Connection: close\r\n\r\n"
            ).encode()
            self._command(partial(self._start, Stream(sock), prefix + head + body, None))
            return
        environ[HUB_KEY] = self
        self.pool.submit(self._head, sock, environ, prefix)

    def reserve(self, game_id: str) -> None:
        """Count a stream of `game_id` about to open, or refuse it (503, Retry-After): called
        by the route, so that the refusal is a problem document like any other."""
        with self.lock:
            total = sum(self.reserved.values())
            if total >= self.max_streams or self.reserved[game_id] >= self.per_game:
                whose = "this server" if total >= self.max_streams else "this game"
                raise Problem(
                    "too-many-streams",
                    f"{whose} has as many open streams as it takes; retry later",
                    {"Retry-After": str(RETRY_AFTER)},
                )
            self.reserved[game_id] += 1

    def moved(self, game_id: str) -> None:
        """A move was made here: compute the game's events now, not at the next poll."""
        with self.lock:
            watch = self.watches.get(game_id)
        if watch is not None:
            self._schedule(watch)

    def close(self) -> None:
        """Stop the hub's threads and close every stream (a worker just exits instead)."""
        self._stopped.set()
        self._command(lambda: None)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def counts(self) -> tuple[int, int]:
        """Open streams and games watched (for tests and the bench)."""
        with self.lock:
            return sum(len(w.streams) for w in self.watches.values()), len(self.watches)

    # -- the pool ----------------------------------------------------------------------------

    def _head(self, sock: socket.socket, environ: dict[str, Any], prefix: bytes) -> None:
        """Run the route for the head and the first event (or the error), then hand the
        socket to the loop: kept as a stream if the route opened one, else closed once
        written."""
        try:
            status, headers, body = _call(self.app, environ)
        except Exception:  # the route answers its own errors: this is a bug
            log.exception("a stream's head failed")
            status, headers, body = "500 Internal Server Error", [], b""
        ticket: Ticket | None = environ.get(TICKET_KEY)
        opened = ticket is not None and status.startswith("200")
        lines = [f"HTTP/1.1 {status}"]
        for name, value in headers:
            if name.lower() not in ("content-length", "connection"):
                lines.append(f"{name}: {value}")
        if not opened:
            lines.append(f"Content-Length: {len(body)}")
        lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        stream = Stream(sock)
        if ticket is not None and opened:
            stream.game_id, stream.token, stream.version = (
                ticket.game_id, ticket.token, ticket.version)  # fmt: skip
        elif ticket is not None:  # reserved, but not opened after all
            self._release(ticket.game_id)
        with self.lock:
            self.pending -= 1
        self._command(
            partial(self._start, stream, prefix + head + body, ticket if opened else None)
        )

    def _compute(self, watch: Watch) -> None:
        """Send the game's current event to each of its streams that has not had it: one
        read per distinct token (two seats, spectators), until the game stops moving."""
        while True:
            with self.lock:
                watch.again = False
                streams = list(watch.streams)
            by_token: dict[str | None, list[Stream]] = {}
            for stream in streams:
                by_token.setdefault(stream.token, []).append(stream)
            for token, group in by_token.items():
                try:
                    version, data = self.events.event(watch.game_id, token)
                except GameNotFound:  # deleted (expired) under the streams
                    for stream in group:
                        self._command(partial(self._close, stream))
                    continue
                except Exception:  # the store failing: the next poll tries again
                    log.exception("a stream's event failed")
                    with self.lock:
                        watch.known = -1
                    continue
                with self.lock:
                    watch.known = max(watch.known, version)
                for stream in group:
                    if version > stream.version:
                        self._command(partial(self._deliver, stream, version, data))
            with self.lock:
                if not watch.again:
                    watch.busy = False
                    return

    # -- the poller --------------------------------------------------------------------------

    def _poll(self) -> None:
        """Every poll_seconds, the version of each watched game (one small read each)."""
        while not self._stopped.wait(self.poll_seconds):
            with self.lock:
                watches = list(self.watches.values())
            if not watches:
                continue
            try:
                versions = self.events.versions([w.game_id for w in watches])
            except Exception:
                log.exception("the watched games' versions could not be read")
                continue
            for watch in watches:
                # A game not found (deleted, expired): computing its event closes its streams.
                if versions.get(watch.game_id, -2) != watch.known:
                    self._schedule(watch)

    def _schedule(self, watch: Watch) -> None:
        with self.lock:
            if watch.busy:
                watch.again = True
                return
            watch.busy = True
        self.pool.submit(self._compute, watch)

    def _release(self, game_id: str) -> None:
        with self.lock:
            self.reserved[game_id] -= 1
            if self.reserved[game_id] <= 0:
                del self.reserved[game_id]

    # -- the selector loop -------------------------------------------------------------------

    def _command(self, command: Callable[[], None]) -> None:
        """Run `command` in the loop's thread, which alone touches the streams' sockets."""
        self._commands.append(command)
        if not self._woken:
            self._woken = True
            with contextlib.suppress(BlockingIOError, OSError):
                self._wake_w.send(b"\0")

    def _loop(self) -> None:
        next_beat = time.monotonic() + 1
        while not self._stopped.is_set():
            for key, mask in self.selector.select(timeout=1.0):
                if key.data is None:
                    with contextlib.suppress(BlockingIOError, OSError):
                        self._wake_r.recv(4096)
                    continue
                stream: Stream = key.data
                if mask & selectors.EVENT_READ:
                    self._read(stream)
                if mask & selectors.EVENT_WRITE and not stream.closed:
                    self._flush(stream)
            self._woken = False
            while self._commands:
                self._commands.popleft()()
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + 1
                for stream in list(self._streams):
                    if not stream.finishing and now - stream.last_write >= self.heartbeat_seconds:
                        self._write(stream, HEARTBEAT)
        for stream in list(self._streams):
            self._close(stream)
        self.selector.close()
        self._wake_r.close()
        self._wake_w.close()

    def _start(self, stream: Stream, data: bytes, ticket: Ticket | None) -> None:
        """Begin writing a head: a stream to keep (`ticket`), or an answer to close after."""
        stream.finishing = ticket is None
        self._streams.add(stream)
        self._set_events(stream, selectors.EVENT_READ)
        if ticket is not None:
            with self.lock:
                watch = self.watches.get(ticket.game_id)
                if watch is None:
                    watch = Watch(ticket.game_id, known=ticket.version)
                    self.watches[ticket.game_id] = watch
                watch.streams.add(stream)
                behind = ticket.version < watch.known
            if behind:  # the game moved between the head and now
                self._schedule(watch)
        self._write(stream, data)

    def _deliver(self, stream: Stream, version: int, data: bytes) -> None:
        if stream.closed or version <= stream.version:
            return
        stream.version = version
        self._write(stream, data)

    def _write(self, stream: Stream, data: bytes) -> None:
        if stream.closed:
            return
        if stream.out and len(stream.out) + len(data) > self.max_buffered:
            # The reader fell behind: closed, it reconnects with Last-Event-ID and gets the
            # current state in one event (so one event past the bound is all it may hold).
            self._close(stream)
            return
        stream.out += data
        stream.last_write = time.monotonic()
        self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        try:
            while stream.out:
                sent = stream.sock.send(stream.out)
                del stream.out[:sent]
        except BlockingIOError:
            pass
        except OSError:
            self._close(stream)
            return
        if not stream.out and stream.finishing:
            self._close(stream)
            return
        wanted = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.out else 0)
        self._set_events(stream, wanted)

    def _read(self, stream: Stream) -> None:
        """A stream's client sends nothing more: an empty read is it hanging up."""
        try:
            data = stream.sock.recv(8192)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        stream.received += len(data)
        if not data or stream.received > MAX_INPUT:
            self._close(stream)

    def _set_events(self, stream: Stream, events: int) -> None:
        if stream.registered == events:
            return
        if stream.registered:
            self.selector.modify(stream.sock, events, stream)
        else:
            self.selector.register(stream.sock, events, stream)
        stream.registered = events

    def _close(self, stream: Stream) -> None:
        if stream.closed:
            return
        stream.closed = True
        self._streams.discard(stream)
        if stream.registered:
            self.selector.unregister(stream.sock)
        with contextlib.suppress(OSError):
            stream.sock.close()
        stream.out.clear()
        if not stream.game_id:
            return
        with self.lock:
            watch = self.watches.get(stream.game_id)
            if watch is not None:
                watch.streams.discard(stream)
                if not watch.streams:
                    del self.watches[stream.game_id]
        self._release(stream.game_id)


def _call(app: Callable[..., Iterable[bytes]], environ: dict[str, Any]) -> tuple[str, Any, bytes]:
    """Run a WSGI app on `environ`: its status, headers and whole body."""
    answer: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        answer[:] = [status, headers]
        return lambda data: None

    result = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return answer[0], answer[1], body
