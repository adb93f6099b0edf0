"""The HTTP API through Flask's test client: the happy path, then every error path.

Every error test also checks that nothing was appended.
"""

import hashlib
import json
import logging
import threading

import pytest

from domain.record import chain_breaks
from domain.service import GameService
from domain.stored import IDEMPOTENCY_KEY_MAX
from handlers.http.app import create_app
from infra.dynamo_store import DynamoStore, make_client
from tests.api_helpers import counting_secrets, fixed_clock, make_app


@pytest.fixture
def app(tmp_path):
    from infra.sqlite_store import SqliteStore

    return make_app(SqliteStore(str(tmp_path / "court.db")))


@pytest.fixture
def client(app):
    return app.test_client()


def create(client, **body):
    body.setdefault("ruleset", "royal-assassin")
    r = client.post("/v1/games", json=body)
    assert r.status_code == 201, r.json
    return r.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def move(client, created, version, mv, headers=None, token=None):
    gid = created["game"]["id"]
    return client.post(
        f"/v1/games/{gid}/moves",
        json={"version": version, "move": mv},
        headers={**auth(token or created["token"]), **(headers or {})},
    )


def log_length(client, created):
    return len(client.get(f"/v1/games/{created['game']['id']}/moves").json["moves"])


def assert_problem(r, status, slug=None):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    assert r.content_type == "application/problem+json"
    body = r.json
    assert body["status"] == status and body["title"]
    if slug:
        assert body["type"] == f"urn:royal-court:problem:{slug}"
    return body


# ---- happy path -----------------------------------------------------------------------------


def test_rulesets(client):
    body = client.get("/v1/rulesets").json
    ra = next(r for r in body["rulesets"] if r["id"] == "royal-assassin")
    assert ra["seats"] == {"min": 1, "max": 1}
    names = {o["name"]: o for o in ra["options"]}
    assert names["setup_royals"]["maximum"] == 12 and names["jokers_in_deck"]["default"] is False


def test_create_with_a_secret_seed(client):
    r = client.post("/v1/games", json={"ruleset": "royal-assassin"})
    body = r.json
    game = body["game"]
    assert r.status_code == 201 and r.headers["Location"] == f"/v1/games/{game['id']}"
    assert "seed" not in game and game["seed_known"] is False
    assert len(game["seed_commitment"]) == 64 and game["version"] == 0
    assert body["token"] and body["view"]["legal_moves"]
    assert len(game["id"]) >= 16  # at least 96 random bits, URL-safe


def test_create_with_a_shared_seed(client):
    game = create(client, seed="royal")["game"]
    assert game["seed"] == "royal" and game["seed_known"] is True
    assert game["seed_commitment"] == hashlib.sha256(b"royal").hexdigest()


def test_read_as_seat_and_as_spectator(client):
    created = create(client, seed="royal")
    gid = created["game"]["id"]
    seat = client.get(f"/v1/games/{gid}", headers=auth(created["token"]))
    spectator = client.get(f"/v1/games/{gid}")
    assert seat.status_code == spectator.status_code == 200
    assert seat.json["view"]["legal_moves"] and spectator.json["view"]["legal_moves"] == []
    assert seat.headers["ETag"] == '"0"'
    again = client.get(f"/v1/games/{gid}", headers={"If-None-Match": '"0"'})
    assert again.status_code == 304


def test_play_a_move(client):
    created = create(client, seed="royal")
    r = move(client, created, 0, {"type": "attack", "column": "hearts"})
    assert r.status_code == 201 and r.headers["ETag"] == '"1"'
    assert r.json["game"]["version"] == 1
    assert r.json["effects"][0] == {
        "type": "attack",
        "card": "6C",
        "column": "hearts",
        "target": "QH",
        "strength": 6,
    }
    # The Joker may now go above Hearts, so the engine waits for a real choice.
    legal = r.json["view"]["legal_moves"]
    assert legal == [{"type": "draw"}, {"type": "joker", "column": "hearts"}, {"type": "resign"}]
    r = move(client, created, 1, {"type": "draw"})
    assert r.json["effects"][0] == {"type": "draw", "card": "6D"}


def test_play_to_the_end_reveals_the_seed_and_a_sound_chain(client):
    created = create(client)
    gid = created["game"]["id"]
    version, view = 0, created["view"]
    while view["status"] == "playing":
        real = [m for m in view["legal_moves"] if m["type"] != "resign"]
        r = move(client, created, version, real[0])
        assert r.status_code == 201, r.json
        version, view = r.json["game"]["version"], r.json["view"]
        game = r.json["game"]
    assert game["outcome"]["result"] in ("won", "lost") and game["status"] != "playing"
    seed = game["seed"]  # revealed now that the game is over
    assert hashlib.sha256(seed.encode()).hexdigest() == game["seed_commitment"]
    log = client.get(f"/v1/games/{gid}/moves").json["moves"]
    assert len(log) == version
    chain = [(m["seq"], m["seat"], m["move"], m["hash"]) for m in log]
    assert chain_breaks(game["seed_commitment"], chain, [m["salt"] for m in log]) == []
    # A finished game accepts no move.
    assert_problem(move(client, created, version, {"type": "resign"}), 409, "game-finished")
    assert log_length(client, created) == version


# ---- errors: each is a problem and appends nothing ------------------------------------------


def test_malformed_json(client):
    created = create(client)
    gid = created["game"]["id"]
    r = client.post(
        f"/v1/games/{gid}/moves",
        data="{not json",
        headers=auth(created["token"]),
        content_type="application/json",
    )
    assert_problem(r, 400, "malformed-json")
    r = client.post(f"/v1/games/{gid}/moves", data="", headers=auth(created["token"]))
    assert_problem(r, 400, "malformed-json")
    assert_problem(client.post("/v1/games", data="[1,"), 400, "malformed-json")
    assert_problem(client.post("/v1/games", data="[" * 15000), 400, "malformed-json")
    nan = '{"ruleset": "royal-assassin", "options": {"setup_royals": NaN}}'
    assert_problem(client.post("/v1/games", data=nan), 400, "malformed-json")
    r = client.post(
        f"/v1/games/{gid}/moves",
        data='{"version": Infinity, "move": {}}',
        headers=auth(created["token"]),
    )
    assert_problem(r, 400, "malformed-json")
    assert log_length(client, created) == 0


@pytest.mark.parametrize(
    "body",
    [
        {"version": 0, "move": {"type": "draw"}, "extra": 1},  # unknown field
        {"version": "0", "move": {"type": "draw"}},  # string
        {"version": 0.0, "move": {"type": "draw"}},  # float
        {"version": True, "move": {"type": "draw"}},  # boolean
        {"version": -1, "move": {"type": "draw"}},  # negative
        {"version": 0, "move": "draw"},  # not an object
        {"move": {"type": "draw"}},  # missing version
        [0, {"type": "draw"}],  # not an object at all
    ],
)
def test_invalid_move_bodies(client, body):
    created = create(client)
    r = client.post(
        f"/v1/games/{created['game']['id']}/moves", json=body, headers=auth(created["token"])
    )
    problem = assert_problem(r, 422, "invalid-body")
    assert problem["errors"]
    assert log_length(client, created) == 0


def test_oversized_body(client):
    created = create(client)
    big = {"version": 0, "move": {"type": "draw", "pad": "x" * 17000}}
    r = client.post(
        f"/v1/games/{created['game']['id']}/moves",
        data=json.dumps(big),
        headers=auth(created["token"]),
        content_type="application/json",
    )
    assert_problem(r, 413)
    assert log_length(client, created) == 0


def test_unknown_game(client):
    assert_problem(client.get("/v1/games/nope"), 404, "game-not-found")
    assert_problem(client.get("/v1/games/nope/moves"), 404, "game-not-found")
    r = client.post(
        "/v1/games/nope/moves",
        json={"version": 0, "move": {"type": "draw"}},
        headers=auth("whatever"),
    )
    assert_problem(r, 404, "game-not-found")


def test_missing_and_malformed_token(client):
    created = create(client)
    gid = created["game"]["id"]
    r = client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": {"type": "draw"}})
    assert_problem(r, 401, "token-required")
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    r = client.get(f"/v1/games/{gid}", headers={"Authorization": "Basic abc"})
    assert_problem(r, 401, "token-required")
    assert log_length(client, created) == 0


def test_token_of_another_game(client):
    mine, theirs = create(client), create(client)
    r = move(client, mine, 0, {"type": "resign"}, token=theirs["token"])
    assert_problem(r, 403, "wrong-token")
    r = client.get(f"/v1/games/{mine['game']['id']}", headers=auth(theirs["token"]))
    assert_problem(r, 403, "wrong-token")
    assert log_length(client, mine) == 0


def test_stale_version(client):
    created = create(client, seed="royal")
    assert move(client, created, 0, {"type": "attack", "column": "hearts"}).status_code == 201
    problem = assert_problem(move(client, created, 0, {"type": "reserve"}), 409, "stale-version")
    assert problem["current_version"] == 1
    problem = assert_problem(move(client, created, 7, {"type": "reserve"}), 409, "stale-version")
    assert log_length(client, created) == 1


def test_illegal_move(client):
    created = create(client, seed="royal")
    problem = assert_problem(move(client, created, 0, {"type": "draw"}), 422, "illegal-move")
    assert problem["reason"] == "place the current card 6C before drawing"
    assert problem["legal_moves"] == [
        {"type": "attack", "column": "hearts"},
        {"type": "reserve"},
        {"type": "resign"},
    ]
    assert_problem(move(client, created, 0, {"type": "fly"}), 422, "illegal-move")
    assert log_length(client, created) == 0


@pytest.mark.parametrize(
    "body, slug",
    [
        ({"ruleset": "royal-assassin", "options": {"setup_royals": 13}}, "invalid-options"),
        ({"ruleset": "royal-assassin", "options": {"nope": True}}, "invalid-options"),
        ({"ruleset": "royal-assassin", "options": {"recycle_reserve": "yes"}}, "invalid-options"),
        ({"ruleset": "royal-assassin", "seed": "has space"}, "invalid-body"),
        ({"ruleset": "royal-assassin", "seed": "x" * 129}, "invalid-body"),
        ({"ruleset": "chess"}, "unknown-ruleset"),
        ({"ruleset": "royal-assassin", "colour": "red"}, "invalid-body"),
        ({}, "invalid-body"),
    ],
)
def test_bad_creation(client, body, slug):
    assert_problem(client.post("/v1/games", json=body), 422, slug)


def test_unknown_route_and_method(client):
    assert_problem(client.get("/v2/nothing"), 404, "not-found")
    r = client.delete("/v1/games")
    assert_problem(r, 405, "method-not-allowed")


# ---- idempotency and races ------------------------------------------------------------------


def test_idempotent_retry_returns_the_same_response(client):
    created = create(client, seed="royal")
    key = {"Idempotency-Key": "attack-1"}
    first = move(client, created, 0, {"type": "attack", "column": "hearts"}, key)
    second = move(client, created, 0, {"type": "attack", "column": "hearts"}, key)
    assert first.status_code == second.status_code == 201
    assert first.json == second.json
    assert log_length(client, created) == 1
    # Even after more moves, the retry still gets the original answer.
    view = first.json["view"]
    nxt = next(m for m in view["legal_moves"] if m["type"] != "resign")
    assert move(client, created, 1, nxt).status_code == 201
    third = move(client, created, 0, {"type": "attack", "column": "hearts"}, key)
    assert third.json == first.json and log_length(client, created) == 2


def test_idempotency_key_with_another_body(client):
    created = create(client, seed="royal")
    key = {"Idempotency-Key": "k"}
    assert move(client, created, 0, {"type": "attack", "column": "hearts"}, key).status_code == 201
    r = move(client, created, 0, {"type": "reserve"}, key)
    assert_problem(r, 422, "idempotency-key-reused")
    r = move(client, created, 1, {"type": "draw"}, key)
    assert_problem(r, 422, "idempotency-key-reused")
    assert log_length(client, created) == 1


def race(count, request):
    """Run `request()` on `count` threads released at once; their results, in finishing order."""
    results = []
    barrier = threading.Barrier(count)

    def racer():
        barrier.wait()
        results.append(request())

    threads = [threading.Thread(target=racer) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_racing_writers_one_wins(app):
    client = app.test_client()
    created = create(client, seed="royal")
    statuses = race(6, lambda: move(app.test_client(), created, 0, {"type": "reserve"}).status_code)
    assert sorted(statuses) == [201] + [409] * 5
    assert log_length(client, created) == 1


class RacingStore:
    """A real store whose appends land a moment late, so that every racer has loaded the
    game before the first write: the race a client's retry after a timeout runs into."""

    def __init__(self, inner, delay=0.05):
        self.inner, self.delay = inner, delay

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def append(self, *args, **kwargs):
        import time

        time.sleep(self.delay)
        return self.inner.append(*args, **kwargs)


def test_racing_retries_with_one_idempotency_key_all_get_the_original_answer(store):
    app = make_app(RacingStore(store))
    client = app.test_client()
    created = create(client, seed="royal")

    def retry():
        r = move(app.test_client(), created, 0, {"type": "reserve"}, {"Idempotency-Key": "once"})
        return r.status_code, r.get_data(as_text=True)

    responses = race(12, retry)
    assert len(responses) == 12 and len(set(responses)) == 1, sorted(set(responses))[:3]
    assert responses[0][0] == 201 and log_length(client, created) == 1
    # Same key, another body, in the same race: refused as before, nothing appended.
    r = move(client, created, 0, {"type": "draw"}, {"Idempotency-Key": "once"})
    assert_problem(r, 422, "idempotency-key-reused")
    assert log_length(client, created) == 1


# ---- the rest of the surface ----------------------------------------------------------------


def test_health_openapi_and_docs(client):
    assert client.get("/healthz").json == {"status": "ok"}
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and b"openapi: 3.1.0" in r.data
    page = client.get("/docs/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "swagger-ui" in html
    assert "http://" not in html.replace("http://localhost", "") and "https://" not in html
    assert client.get("/docs/swagger-ui-bundle.js").status_code == 200  # served locally


def test_cors(client):
    r = client.get("/healthz", headers={"Origin": "https://play.example"})
    assert r.headers["Access-Control-Allow-Origin"] in ("*", "https://play.example")
    pre = client.options(
        "/v1/games/x/moves",
        headers={
            "Origin": "https://play.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key",
        },
    )
    assert pre.status_code == 200
    assert "authorization" in pre.headers["Access-Control-Allow-Headers"].lower()


def test_cors_origins_are_configurable(tmp_path):
    from infra.sqlite_store import SqliteStore

    service = GameService(SqliteStore(str(tmp_path / "c.db")), fixed_clock, counting_secrets())
    client = create_app(service, cors_origins=["https://play.example"]).test_client()
    ok = client.get("/healthz", headers={"Origin": "https://play.example"})
    other = client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert "Access-Control-Allow-Origin" not in other.headers


def test_one_json_log_line_per_request(client, caplog):
    created = create(client)
    with caplog.at_level(logging.INFO, logger="royal_court.access"):
        client.get(f"/v1/games/{created['game']['id']}")
    line = json.loads(caplog.records[-1].getMessage())
    assert line["method"] == "GET" and line["status"] == 200
    assert line["game_id"] == created["game"]["id"] and line["ms"] >= 0
    with caplog.at_level(logging.INFO, logger="royal_court.access"):
        again = create(client)
    line = json.loads(caplog.records[-1].getMessage())
    assert line["path"] == "/v1/games" and line["game_id"] == again["game"]["id"]


def test_store_outage_is_a_503_with_retry_after(aws_credentials):
    # A real DynamoDB client pointed at a port where nothing listens.
    store = DynamoStore(make_client("http://127.0.0.1:9", "us-east-1"), "t")
    client = create_app(GameService(store, fixed_clock, counting_secrets())).test_client()
    r = client.post("/v1/games", json={"ruleset": "royal-assassin"})
    assert_problem(r, 503, "store-unavailable")
    assert r.headers["Retry-After"] == "1"


@pytest.mark.parametrize("game_id", ["x" * 3000, "%C3%A9t%C3%A9", "a.b", "GAME%23x"])
def test_ids_never_issued_are_404_on_every_store(store, game_id):
    client = make_app(store).test_client()
    assert_problem(client.get(f"/v1/games/{game_id}"), 404, "game-not-found")
    r = client.post(
        f"/v1/games/{game_id}/moves",
        json={"version": 0, "move": {"type": "draw"}},
        headers=auth("t"),
    )
    assert_problem(r, 404, "game-not-found")


def test_full_flow_on_every_store(store):
    client = make_app(store).test_client()
    created = create(client, seed="royal")
    assert move(client, created, 0, {"type": "attack", "column": "hearts"}).status_code == 201
    assert_problem(move(client, created, 0, {"type": "reserve"}), 409, "stale-version")
    r = move(client, created, 1, {"type": "resign"})
    assert r.status_code == 201 and r.json["game"]["status"] == "lost"
    assert r.json["game"]["seed"] == "royal"
    assert_problem(move(client, created, 2, {"type": "resign"}), 409, "game-finished")
    assert log_length(client, created) == 2


def test_adaman_over_http_to_the_end(client):
    rulesets = {r["id"] for r in client.get("/v1/rulesets").json["rulesets"]}
    assert {"royal-assassin", "adaman"} <= rulesets
    created = create(client, ruleset="adaman", options={"excuse": True})
    view, version = created["view"], 0
    assert set(view) >= {
        "capital",
        "palace",
        "resources",
        "controlled",
        "stock_count",
        "discard_count",
        "legal_moves",
        "outcome",
    }
    while view["status"] == "playing":
        real = [m for m in view["legal_moves"] if m["type"] != "resign"]
        r = move(client, created, version, real[-1])
        assert r.status_code == 201, r.json
        version, view = r.json["game"]["version"], r.json["view"]
    game = r.json["game"] if version else client.get(f"/v1/games/{created['game']['id']}").json
    assert view["outcome"]["result"] in ("won", "lost", "lost_utterly")
    assert_problem(move(client, created, version, {"type": "resign"}), 409, "game-finished")
    assert game


def test_adaman_illegal_control_names_the_reason(client):
    created = create(client, ruleset="adaman", seed="royal")
    r = move(client, created, 0, {"type": "control", "target": "sea", "with": ["ace-moons"]})
    problem = assert_problem(r, 422, "illegal-move")
    assert "sea" in problem["reason"] and problem["legal_moves"]


@pytest.mark.parametrize("key", ["", "k" * (IDEMPOTENCY_KEY_MAX + 1), "k" * 255])
def test_a_bad_idempotency_key(client, key):
    created = create(client, seed="royal")
    r = move(client, created, 0, {"type": "attack", "column": "hearts"}, {"Idempotency-Key": key})
    assert_problem(r, 400, "bad-idempotency-key")
    assert log_length(client, created) == 0


def test_the_longest_idempotency_key_is_kept_with_its_move(client):
    """64 characters, as a UUID (36) or a ULID (26) fits, retried to the same answer."""
    created = create(client, seed="royal")
    key = {"Idempotency-Key": "k" * IDEMPOTENCY_KEY_MAX}
    first = move(client, created, 0, {"type": "reserve"}, key)
    assert first.status_code == 201
    assert move(client, created, 0, {"type": "reserve"}, key).json == first.json
