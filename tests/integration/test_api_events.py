"""The event stream (`GET /v1/games/{id}/events`) through the Flask app: the bounded stream
that Lambda and any WSGI server answer. Each event is exactly the read route's body for the
same token at that version; Last-Event-ID resumes; errors are problems; secrecy is the read's.
Royal Ace-assin (two seats, hidden hands, sealed moves) is the game."""

from __future__ import annotations

import json
import threading
import time

import pytest

from domain.registry import GAMES
from domain.replay import replay
from handlers.http.events import encode_event, last_event_id, news
from tests.api_helpers import make_app
from tests.helpers import strings_in
from tests.integration.test_api import assert_problem, auth
from tests.integration.test_api_two_seats import RAA, play, two_seats


@pytest.fixture
def client(tmp_path):
    from infra.sqlite_store import SqliteStore

    return make_app(SqliteStore(str(tmp_path / "court.db"))).test_client()


def parse(text: str) -> list[dict[str, str]]:
    """The events of an SSE body (comments and `retry:` lines left out), as a client reads
    them: fields up to each blank line."""
    events: list[dict[str, str]] = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            events.append(fields)
    return events


def events(client, gid, token=None, last=None, wait=None):
    headers = auth(token) if token else {}
    if last is not None:
        headers["Last-Event-ID"] = str(last)
    path = f"/v1/games/{gid}/events" + (f"?wait={wait}" if wait is not None else "")
    return client.get(path, headers=headers)


def read(client, gid, token=None):
    return client.get(f"/v1/games/{gid}", headers=auth(token) if token else {})


def test_an_event_is_the_read_routes_body_for_the_same_token(client):
    gid, tokens = two_seats(client)
    play(client, gid, tokens[0], 0, {"type": "choose_suit", "suit": "hearts"})
    for token in (*tokens, None):
        r = events(client, gid, token)
        assert r.status_code == 200
        assert r.mimetype == "text/event-stream"
        assert r.headers["Cache-Control"] == "no-store"
        assert "Authorization" in r.headers["Vary"]
        [event] = parse(r.get_data(as_text=True))
        assert event["id"] == "1"
        same = read(client, gid, token)
        assert event["data"].encode() == same.get_data()  # byte for byte: one code path
        assert json.loads(event["data"])["view"]["seat"] == (
            None if token is None else tokens.index(token)
        )


def test_last_event_id_resumes(client):
    gid, (alice, _) = two_seats(client)
    play(client, gid, alice, 0, {"type": "choose_suit", "suit": "hearts"})
    # Older than the game (or not an id this API sends): the current event at once.
    for last in (0, "bogus", 7):
        started = time.monotonic()
        [event] = parse(events(client, gid, alice, last=last).get_data(as_text=True))
        assert event["id"] == "1" and time.monotonic() - started < 1
    # Equal: nothing at once; the stream waits, and ends with a heartbeat and no event.
    started = time.monotonic()
    r = events(client, gid, alice, last=1, wait=0.3)
    assert r.status_code == 200 and time.monotonic() - started >= 0.3
    assert parse(r.get_data(as_text=True)) == [] and r.get_data().startswith(b": keep-alive")


def test_a_waiting_stream_ends_with_the_next_move(client):
    gid, (alice, bob) = two_seats(client)

    def later():
        time.sleep(0.3)
        play(client, gid, alice, 0, {"type": "choose_suit", "suit": "hearts"})

    mover = threading.Thread(target=later)
    mover.start()
    started = time.monotonic()
    r = events(client, gid, bob, last=0, wait=10)
    mover.join()
    assert time.monotonic() - started < 5
    [event] = parse(r.get_data(as_text=True))
    assert event["id"] == "1"
    assert event["data"].encode() == read(client, gid, bob).get_data()


def test_errors_before_the_stream_are_problems(client):
    gid, (alice, _) = two_seats(client)
    assert_problem(events(client, "no-such-game-0000000000"), 404, "game-not-found")
    assert_problem(events(client, "not a game id!"), 404, "game-not-found")
    assert_problem(events(client, gid, "not-a-token-of-it"), 403, "wrong-token")
    bad = client.get(f"/v1/games/{gid}/events", headers={"Authorization": "Basic eA=="})
    assert_problem(bad, 401, "token-required")
    assert_problem(events(client, gid, alice, wait=99), 422, "invalid-body")
    assert_problem(client.post(f"/v1/games/{gid}/events"), 405, "method-not-allowed")


def test_the_stream_may_send_last_event_id_across_origins(client):
    r = client.options(
        "/v1/games/x/events",
        headers={
            "Origin": "https://play.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "Authorization, Last-Event-ID",
        },
    )
    allowed = r.headers["Access-Control-Allow-Headers"].lower()
    assert "last-event-id" in allowed and "authorization" in allowed


def test_events_keep_each_seats_secrets(client):
    """Through a game to its end: after every move, each seat's and a spectator's event shows
    no card hidden from it and no sealed move of the other seat (the read's property)."""
    gid, tokens = two_seats(client)
    ruleset = GAMES[RAA].ruleset
    moves = [
        (0, {"type": "choose_suit", "suit": "hearts"}),
        (1, {"type": "choose_suit", "suit": "spades"}),
        (0, {"type": "place", "cards": {"king": "3H", "queen": "TH", "jack": "9H"}}),
        (1, {"type": "place", "cards": {"king": "TS", "queen": "8S", "jack": "7S"}}),
        (0, {"type": "flip", "targets": ["queen"]}),
    ]
    version = 0
    for seat, move in moves:
        r = play(client, gid, tokens[seat], version, move)
        assert r.status_code == 201, r.json
        version = r.json["game"]["version"]
        store = client.application.extensions["royal_court.events"].service.store
        stored = store.load(gid)
        state = replay(
            ruleset,
            stored.record.seed,
            stored.record.options,
            [(m.seat, m.move) for m in stored.moves],
        ).state
        for viewer, token in ((0, tokens[0]), (1, tokens[1]), (None, None)):
            [event] = parse(events(client, gid, token).get_data(as_text=True))
            body = json.loads(event["data"])
            assert int(event["id"]) == body["game"]["version"] == version
            assert not set(strings_in(body)) & ruleset.hidden(state, viewer)
            # Alice's sealed flip (the last move) too: exactly what the read shows each one.
            assert event["data"].encode() == read(client, gid, token).get_data()
    views = [json.loads(parse(events(client, gid, t).get_data(as_text=True))[0]["data"])["view"]
             for t in (*tokens, None)]  # fmt: skip
    assert len({json.dumps(v, sort_keys=True) for v in views}) == 3  # each its own view


def test_the_flask_stream_waits_only_where_a_long_poll_may():
    """With every waiting place taken, a stream with nothing new ends at once, saying when to
    come back (the long-poll's rule: a stream never holds more threads than long-polls)."""
    from handlers.http.app import create_app
    from tests.api_helpers import make_service

    app = create_app(make_service(), long_polls=0)
    c = app.test_client()
    created = c.post("/v1/games", json={"ruleset": RAA}).json
    gid, token = created["game"]["id"], created["token"]
    started = time.monotonic()
    r = events(c, gid, token, last=0, wait=10)
    assert time.monotonic() - started < 1
    assert r.status_code == 200 and r.headers["Retry-After"] == "1"
    assert parse(r.get_data(as_text=True)) == []


@pytest.mark.parametrize(
    ("header", "seen"),
    [
        (None, None),
        ("3", 3),
        (" 12 ", 12),
        ("-1", None),
        ("1e3", None),
        ("٣", None),
        ("9" * 13, None),
    ],
)
def test_last_event_id_is_a_version_or_nothing(header, seen):
    assert last_event_id(header) == seen


def test_an_event_is_two_fields_on_two_lines():
    assert encode_event(4, {"a": "x\ny"}) == b'id: 4\ndata: {"a": "x\\ny"}\n\n'
    assert news(5, None) and news(5, 4) and news(5, 9) and not news(5, 5)


def test_through_api_gateway_the_stream_is_one_event_in_one_response(client):
    """As on Lambda (apig-wsgi, payload 2.0, the recorded event shape): the gateway buffers a
    whole response, so a stream with news answers it at once and ends."""
    from apig_wsgi import make_lambda_handler

    from tests.integration.test_lambda import event as gateway_event

    gid, (alice, _) = two_seats(client)
    play(client, gid, alice, 0, {"type": "choose_suit", "suit": "hearts"})
    handler = make_lambda_handler(client.application)
    headers = {"authorization": f"Bearer {alice}", "last-event-id": "0"}
    response = handler(gateway_event("GET", f"/v1/games/{gid}/events", headers=headers), None)
    assert response["statusCode"] == 200
    assert response["headers"]["content-type"].startswith("text/event-stream")
    assert not response.get("isBase64Encoded")
    [event] = parse(response["body"])
    assert event["id"] == "1"
    assert event["data"].encode() == read(client, gid, alice).get_data()
