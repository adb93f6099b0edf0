"""`StreamHub` in process, over real loopback sockets: heartbeats on a silent stream, a reader
that falls behind is closed (bounded memory), a hung-up client frees its place, a move made by
another process (straight into the store) reaches the stream by the hub's safety poll, or by its
worker's notice; places are shared fairly (seats keep their own, one address has a cap), a
stream ends after its lifetime and resumes with Last-Event-ID, and idle streams read nothing."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from werkzeug.test import EnvironBuilder

from domain.service import GameService
from handlers.http.app import create_app
from handlers.serve.notices import WorkerNotices
from handlers.serve.stream_hub import SEAT_STREAMS, StreamHub
from tests.api_helpers import counting_secrets, fixed_clock
from tests.integration.test_api import auth
from tests.sse import SseStream, StreamClosed

DUEL = "royal-assassin-duel"


@pytest.fixture
def setup(tmp_path) -> Iterator[tuple]:
    from infra.sqlite_store import SqliteStore

    path = str(tmp_path / "court.db")
    app = create_app(GameService(SqliteStore(path), fixed_clock, counting_secrets(), b"x"))
    events = app.extensions["royal_court.events"]
    hub = StreamHub(app, events, heartbeat_seconds=0.3, max_buffered=2048, poll_seconds=0.05)
    listener = socket.create_server(("127.0.0.1", 0))
    yield app, hub, listener, path
    hub.close()
    listener.close()


def connect(hub, listener, gid, token=None, rcvbuf=None, address="127.0.0.1", seen=None):
    """A client socket whose server side the hub takes, as court serve's channel gives it
    (`address`: the client's, as the route reads it; `seen`: its Last-Event-ID)."""
    port = listener.getsockname()[1]
    stream = SseStream.__new__(SseStream)
    stream.sock = socket.socket()
    if rcvbuf:
        stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    stream.sock.connect(("127.0.0.1", port))
    stream.buffer, stream.status, stream.headers, stream.body = b"", 0, {}, b""
    server_side, _ = listener.accept()
    server_side.setblocking(False)
    if rcvbuf:
        server_side.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, rcvbuf)
    headers = auth(token) if token else {}
    if seen is not None:
        headers["Last-Event-ID"] = str(seen)
    environ = EnvironBuilder(path=f"/v1/games/{gid}/events", headers=headers,
                             environ_base={"REMOTE_ADDR": address}).get_environ()  # fmt: skip
    hub.open(server_side, environ)
    return stream


def duel(app):
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": DUEL}).json
    [invite] = created["invites"]
    joined = client.post(invite["join"], json={"invite": invite["invite"]}).json
    return client, created["game"]["id"], [created["token"], joined["token"]]


def play_one(client, gid, tokens):
    """The seat to move plays its first legal move that is not a resignation."""
    view = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json
    seat = view["view"]["to_move"][0]
    mine = client.get(f"/v1/games/{gid}", headers=auth(tokens[seat])).json
    move = next(m for m in mine["view"]["legal_moves"] if m["type"] != "resign")
    body = {"version": mine["game"]["version"], "move": move}
    r = client.post(f"/v1/games/{gid}/moves", json=body, headers=auth(tokens[seat]))
    assert r.status_code == 201, r.json
    return r.json["game"]["version"]


def wait_for(predicate, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def test_a_silent_stream_gets_heartbeats(setup):
    app, hub, listener, _ = setup
    _, gid, tokens = duel(app)
    stream = connect(hub, listener, gid, tokens[0])
    assert stream.next()[0] == 0
    assert stream.comment(timeout=3) == ": keep-alive"
    assert hub.counts() == (1, 1)


def test_a_reader_that_falls_behind_is_closed(setup):
    app, hub, listener, _ = setup
    client, gid, tokens = duel(app)
    slow = connect(hub, listener, gid, tokens[1], rcvbuf=4096)  # never reads
    wait_for(lambda: hub.counts() == (1, 1))
    for _ in range(400):
        if hub.counts() == (0, 0):
            break
        play_one(client, gid, tokens)
        time.sleep(0.005)
    wait_for(lambda: hub.counts() == (0, 0))  # closed, and its place given back
    with pytest.raises((StreamClosed, ConnectionResetError)):
        while True:
            slow.next(timeout=2)
    assert not hub.reserved


def test_a_client_that_hangs_up_frees_its_place(setup):
    app, hub, listener, _ = setup
    _, gid, tokens = duel(app)
    stream = connect(hub, listener, gid, tokens[0])
    assert stream.next()[0] == 0
    stream.close()
    wait_for(lambda: hub.counts() == (0, 0))


def test_a_move_made_elsewhere_arrives_by_the_poll(setup):
    """Another worker process moving on the same SQLite file: this hub's app never sees the
    move, so only its poll of the game's version can bring it."""
    from infra.sqlite_store import SqliteStore

    app, hub, listener, path = setup
    _, gid, tokens = duel(app)
    streams = [connect(hub, listener, gid, token) for token in tokens]
    for stream in streams:
        assert stream.next()[0] == 0
    elsewhere = create_app(GameService(SqliteStore(path), fixed_clock, counting_secrets(), b"x"))
    version = play_one(elsewhere.test_client(), gid, tokens)
    for stream, token in zip(streams, tokens, strict=True):
        seen, data = stream.next(timeout=2)
        assert seen == version
        assert data == app.test_client().get(f"/v1/games/{gid}", headers=auth(token)).json


def test_the_versions_the_hub_polls_come_in_one_statement_or_one_read_each(setup):
    """SQLite answers every watched game's version in one statement; a store without that
    (the in-memory fake, DynamoDB) one small read each: the same answer, a missing game out."""
    from tests.fakes import InMemoryStore

    app, _, _, _ = setup
    client, gid, tokens = duel(app)
    _, other, _ = duel(app)
    version = play_one(client, gid, tokens)
    events = app.extensions["royal_court.events"]
    asked = [gid, other, "no-such-game"]
    assert events.versions(asked) == {gid: version, other: 0}
    assert not hasattr(InMemoryStore, "versions")
    fake = create_app(GameService(InMemoryStore(), fixed_clock, counting_secrets(), b"x"))
    client, gid, tokens = duel(fake)
    version = play_one(client, gid, tokens)
    fake_events = fake.extensions["royal_court.events"]
    assert fake_events.versions([gid, "no-such-game"]) == {gid: version}


@pytest.fixture
def hub_of(setup):
    """Another hub on the setup's app, with other settings (closed after the test)."""
    made = []

    def make(app=None, **settings):
        hub = StreamHub(app or setup[0], (app or setup[0]).extensions["royal_court.events"],
                        heartbeat_seconds=0.3, **settings)  # fmt: skip
        made.append(hub)
        return hub

    yield make
    for hub in made:
        hub.close()


def refused(stream) -> str:
    assert stream.head() == 503 and stream.headers["retry-after"] == "5"
    problem = json.loads(stream.body)
    assert problem["type"] == "urn:royal-court:problem:too-many-streams", problem
    return problem["detail"]


def test_spectators_cannot_take_the_places_of_the_seats(setup, hub_of):
    """The attack: 32 spectator streams on one game locked both seats out of their own
    game's stream. Spectators now share their own places; each seat keeps SEAT_STREAMS."""
    app, _, listener, _ = setup
    hub = hub_of(per_game=3)
    _, gid, tokens = duel(app)
    watchers = [connect(hub, listener, gid, address=f"10.0.0.{i}") for i in range(3)]
    for stream in watchers:
        assert stream.next()[0] == 0
    assert "this game's spectators" in refused(connect(hub, listener, gid, address="10.0.1.1"))
    seats = [connect(hub, listener, gid, token) for token in tokens for _ in range(SEAT_STREAMS)]
    for stream in seats:
        assert stream.next()[0] == 0
    assert "this seat" in refused(connect(hub, listener, gid, tokens[0]))


def test_one_address_holds_at_most_its_share_of_the_streams(setup, hub_of):
    """The attack: one address opened 4,000 streams over 320 games, and a new game's own
    seat got 503. An address now holds per_address streams of a worker, whatever the games;
    an IPv6 address's /64 is one address."""
    app, _, listener, _ = setup
    hub = hub_of(per_address=3)
    games = [duel(app)[1] for _ in range(4)]
    held = [connect(hub, listener, gid, address="2001:db8::1") for gid in games[:2]]
    held.append(connect(hub, listener, games[2], address="2001:db8::ffff"))  # the same /64
    for stream in held:
        assert stream.next()[0] == 0
    assert "client address" in refused(connect(hub, listener, games[3], address="2001:db8::2"))
    _, gid, tokens = duel(app)
    mine = connect(hub, listener, gid, tokens[0], address="192.0.2.7")
    assert mine.next()[0] == 0
    held.pop().close()  # a place given back is the address's again
    wait_for(lambda: hub.counts()[0] == 3)
    again = connect(hub, listener, games[3], address="2001:db8::2")
    assert again.next()[0] == 0


def test_a_stream_ends_after_its_lifetime_and_resumes_with_last_event_id(setup, hub_of):
    app, _, listener, _ = setup
    hub = hub_of(lifetime_seconds=0.5)
    client, gid, tokens = duel(app)
    stream = connect(hub, listener, gid, tokens[0])
    assert stream.next()[0] == 0
    started = time.monotonic()
    with pytest.raises(StreamClosed):
        while True:
            stream.next(timeout=5)
    assert time.monotonic() - started < 3
    wait_for(lambda: hub.counts() == (0, 0) and not hub.places)
    version = play_one(client, gid, tokens)
    resumed = connect(hub, listener, gid, tokens[0], seen=0)  # missed a move meanwhile
    assert resumed.next()[0] == version
    current = connect(hub, listener, gid, tokens[0], seen=version)  # missed nothing
    assert current.head() == 200
    with pytest.raises(StreamClosed):  # ended by its lifetime again, no event sent meanwhile
        while True:
            current._fill(time.monotonic() + 5)
    assert b"id:" not in current.buffer


def test_idle_streams_read_no_version_while_nothing_is_written(setup, hub_of):
    """The hub polled every watched game's version 20 times a second: 2,000 idle streams
    cost a tenth of a core. Its safety poll now asks SQLite whether anything was written
    (data_version) and reads the versions only then."""
    app, _, listener, path = setup
    events = app.extensions["royal_court.events"]
    reads = []
    versions = events.versions
    events.versions = lambda ids: reads.append(len(ids)) or versions(ids)
    hub = hub_of(poll_seconds=0.05)
    _, gid, tokens = duel(app)
    stream = connect(hub, listener, gid, tokens[0])
    assert stream.next()[0] == 0
    time.sleep(0.6)  # a dozen polls
    assert len(reads) <= 1, reads  # the first poll alone (nothing seen before it)
    from infra.sqlite_store import SqliteStore

    elsewhere = create_app(GameService(SqliteStore(path), fixed_clock, counting_secrets(), b"x"))
    version = play_one(elsewhere.test_client(), gid, tokens)
    assert stream.next(timeout=2)[0] == version
    assert len(reads) >= 2


def test_a_move_made_by_another_worker_arrives_by_its_notice(setup, hub_of):
    """`court serve`'s workers tell each other the games they moved: a stream hears of
    another worker's move at once, long before any poll (here: none for a minute)."""
    from infra.sqlite_store import SqliteStore

    app, _, listener, path = setup
    hub = hub_of(poll_seconds=60)
    notices = WorkerNotices(2)
    notices.listen(0, hub.moved)
    elsewhere = create_app(GameService(SqliteStore(path), fixed_clock, counting_secrets(), b"x"))
    elsewhere.extensions["royal_court.events"].listen(notices.tell_others(1))
    _, gid, tokens = duel(app)
    stream = connect(hub, listener, gid, tokens[1])
    assert stream.next()[0] == 0
    version = play_one(elsewhere.test_client(), gid, tokens)
    assert stream.next(timeout=2)[0] == version


def test_a_stream_whose_reader_reads_nothing_is_closed_once_stalled(setup, hub_of):
    """Bytes waiting for a reader that reads nothing are given back after STALLED_SECONDS
    (here half a second), however few: a hub's unread streams hold bounded memory for a
    bounded time, beside the per-stream and per-worker bounds on their size."""
    app, _, listener, _ = setup
    hub = hub_of(stalled_seconds=0.5)
    client, gid, tokens = duel(app)
    stuck = connect(hub, listener, gid, tokens[1], rcvbuf=1024)  # never reads
    wait_for(lambda: hub.counts() == (1, 1))
    while hub.counts() == (1, 1) and not hub._buffered:  # until bytes wait for it
        play_one(client, gid, tokens)
    wait_for(lambda: hub.counts() == (0, 0), seconds=5)
    assert hub._buffered == 0 and not hub.places
    stuck.close()
