"""`court serve`'s event streams (`GET /v1/games/{id}/events`, docs/api.md "Streams"): each
worker's `StreamHub`, which holds the connections the Flask route alone would close after one
event (handlers/http/events.py: what is sent, and the bounded stream every other server gives).

Waitress gives every request a thread, so a stream must not stay a WSGI request. The waitress
channel (`handlers/serve/server.py`) hands the socket of a parsed `GET .../events` request over
to the hub, which runs the same Flask route once for the head and the first event (errors are
then the usual problem documents), and keeps the socket itself: one thread with a `selectors`
loop writing without blocking, into a bounded buffer per connection (a reader that falls behind
by more than `MAX_BUFFERED` bytes is closed, never buffered without bound), and a small pool
computing each stream's event through the read use case.

The moves themselves wake their game's streams: a move made in this process at once
(`GameEvents.moved`), one made by another worker by its notice (handlers/serve/notices.py).
Nothing is polled per stream: a safety poll once a second asks the store whether anything was
written by another connection at all (SQLite's `data_version`, one cheap statement) and reads
the watched games' versions only then (a writer outside this server, a notice dropped, a game
deleted by its expiry); a store that cannot say reads them every `UNGATED_POLL_SECONDS`. So
idle streams cost their heartbeats alone, whatever their number.

Streams are shared fairly (docs/api.md, "Limits"): each client address holds at most
`MAX_STREAMS_PER_ADDRESS` of a worker's streams; spectators of a game share
`MAX_STREAMS_PER_GAME` of them and at most three quarters of the worker's, while each seat of
the game keeps `SEAT_STREAMS` of its own, so no crowd of spectators locks its players out; and
a stream lives at most `MAX_LIFETIME_SECONDS` (less up to a tenth, so that they do not all end
together), after which the client opens it again with `Last-Event-ID` and has missed nothing.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import math
import random
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
from handlers.http.events import HEARTBEAT, HUB_KEY, TICKET_KEY, GameEvents, Place, Ticket
from handlers.http.limits import client_key
from handlers.http.problems import KINDS, Problem

log = logging.getLogger("royal_court.streams")

EVENTS_PATH = re.compile(r"/v1/games/[^/]+/events")
"""The path a waitress channel hands over to the hub (with GET)."""
HEARTBEAT_SECONDS = 15.0
"""A comment line (`: keep-alive`) after this long without a write: proxies close silent
connections (nginx after 60 s by default), and it tells a client the stream is alive."""
POLL_SECONDS = 1.0
"""How often the safety poll asks the store whether another connection wrote anything (and,
only if so, reads the version of each watched game): the longest a move made outside this
server's workers, or one whose notice was dropped, waits to reach its streams."""
UNGATED_POLL_SECONDS = 5.0
"""How often the safety poll reads the watched games' versions on a store that cannot say
whether anything was written (DynamoDB: one small read per watched game)."""
MAX_BUFFERED = 64 * 1024
"""Bytes a stream may have waiting for its reader (some thirty events); past this it is closed
(the client reconnects with Last-Event-ID and gets the current state in one event)."""
MAX_BUFFERED_TOTAL = 64 * 1024 * 1024
"""Bytes all of a worker's streams may have waiting in all: a stream whose event would pass it
is closed the same way, so unread streams cannot hold more than this of a worker's memory."""
STALLED_SECONDS = 60.0
"""A stream whose waiting bytes have not moved for this long is closed (heartbeats every 15 s
keep a live reader's moving): its client reads nothing."""
MAX_STREAMS = 2000
"""Open streams per `court serve` worker by default (`--streams`): each is a socket and a few
KB; past it a stream is refused with 503 too-many-streams and Retry-After."""
MAX_STREAMS_PER_GAME = 16
"""Spectators' open streams of one game per worker by default (`--streams-per-game`); every
move costs one read per distinct token of the game's streams."""
SEAT_STREAMS = 4
"""Open streams each seat of a game has per worker, beside its spectators' (a player's tabs
and devices): spectators cannot take them."""
SPECTATOR_SHARE = 0.75
"""The part of a worker's streams spectators may hold in all: the rest is kept for seats."""
MAX_STREAMS_PER_ADDRESS = 32
"""Open streams of one client address per worker by default (`--streams-per-address`; an
IPv6 address's /64 counts as one address)."""
MAX_LIFETIME_SECONDS = 1800.0
"""The longest a stream stays open (less a random tenth at most): its client then opens it
again with Last-Event-ID, and the places of clients long gone are taken back."""
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
    place: Place | None = None  # its reserved place, given back when it closes
    ends: float = math.inf  # when its lifetime is over (time.monotonic)
    out: bytearray = field(default_factory=bytearray)
    last_write: float = 0.0
    moved_at: float = 0.0  # when its waiting bytes last went out (or began to wait)
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
        per_address: int = MAX_STREAMS_PER_ADDRESS,
        threads: int = 2,
        poll_seconds: float = POLL_SECONDS,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        max_buffered: int = MAX_BUFFERED,
        lifetime_seconds: float = MAX_LIFETIME_SECONDS,
        stalled_seconds: float = STALLED_SECONDS,
    ) -> None:
        self.app, self.events = app, events
        self.max_streams, self.per_game, self.per_address = max_streams, per_game, per_address
        self.poll_seconds, self.heartbeat_seconds = poll_seconds, heartbeat_seconds
        self.max_buffered, self.lifetime_seconds = max_buffered, lifetime_seconds
        self.stalled_seconds = stalled_seconds
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="stream-events")
        self.lock = threading.Lock()  # watches, counts
        self.watches: dict[str, Watch] = {}
        # Reserved places: per game and seat (None: its spectators), per address, in all.
        self.reserved: collections.Counter[tuple[str, int | None]] = collections.Counter()
        self.by_address: collections.Counter[str] = collections.Counter()
        self.spectating = 0
        # In all: the sum of by_address, kept as a plain count so that the server's accept
        # loop (another thread) reads it without taking the lock.
        self.places = 0
        self.pending = 0  # sockets handed over whose head is not yet written
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._commands: collections.deque[Callable[[], None]] = collections.deque()
        self._woken = False
        self._streams: set[Stream] = set()
        self._buffered = 0  # bytes waiting in all streams (the loop's thread alone)
        self._recheck = False  # the next safety poll reads the versions whatever the store says
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

    def reserve(self, game_id: str, seat: int | None, address: str | None) -> Place:
        """Take a place for a stream of `game_id` about to open, as `seat` (None: a spectator)
        from `address`, or refuse it (503, Retry-After): called by the route, so that the
        refusal is a problem document like any other."""
        place = Place(game_id, seat, client_key(address))
        with self.lock:
            total = self.places
            spectator = seat is None
            if self.by_address[place.address] >= self.per_address:
                whose = "this client address"
            elif total >= self.max_streams:
                whose = "this server"
            elif spectator and self.spectating >= self.max_streams * SPECTATOR_SHARE:
                whose = "this server's spectators"
            elif self.reserved[game_id, seat] >= (self.per_game if spectator else SEAT_STREAMS):
                whose = "this game's spectators" if spectator else "this seat"
            else:
                whose = ""
            if whose:
                raise Problem(
                    "too-many-streams",
                    f"{whose} has as many open streams as it takes; retry later",
                    {"Retry-After": str(RETRY_AFTER)},
                )
            self.reserved[game_id, seat] += 1
            self.by_address[place.address] += 1
            self.spectating += spectator
            self.places += 1
        return place

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
            stream.place = ticket.place
            stream.ends = time.monotonic() + self.lifetime_seconds * (1 - random.random() / 10)
        elif ticket is not None:  # reserved, but not opened after all
            self._release(ticket.place)
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
                    self._recheck = True
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
        """The safety poll (see the module's docstring): every poll_seconds, whether another
        connection wrote to the store, and only then the version of each watched game."""
        seen: int | None = None
        ungated_at = 0.0
        while not self._stopped.wait(self.poll_seconds):
            with self.lock:
                watches = list(self.watches.values())
            if not watches:
                continue
            try:
                mark = self.events.change_mark()
                if mark is None:  # the store cannot say: every UNGATED_POLL_SECONDS
                    if time.monotonic() - ungated_at < UNGATED_POLL_SECONDS:
                        continue
                    ungated_at = time.monotonic()
                elif mark == seen and not self._recheck:
                    continue
                self._recheck = False
                # Read after the mark: a write between the two is seen now or at the next poll.
                versions = self.events.versions([w.game_id for w in watches])
                seen = mark
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

    def _release(self, place: Place) -> None:
        with self.lock:
            key = (place.game_id, place.seat)
            self.reserved[key] -= 1
            if self.reserved[key] <= 0:
                del self.reserved[key]
            self.by_address[place.address] -= 1
            if self.by_address[place.address] <= 0:
                del self.by_address[place.address]
            self.spectating -= place.seat is None
            self.places -= 1

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
                    if stream.finishing:
                        continue
                    if now >= stream.ends:  # its lifetime is over (a half-sent event is
                        self._close(stream)  # dropped whole by the client's parser)
                    elif stream.out and now - stream.moved_at >= self.stalled_seconds:
                        self._close(stream)  # its client reads nothing
                    elif now - stream.last_write >= self.heartbeat_seconds:
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
        if stream.out and (
            len(stream.out) + len(data) > self.max_buffered
            or self._buffered + len(data) > MAX_BUFFERED_TOTAL
        ):
            # The reader fell behind: closed, it reconnects with Last-Event-ID and gets the
            # current state in one event (so one event past the bound is all it may hold).
            self._close(stream)
            return
        if not stream.out:
            stream.moved_at = time.monotonic()
        stream.out += data
        self._buffered += len(data)
        stream.last_write = time.monotonic()
        self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        try:
            while stream.out:
                sent = stream.sock.send(stream.out)
                del stream.out[:sent]
                self._buffered -= sent
                stream.moved_at = time.monotonic()
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
        self._buffered -= len(stream.out)
        stream.out.clear()
        if stream.place is None:
            return
        with self.lock:
            watch = self.watches.get(stream.game_id)
            if watch is not None:
                watch.streams.discard(stream)
                if not watch.streams:
                    del self.watches[stream.game_id]
        self._release(stream.place)


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
