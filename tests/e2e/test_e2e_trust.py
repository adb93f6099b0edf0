"""Hostile clients against a real `court serve` over loopback: the holes an outside attack
found (issue 38), each played again as the attacker played it."""

import contextlib
import json
import socket
import time

import pytest

from domain.registry import GAMES
from tests.e2e.test_e2e import call, server
from tests.e2e.test_e2e_streams import duel
from tests.helpers import strings_in
from tests.raw_http import raw_exchange, read_answer
from tests.sse import SseStream


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """One `court serve` for the attacks of this module (each leaves the server as it was)."""
    folder = tmp_path_factory.mktemp("trust")
    # Players unpaced: the names' test creates more than a worker's ten a minute (the pacing
    # has its own server and test below).
    args = ("--db", str(folder / "court.db"), "--players-per-minute", "0")
    with (
        open(folder / "server.log", "w") as log,  # more than a pipe holds
        server(*args, env={"ROYAL_DAILY_SECRET": "trust"}, stderr=log) as (url, _),
    ):
        yield url


def test_the_finished_listing_names_no_card_of_a_ranked_game_before_its_day_is_over(base):
    """A ranked attempt resigned at once ends "lost" to a Pretender its player saw on the
    table ("ruler": a card). The public listing of finished games is a stranger's window, and
    a stranger may know no card of the day's deal until the day is over: the row keeps the
    result and the score, and names no card."""
    cards = {code for step in GAMES["royal-assassin"].ruleset.deal_plan() for code in step.cards}
    _, _, player = call(base, "POST", "/v1/players", {"name": "Ann"})
    status, _, started = call(
        base, "POST", "/v1/daily/today/royal-assassin/games", token=player["token"]
    )
    assert status == 201, started
    game = started["game"]
    status, _, ended = call(
        base,
        "POST",
        f"/v1/games/{game['id']}/moves",
        {"version": game["version"], "move": {"type": "resign"}},
        started["token"],
    )
    assert status == 201, ended
    outcome = ended["game"]["outcome"]  # the player's own: the ruler was seen, so shown
    status, _, listing = call(base, "GET", "/v1/games?status=finished")
    assert status == 200
    [row] = [row for row in listing["games"] if row["id"] == game["id"]]
    # (A tie puts "joker" on the throne, which is no card: the deal is the day's.)
    assert row["outcome"] == {**outcome, "ruler": None if outcome["ruler"] in cards else "joker"}
    assert not strings_in(row) & cards, row


def test_an_idempotency_key_past_64_characters_is_refused_and_nothing_is_played(base):
    """Every key is stored with its move for as long as the game is kept: the 255 characters
    the attack sent with each of its 3,123 moves are now a 400, and the move is not played."""
    _, _, created = call(base, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"})
    game, token = created["game"], created["token"]
    moves_url = f"/v1/games/{game['id']}/moves"
    body = {"version": 0, "move": {"type": "reserve"}}
    status, headers, problem = call(
        base, "POST", moves_url, body, token, headers={"Idempotency-Key": "k" * 255}
    )
    assert status == 400 and problem["type"].endswith("bad-idempotency-key"), problem
    assert headers["Content-Type"] == "application/problem+json"
    assert call(base, "GET", f"/v1/games/{game['id']}")[2]["game"]["version"] == 0
    status, _, played = call(
        base, "POST", moves_url, body, token, headers={"Idempotency-Key": "k" * 64}
    )
    assert status == 201 and played["game"]["version"] == 1, played


@pytest.mark.parametrize(
    "header",
    [
        b"Authorization: Bearer x\r\n" * 10_000,  # the attack: 124 ms a request before
        b"X-Forwarded-For: 10.0.0.1\r\n" * 17,  # one name on too many lines
        b"".join(b"X-Filler-%d: x\r\n" % i for i in range(101)),  # too many lines
    ],
)
def test_too_many_header_lines_are_a_431_problem(base, header):
    request = b"GET /v1/rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + header + b"\r\n"
    started = time.monotonic()
    status, headers, body = raw_exchange(base, request)
    assert time.monotonic() - started < 2
    assert status == 431 and headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == 431 and "header lines" in problem["detail"], problem
    # Up to the bounds, a request is served.
    fitting = b"X-Forwarded-For: 10.0.0.1\r\n" * 16 + b"".join(
        b"X-Filler-%d: x\r\n" % i for i in range(82)
    )  # and Host, Connection: 100 lines
    request = b"GET /v1/rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + fitting + b"\r\n"
    assert raw_exchange(base, request)[0] == 200


@pytest.mark.parametrize(
    "name",
    [
        "Anne\uff031a2b3c4d",  # FULLWIDTH NUMBER SIGN: reads as another player's tag
        "Anne\ufe5f1a2b3c4d",  # SMALL NUMBER SIGN
        "Anne\u266f1a2b3c4d",  # MUSIC SHARP SIGN
        "Z" + "\u0351" * 23,  # 23 stacked combining marks
        "\ufdfd" * 24,  # 24 glyphs each as wide as a phrase
        # Found by a probe after the first fix:
        "Anne\u4e951a2b3c4d",  # a CJK letter like `#`, then what reads as a tag
        "Anne=\u20e61a2b3c4d",  # `=` with a double vertical stroke drawn through it
        "Anne\u2a681a2b3c4d",  # a triple bar with strokes
        "\u0e01" + "\u0e31" * 20,  # Thai marks of combining class 0, stacked
        "An\u034fne",  # an invisible grapheme joiner: another "Anne"
        "\u2e3b" * 12,  # three-em dashes, one column each by East Asian width
        "Alice\u2d4cd63belcc",  # and by the next: a tag's 1 written as an l
        "Alice\u4e95\u0b66a\u07c0b\u0b66c\u07c0d",  # its 0 as Oriya and NKo zeros
    ],
)
def test_names_that_pass_for_a_tag_or_break_layouts_are_refused(base, name):
    status, headers, problem = call(base, "POST", "/v1/players", {"name": name})
    assert status == 422 and headers["Content-Type"] == "application/problem+json", problem
    assert "name" in problem["errors"], problem


def test_clients_that_never_read_their_verdicts_cannot_stop_the_server(base):
    """The attack: 24 connections each send two records of 1 MiB whose options are tens of
    thousands of unknown names, back to back, and never read. Each verdict was 16-20 times its
    record (one "unknown option" per name), the answers filled waitress's output buffers and
    every request thread waited on a client: /healthz failed 20 times in 20. A refusal now
    names ten unknown options and counts the rest, and a verdict shows at most 256 characters
    of what it found, so it is a few hundred bytes."""
    record = finished_record(base)
    record["options"] |= {f"o{i}": 0 for i in range(70_000)}
    body = json.dumps(record).encode()
    assert len(body) < 1 << 20
    request = (
        b"POST /v1/records/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )
    host, port = base.removeprefix("http://").split(":")
    silent = []
    try:
        for _ in range(24):
            connection = socket.create_connection((host, int(port)), timeout=10)
            connection.sendall(request * 2)
            silent.append(connection)
        started = time.monotonic()
        for _ in range(20):
            status, _, answer = call(base, "GET", "/healthz")
            assert status == 200, answer
        assert time.monotonic() - started < 10
        # And each verdict is small: the size of one, read on a connection of its own.
        status, _, verdict = call(base, "POST", "/v1/records/verify", raw=body)
        assert status == 200 and not verdict["valid"], verdict
        assert len(json.dumps(verdict)) < 2000, len(json.dumps(verdict))
        assert verdict["problems"][0]["field"] == "options", verdict
    finally:
        for connection in silent:
            connection.close()


def test_one_client_cannot_take_the_streams_of_a_new_games_seats(base):
    """The attack: one address opened 4,000 streams (every place of both workers) and a new
    game's own seat got 503; 32 spectator streams of one game locked both its seats out. Now
    an address holds 32 streams a worker, spectators of a game 16 a worker, and each seat has
    places of its own."""
    games = [duel(base) for _ in range(5)]
    attempts = [SseStream(base, gid) for gid, _ in games for _ in range(30)]  # 150 spectators
    held = [stream for stream in attempts if stream.head() == 200]
    refusals = [json.loads(s.body)["detail"] for s in attempts if s.status == 503]
    assert len(held) <= 2 * 32 and len(held) + len(refusals) == len(attempts)
    assert any("client address" in detail for detail in refusals), refusals
    gid, tokens = duel(base)
    crowd = [SseStream(base, gid, source="127.0.0.3") for _ in range(40)]  # another client
    watching = [stream for stream in crowd if stream.head() == 200]
    assert len(watching) <= 2 * 16
    seats = [SseStream(base, gid, token, source="127.0.0.2") for token in tokens]
    try:
        for stream in seats:
            assert stream.next()[0] == 0  # each seat has its stream, and its first event
    finally:
        for stream in (*attempts, *crowd, *seats):
            stream.close()


def test_answers_a_client_never_reads_are_not_made_ahead_nor_kept(tmp_path):
    """The attack: 100 connections each pipelined 8 requests for a 480 KB record and never
    read: every answer was made and held, 264 MB for the 30 s idle timeout. Now a connection's
    next request waits (holding no thread) while 256 KiB of its answers are unsent, and a
    connection whose answer has not moved for the idle timeout (here 2 s) is closed, requests
    waiting or not. A client that reads gets every answer, in order."""
    request = b"GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n"  # 218 KB, cached
    args = ("--db", str(tmp_path / "court.db"), "--idle-timeout", "2")
    with open(tmp_path / "server.log", "w") as log, server(*args, stderr=log) as (base, _):
        host, port = base.removeprefix("http://").split(":")
        silent = []
        for _ in range(100):
            connection = socket.socket()
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            connection.connect((host, int(port)))
            connection.sendall(request * 8)
            silent.append(connection)
        reader = socket.create_connection((host, int(port)), timeout=10)
        reader.sendall(request * 8)
        time.sleep(1)
        status, _, answer = call(base, "GET", "/healthz")
        assert status == 200, answer
        made = (tmp_path / "server.log").read_text().count('"path": "/openapi.yaml"')
        assert made <= 100 * 3 + 8, made  # two or three a silent connection, not eight
        assert read_answers(reader, 8) == [200] * 8  # a reader's are made as it reads
        time.sleep(3)  # past the idle timeout and a maintenance pass: the silent are closed
        for connection in silent:
            connection.settimeout(5)
            got = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := connection.recv(1 << 20):
                    got += chunk
            assert got.count(b"HTTP/1.1 200") <= 3
            connection.close()
        reader.close()


def read_answers(connection: socket.socket, count: int) -> list[int]:
    """The statuses of `count` answers read off a connection, in order."""
    statuses, buffer = [], b""
    for _ in range(count):
        status, _, _, buffer = read_answer(connection, buffer)
        statuses.append(status)
    return statuses


def finished_record(base: str) -> dict:
    """The record of a game resigned at once: a valid record to alter."""
    _, _, created = call(base, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"})
    game_id = created["game"]["id"]
    move = {"version": 0, "move": {"type": "resign"}}
    call(base, "POST", f"/v1/games/{game_id}/moves", move, created["token"])
    return call(base, "GET", f"/v1/games/{game_id}/record")[2]


def test_moves_and_replays_are_paced_per_client_address(tmp_path):
    """The attack made 3,123 moves in 5 s from 8 connections (26 GB of SQLite a day) and
    replayed a long game's steps as fast as it could: past its bucket a client gets 429 and
    `Retry-After`, and nothing is played."""
    flags = ("--workers", "1", "--moves-per-minute", "5", "--costly-reads-per-minute", "3")
    with server("--db", str(tmp_path / "court.db"), *flags) as (url, _):
        _, _, created = call(
            url, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"}
        )
        game_id, token = created["game"]["id"], created["token"]
        statuses = []
        for version in range(8):
            body = {"version": version, "move": {"type": "reserve"}}
            status, headers, answer = call(url, "POST", f"/v1/games/{game_id}/moves", body, token)
            statuses.append(status)
            if status == 429:
                assert (
                    answer["type"].endswith("too-many-requests")
                    and int(headers["Retry-After"]) >= 1
                )
        assert statuses.count(429) == 3, statuses
        played = call(url, "GET", f"/v1/games/{game_id}", token=token)[2]["game"]["version"]
        assert played == statuses.count(201)
        steps = [
            call(url, "GET", f"/v1/games/{game_id}/replay?at=1", token=token)[0] for _ in range(5)
        ]
        assert steps == [200, 200, 200, 429, 429], steps
