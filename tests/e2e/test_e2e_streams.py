"""Event streams on a real `court serve`: two seats of a Duel play a game through, each move
reaching the other seat's open stream (and a spectator's) within a second, with no long-poll,
while two hundred streams are open on two workers; and the caps on streams answer problems."""

from __future__ import annotations

import json
import socket
import time

from tests.e2e.test_e2e import call, server
from tests.sse import SseStream

DUEL = "royal-assassin-duel"


def duel(base: str) -> tuple[str, list[str]]:
    """A Duel with both seats joined (a secret deal: a two-seat game takes no chosen seed)."""
    status, _, created = call(base, "POST", "/v1/games", {"ruleset": DUEL})
    assert status == 201, created
    gid = created["game"]["id"]
    [invite] = created["invites"]
    status, _, joined = call(base, "POST", invite["join"], {"invite": invite["invite"]})
    assert status == 201, joined
    return gid, [created["token"], joined["token"]]


def test_two_seats_of_a_duel_see_each_others_moves_on_their_streams(tmp_path):
    # 195 streams from this one address (the cap per address is for attackers), two workers:
    # a move made by one worker reaches the streams the other holds by its notice, at once.
    args = ("--db", str(tmp_path / "court.db"), "--workers", "2", "--games-per-minute", "0",
            "--streams-per-address", "200")  # fmt: skip
    with open(tmp_path / "server.log", "w") as err, server(*args, stderr=err) as (base, _):
        gid, tokens = duel(base)
        seats = [SseStream(base, gid, token) for token in tokens]
        spectator = SseStream(base, gid)
        for stream in (*seats, spectator):
            assert stream.next()[0] == 0  # the current state at once
            assert stream.headers["content-type"].startswith("text/event-stream")
        others = []  # open and silent: the hub holds them all while the game is played
        for _ in range(12):
            other, _ = duel(base)
            others += [SseStream(base, other) for _ in range(16)]
        for stream in others:
            assert stream.next()[0] == 0
        assert len(others) + 3 == 195  # streams open on this server

        version, moves, delays = 0, 0, []
        status, _, state = call(base, "GET", f"/v1/games/{gid}", token=tokens[0])
        while state["game"]["status"] == "playing" and moves < 40:
            seat = state["view"]["to_move"][0]
            status, _, mine = call(base, "GET", f"/v1/games/{gid}", token=tokens[seat])
            move = next(m for m in mine["view"]["legal_moves"] if m["type"] != "resign")
            started = time.monotonic()
            status, _, played = call(
                base, "POST", f"/v1/games/{gid}/moves",
                {"version": version, "move": move}, tokens[seat],
            )  # fmt: skip
            assert status == 201, played
            version = played["game"]["version"]
            other = 1 - seat
            for stream, token in ((seats[other], tokens[other]), (spectator, None)):
                seen = -1
                while seen < version:  # the newest version, perhaps after the one before
                    seen, data = stream.next(timeout=1)
                delays.append(time.monotonic() - started)
                assert seen == version
                _, _, read = call(base, "GET", f"/v1/games/{gid}", token=token)
                assert data == read  # the read route's body for that token
            while True:  # the mover's own stream has it too
                if seats[seat].next(timeout=1)[0] == version:
                    break
            status, _, state = call(base, "GET", f"/v1/games/{gid}", token=tokens[0])
            moves += 1
        # Ten moves, or the whole game if its deal ends it sooner (one ended in nine).
        assert (moves >= 10 or state["game"]["status"] != "playing") and max(delays) < 1
        assert sorted(delays)[len(delays) // 2] < 0.25
        status, _, _ = call(base, "GET", "/healthz")
        assert status == 200
        # Pipelined behind another request on one connection: that answer first, then the
        # stream (the connection goes to the hub only once it owes nothing else).
        host, port = base.removeprefix("http://").split(":")
        piped = SseStream.__new__(SseStream)
        piped.sock = socket.create_connection((host, int(port)), timeout=10)
        piped.buffer, piped.status, piped.headers, piped.body = b"", 0, {}, b""
        piped.sock.sendall(
            f"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            f"GET /v1/games/{gid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        )
        assert piped.head() == 200 and json.loads(piped.body) == {"status": "ok"}
        piped.status = 0
        assert piped.next()[0] == version
        assert piped.headers["content-type"].startswith("text/event-stream")
        for stream in (*seats, spectator, *others, piped):
            stream.close()
    logged = (tmp_path / "server.log").read_text().splitlines()
    lines = [json.loads(x) for x in logged if x.startswith("{")]
    # Each of the game's three streams was opened once and held through the game: none was
    # ended and opened again, as a bounded (long-poll-like) stream would be.
    opened = [x for x in lines if x["path"] == f"/v1/games/{gid}/events"]
    assert len(opened) == 4 and all(x["status"] == 200 for x in opened)  # and the piped one


def test_streams_beyond_the_caps_are_refused_with_a_problem(tmp_path):
    args = ("--db", str(tmp_path / "court.db"), "--workers", "1",
            "--streams", "3", "--streams-per-game", "2")  # fmt: skip
    with server(*args) as (base, _):
        first, _ = duel(base)
        second, _ = duel(base)
        held = [SseStream(base, first), SseStream(base, first)]
        for stream in held:
            assert stream.head() == 200
        third = SseStream(base, first)
        assert third.head() == 503 and third.headers["retry-after"] == "5"
        problem = json.loads(third.body)
        assert problem["type"] == "urn:royal-court:problem:too-many-streams"
        assert "this game" in problem["detail"]
        held.append(SseStream(base, second))
        assert held[-1].head() == 200
        fourth = SseStream(base, second)
        assert fourth.head() == 503 and "this server" in json.loads(fourth.body)["detail"]
        missing = SseStream(base, "no-such-game")
        assert missing.head() == 404
        assert json.loads(missing.body)["type"] == "urn:royal-court:problem:game-not-found"
        # A closed stream gives its place back.
        held.pop(0).close()
        deadline = time.monotonic() + 5
        while True:
            again = SseStream(base, first)
            if again.head() == 200:
                break
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for stream in (*held, again, third, fourth, missing):
            stream.close()
