"""Limits through the Flask app (issue 27, items 5 and 8): bounded, cheap long-polls, and
per-client rate limits on creating players and games, with the `court serve` flags that set
them (docs/api.md, "Limits")."""

import threading
import time

import pytest

import handlers.http.app
import handlers.serve.server
from domain.service import GameService
from handlers.cli import court as cli
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets, fixed_clock
from tests.integration.test_api import assert_problem, auth

ANNE, BOB = {"REMOTE_ADDR": "198.51.100.7"}, {"REMOTE_ADDR": "203.0.113.9"}
TODAY = fixed_clock()[:10]


class CountingStore:
    """A store that counts, per thread, whole-game loads and version reads."""

    def __init__(self, store):
        self.store = store
        self.loads: dict[str, int] = {}
        self.versions: dict[str, int] = {}

    def __getattr__(self, name):
        return getattr(self.store, name)

    def load(self, game_id):
        name = threading.current_thread().name
        self.loads[name] = self.loads.get(name, 0) + 1
        return self.store.load(game_id)

    def version(self, game_id):
        name = threading.current_thread().name
        self.versions[name] = self.versions.get(name, 0) + 1
        return self.store.version(game_id)


@pytest.fixture
def store(tmp_path):
    from infra.sqlite_store import SqliteStore

    return CountingStore(SqliteStore(str(tmp_path / "court.db")))


def app_on(store, **options):
    service = GameService(store, fixed_clock, counting_secrets(), b"test-daily-secret")
    return create_app(service, **options)


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch):
    monkeypatch.setattr(handlers.http.app, "WAIT_POLL_SECONDS", 0.02)


def new_game(client):
    r = client.post("/v1/games", json={"ruleset": "royal-assassin", "seed": "royal"})
    assert r.status_code == 201, r.json
    return r.json["game"]["id"], r.json["token"]


def a_move(client, gid, token, version):
    view = client.get(f"/v1/games/{gid}", headers=auth(token)).json["view"]
    move = next(m for m in view["legal_moves"] if m["type"] != "resign")
    r = client.post(f"/v1/games/{gid}/moves", json={"version": version, "move": move},
                    headers=auth(token))  # fmt: skip
    assert r.status_code == 201, r.json


class Poll(threading.Thread):
    """One long-poll in its own thread (and its own test client)."""

    def __init__(self, app, gid, token, etag='"0"', wait=10, name=None):
        super().__init__(name=name, daemon=True)
        self.app, self.gid, self.token, self.etag, self.wait = app, gid, token, etag, wait
        self.response = None
        self.seconds = None

    def run(self):
        started = time.monotonic()
        self.response = self.app.test_client().get(
            f"/v1/games/{self.gid}?wait={self.wait}",
            headers={**auth(self.token), "If-None-Match": self.etag},
        )
        self.seconds = time.monotonic() - started


def wait_until(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


# ---- long-polls -------------------------------------------------------------------------------


def test_a_waiting_long_poll_reads_the_version_not_the_game(store):
    app = app_on(store, long_polls=4)
    client = app.test_client()
    gid, token = new_game(client)
    poll = Poll(app, gid, token, name="poller")
    poll.start()
    wait_until(lambda: store.versions.get("poller", 0) >= 10)  # ten checks, 0.02 s apart
    assert store.loads["poller"] == 1  # the first read only: never the whole log again
    a_move(client, gid, token, 0)
    poll.join(10)
    assert poll.response.status_code == 200 and poll.response.headers["ETag"] == '"1"'
    assert poll.response.json["game"]["version"] == 1
    assert store.loads["poller"] == 2  # ... and once more when the version had changed


def test_long_polls_past_the_bound_are_answered_at_once_with_retry_after(store):
    app = app_on(store, long_polls=2)
    client = app.test_client()
    gid, token = new_game(client)
    polls = [Poll(app, gid, token, name=f"poll{i}") for i in range(2)]
    for poll in polls:
        poll.start()
    wait_until(lambda: all(store.versions.get(f"poll{i}", 0) for i in range(2)))
    started = time.monotonic()
    r = client.get(f"/v1/games/{gid}?wait=10", headers={**auth(token), "If-None-Match": '"0"'})
    assert r.status_code == 304 and r.headers["Retry-After"] == "1"
    assert r.headers["ETag"] == '"0"'
    assert time.monotonic() - started < 2  # generous: it did not wait at all
    # A changed game is answered as ever, with no Retry-After: there was nothing to wait for.
    r = client.get(f"/v1/games/{gid}?wait=10", headers={**auth(token), "If-None-Match": '"7"'})
    assert r.status_code == 200 and "Retry-After" not in r.headers
    a_move(client, gid, token, 0)
    for poll in polls:
        poll.join(10)
        assert poll.response.status_code == 200 and "Retry-After" not in poll.response.headers
    # The waiting places are free again: a new long-poll waits out its time.
    r = client.get(f"/v1/games/{gid}?wait=0.3", headers={**auth(token), "If-None-Match": '"1"'})
    assert r.status_code == 304 and "Retry-After" not in r.headers


def test_no_waiting_place_at_all_means_every_long_poll_is_answered_at_once(store):
    client = app_on(store, long_polls=0).test_client()
    gid, token = new_game(client)
    started = time.monotonic()
    r = client.get(f"/v1/games/{gid}?wait=20", headers={**auth(token), "If-None-Match": '"0"'})
    assert r.status_code == 304 and r.headers["Retry-After"] == "1"
    assert time.monotonic() - started < 2


def test_if_none_match_takes_a_list_weak_tags_and_a_star(store):
    app = app_on(store, long_polls=4)
    client = app.test_client()
    gid, token = new_game(client)

    def read(etags, wait=None):
        query = "" if wait is None else f"?wait={wait}"
        return client.get(f"/v1/games/{gid}{query}",
                          headers={**auth(token), "If-None-Match": etags})  # fmt: skip

    for matching in ('"3", "0"', 'W/"0"', '"0"', "*", '"2",W/"0" , "9"'):
        r = read(matching)
        assert r.status_code == 304 and r.headers["ETag"] == '"0"', matching
    for other in ('"3", "4"', 'W/"1"', '""', '"00"'):
        r = read(other)
        assert r.status_code == 200 and r.headers["ETag"] == '"0"', other
    started = time.monotonic()
    assert read("*", wait=20).status_code == 304  # nothing could end that wait: not waited
    assert time.monotonic() - started < 2
    # Waiting with a list goes on while the game's version is still in it.
    poll = Poll(app, gid, token, etag='"0", "1"', wait=1.0, name="listed")
    poll.start()
    wait_until(lambda: store.versions.get("listed", 0))
    a_move(client, gid, token, 0)  # version 1: still listed
    poll.join(10)
    assert poll.response.status_code == 304 and poll.response.headers["ETag"] == '"1"'
    assert poll.seconds >= 1.0


def test_a_game_that_goes_away_while_polled_ends_the_wait(store):
    app = app_on(store, long_polls=1)
    client = app.test_client()
    gid, token = new_game(client)
    store.version = lambda game_id: None  # e.g. an expired casual game, deleted meanwhile
    r = client.get(f"/v1/games/{gid}?wait=5", headers={**auth(token), "If-None-Match": '"0"'})
    assert_problem(r, 404, "game-not-found")


# ---- rate limits on creating players and games -------------------------------------------------


def test_creating_games_is_limited_per_client_address(store):
    client = app_on(store, games_per_minute=3).test_client()
    body = {"ruleset": "royal-assassin"}
    for _ in range(3):  # the burst: a minute's worth at once
        assert client.post("/v1/games", json=body, environ_base=ANNE).status_code == 201
    r = client.post("/v1/games", json=body, environ_base=ANNE)
    problem = assert_problem(r, 429, "too-many-requests")
    assert 1 <= int(r.headers["Retry-After"]) <= 20  # one game every 20 s from now on
    assert "3 games a minute" in problem["detail"]
    # A daily attempt is a game too: the same bucket, refused before anything is done.
    player = client.post("/v1/players", json={"name": "Anne"}, environ_base=ANNE).json
    r = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(player["token"]),
                    environ_base=ANNE)  # fmt: skip
    assert_problem(r, 429, "too-many-requests")
    assert "Retry-After" in r.headers
    # Another address has a bucket of its own.
    assert client.post("/v1/games", json=body, environ_base=BOB).status_code == 201
    assert client.post("/v1/games", json=body, environ_base=ANNE).status_code == 429


def test_creating_players_is_limited_per_client_address(store):
    client = app_on(store, players_per_minute=2).test_client()
    for name in ("Anne", "Anna"):
        r = client.post("/v1/players", json={"name": name}, environ_base=ANNE)
        assert r.status_code == 201
    r = client.post("/v1/players", json={"name": "Annie"}, environ_base=ANNE)
    assert_problem(r, 429, "too-many-requests")
    assert 1 <= int(r.headers["Retry-After"]) <= 30
    assert r.headers["Cache-Control"] == "no-store"
    assert client.post("/v1/players", json={"name": "Bob"}, environ_base=BOB).status_code == 201
    # Games are counted apart from players (and are not limited here).
    for _ in range(5):
        r = client.post("/v1/games", json={"ruleset": "royal-assassin"}, environ_base=ANNE)
        assert r.status_code == 201


def test_moves_and_costly_reads_are_limited_per_client_address(store):
    """A move is a row kept as long as its game; a record, a replay step and a verification
    each replay a game or read a whole body: each kind has its own bucket."""
    client = app_on(store, moves_per_minute=3, costly_reads_per_minute=2).test_client()
    created = client.post("/v1/games", json={"ruleset": "royal-assassin", "seed": "royal"},
                          environ_base=ANNE).json  # fmt: skip
    game_id, headers = created["game"]["id"], auth(created["token"])
    url = f"/v1/games/{game_id}/moves"
    for version in range(3):
        body = {"version": version, "move": {"type": "resign" if version == 2 else "reserve"}}
        r = client.post(url, json=body, headers=headers, environ_base=ANNE)
        assert r.status_code in (201, 409), r.json  # counted, played or not
    r = client.post(url, json={"version": 3, "move": {"type": "reserve"}}, headers=headers,
                    environ_base=ANNE)  # fmt: skip
    problem = assert_problem(r, 429, "too-many-requests")
    assert "3 moves a minute" in problem["detail"] and 1 <= int(r.headers["Retry-After"]) <= 20
    for path in (f"/v1/games/{game_id}/record", f"/v1/games/{game_id}/replay?at=1"):
        assert client.get(path, environ_base=ANNE).status_code == 200
    r = client.post("/v1/records/verify", json={}, environ_base=ANNE)
    assert_problem(r, 429, "too-many-requests")
    # Reads that cost no replay are not counted; another address has buckets of its own.
    assert client.get(f"/v1/games/{game_id}", environ_base=ANNE).status_code == 200
    assert client.post("/v1/records/verify", json={}, environ_base=BOB).status_code == 200


def test_without_limits_the_app_creates_as_many_as_asked(store):
    client = app_on(store).test_client()  # the factory's default: no limit, as on Lambda
    for _ in range(15):
        assert client.post("/v1/games", json={"ruleset": "royal-assassin"}).status_code == 201
        assert client.post("/v1/players", json={"name": "Anne"}).status_code == 201


# ---- the `court serve` flags reach the app ---------------------------------------------------


@pytest.fixture
def serve_calls(monkeypatch):
    """`court serve` up to the point it would serve: what it passes to `run`."""
    calls = {}

    def fake_run(make_app, sock, workers, background=None, **options):
        calls.update(make_app=make_app, workers=workers, options=options)

    monkeypatch.setattr(handlers.serve.server, "listen", lambda host, port: None)
    monkeypatch.setattr(handlers.serve.server, "run", fake_run)
    return calls


def test_court_serve_flags_reach_the_app(tmp_path, serve_calls):
    code = cli.main(["serve", "--db", str(tmp_path / "court.db"), "--workers", "1",
                     "--threads", "5", "--connection-limit", "3000",
                     "--games-per-minute", "2", "--players-per-minute", "1"])  # fmt: skip
    assert code == 0
    assert serve_calls["options"]["threads"] == 5
    assert serve_calls["options"]["connection_limit"] == 3000
    app = serve_calls["make_app"]()
    assert app.config["LONG_POLLS"] == 3  # threads - 2: two threads always free
    client = app.test_client()
    for _ in range(2):
        assert client.post("/v1/games", json={"ruleset": "royal-assassin"}).status_code == 201
    assert client.post("/v1/games", json={"ruleset": "royal-assassin"}).status_code == 429
    assert client.post("/v1/players", json={"name": "Anne"}).status_code == 201
    assert client.post("/v1/players", json={"name": "Anne"}).status_code == 429


def test_court_serve_defaults(tmp_path, serve_calls):
    assert cli.main(["serve", "--db", str(tmp_path / "court.db")]) == 0
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = serve_calls["options"]["connection_limit"]
    assert limit == min(10_000, soft - handlers.serve.server.FD_RESERVE)
    app = serve_calls["make_app"]()
    assert app.config["LONG_POLLS"] == 6 and app.config["GAMES_PER_MINUTE"] == 60
    assert app.config["PLAYERS_PER_MINUTE"] == 10
    assert app.config["MOVES_PER_MINUTE"] == 600 and app.config["COSTLY_READS_PER_MINUTE"] == 300


def test_zero_turns_a_limit_off_and_negative_is_refused(tmp_path, serve_calls, capsys):
    args = ["serve", "--db", str(tmp_path / "court.db")]
    assert cli.main([*args, "--games-per-minute", "0", "--long-polls", "0"]) == 0
    app = serve_calls["make_app"]()
    assert app.config["GAMES_PER_MINUTE"] == 0 and app.config["LONG_POLLS"] == 0
    client = app.test_client()
    for _ in range(70):
        assert client.post("/v1/games", json={"ruleset": "royal-assassin"}).status_code == 201
    assert cli.main([*args, "--players-per-minute", "-1"]) == cli.EXIT_USAGE
    assert "--players-per-minute must be 0 or more" in capsys.readouterr().err
