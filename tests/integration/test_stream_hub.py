"""`StreamHub` in process, over real loopback sockets: heartbeats on a silent stream, a reader
that falls behind is closed (bounded memory), a hung-up client frees its place, and a move
made by another process (straight into the store) reaches the stream by the hub's poll."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from werkzeug.test import EnvironBuilder

from domain.service import GameService
from handlers.http.app import create_app
from handlers.serve.stream_hub import StreamHub
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


def connect(hub, listener, gid, token=None, rcvbuf=None) -> SseStream:
    """A client socket whose server side the hub takes, as court serve's channel gives it."""
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
    environ = EnvironBuilder(path=f"/v1/games/{gid}/events", headers=headers).get_environ()
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
