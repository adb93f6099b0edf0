"""Caching and framing headers through the Flask app (issue 27, item 11).

Every /v1 answer may carry a token or a seat's private view, or depends on who asks: none may
be kept by a cache (`Cache-Control: no-store`), and any cache must key it by the
Authorization header (`Vary: Authorization`), merged with flask-cors's `Vary: Origin`.
Swagger UI (`/docs`) may not be framed.
"""

import base64
import hashlib
import re

import pytest

from domain.service import GameService
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets, fixed_clock
from tests.integration.test_api import assert_problem, auth

TODAY = fixed_clock()[:10]


@pytest.fixture
def service(tmp_path):
    from infra.sqlite_store import SqliteStore

    store = SqliteStore(str(tmp_path / "court.db"))
    return GameService(store, fixed_clock, counting_secrets(), b"test-daily-secret")


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def private(r, status=None):
    """The answer is kept by no cache and varies with the Authorization header."""
    if status is not None:
        assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    assert r.headers.get("Cache-Control") == "no-store", (r.request.path, r.headers)
    assert len(r.headers.getlist("Vary")) == 1, r.headers.getlist("Vary")
    names = [v.strip().lower() for v in r.headers["Vary"].split(",")]
    assert "authorization" in names and len(names) == len(set(names)), names
    return r


def test_every_answer_with_a_token_or_a_private_view_is_no_store(client):
    created = private(client.post("/v1/games", json={"ruleset": "royal-assassin"}), 201).json
    gid, token = created["game"]["id"], created["token"]
    assert created["token"]  # what no cache may keep
    private(client.get(f"/v1/games/{gid}", headers=auth(token)), 200)
    private(client.get(f"/v1/games/{gid}"), 200)  # a spectator's view varies by the header too
    private(client.get(f"/v1/games/{gid}", headers={**auth(token), "If-None-Match": '"0"'}), 304)
    legal = client.get(f"/v1/games/{gid}", headers=auth(token)).json["view"]["legal_moves"]
    move = next(m for m in legal if m["type"] != "resign")
    r = client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": move},
                    headers=auth(token))  # fmt: skip
    private(r, 201)
    private(client.get(f"/v1/games/{gid}/moves", headers=auth(token)), 200)
    private(client.get(f"/v1/games/{gid}/moves"), 200)
    private(client.get(f"/v1/games/{gid}/record", headers=auth(token)), 200)
    private(client.get(f"/v1/games/{gid}/replay?at=1", headers=auth(token)), 200)


def test_a_join_is_no_store(client):
    created = client.post("/v1/games", json={"ruleset": "royal-ace-assin"}).json
    invite = created["invites"][0]
    r = client.post(f"/v1/games/{created['game']['id']}/seats/{invite['seat']}",
                    json={"invite": invite["invite"]})  # fmt: skip
    assert private(r, 201).json["token"]


def test_players_daily_attempts_and_leaderboards_are_no_store(client):
    player = private(client.post("/v1/players", json={"name": "Anne"}), 201).json
    r = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(player["token"]))
    assert private(r, 201).json["token"]
    r = client.get(f"/v1/daily/{TODAY}/royal-assassin/leaderboard", headers=auth(player["token"]))
    private(r, 200)
    private(client.get(f"/v1/daily/{TODAY}/royal-assassin/leaderboard"), 200)


def test_errors_and_listings_of_the_api_are_no_store_too(client):
    private(assert_problem_response(client.get("/v1/games/nope"), 404))
    private(assert_problem_response(client.post("/v1/games", data="{"), 400))
    private(client.get("/v1/rulesets"), 200)
    private(client.get("/v1/games?status=finished"), 200)
    # Outside the API: the health check, the spec and the web client keep their own rules.
    assert "Cache-Control" not in client.get("/healthz").headers
    assert "no-store" not in client.get("/openapi.yaml").headers.get("Cache-Control", "")


def assert_problem_response(r, status):
    assert_problem(r, status)
    return r


def test_vary_keeps_origin_and_authorization_in_one_header(service):
    client = create_app(
        service, cors_origins=["https://a.example", "https://b.example"]
    ).test_client()
    created = client.post("/v1/games", json={"ruleset": "royal-assassin"}).json
    r = client.get(
        f"/v1/games/{created['game']['id']}",
        headers={**auth(created["token"]), "Origin": "https://b.example"},
    )
    private(r, 200)
    assert r.headers["Access-Control-Allow-Origin"] == "https://b.example"
    names = {v.strip() for v in r.headers["Vary"].split(",")}
    assert names == {"Origin", "Authorization"}
    preflight = client.options(
        f"/v1/games/{created['game']['id']}/moves",
        headers={"Origin": "https://a.example", "Access-Control-Request-Method": "POST"},
    )
    assert len(preflight.headers.getlist("Vary")) == 1 and "Origin" in preflight.headers["Vary"]


def test_swagger_ui_cannot_be_framed_and_runs_only_its_own_scripts(client):
    page = client.get("/docs/")
    assert page.status_code == 200 and "swagger-ui" in page.get_data(as_text=True)
    assert page.headers["X-Frame-Options"] == "DENY"
    csp = page.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in directives["script-src"]
    # The page's one inline script runs because its hash is listed, and nothing else inline.
    inline = re.findall(rb"<script>(.*?)</script>", page.data, re.S)
    assert inline
    for body in inline:
        digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
        assert f"'sha256-{digest}'" in directives["script-src"]
    asset = client.get("/docs/swagger-ui-bundle.js")
    assert asset.status_code == 200 and asset.headers["X-Frame-Options"] == "DENY"


def test_game_reads_link_the_push_websocket_where_the_deploy_offers_one(service):
    """On AWS (ROYAL_PUSH_URL) a game read links the WebSocket to wait on, the web client's CSP
    lets the page open it, and a browser on another origin may read the link (CORS)."""
    push = "wss://f9g8h7j6k5.execute-api.us-east-1.amazonaws.com/prod"
    linked = create_app(service, push_url=push).test_client()
    created = linked.post("/v1/games", json={"ruleset": "royal-assassin-duel"}).json
    gid, token = created["game"]["id"], created["token"]
    for headers in (auth(token), {}, {**auth(token), "If-None-Match": '"1"'}):
        r = linked.get(f"/v1/games/{gid}", headers={**headers, "Origin": "https://x.example"})
        assert r.status_code in (200, 304)
        assert r.headers["Link"] == f'<{push}?game={gid}>; rel="push"'
        assert "Link" in r.headers["Access-Control-Expose-Headers"]
    page = linked.get("/play").headers["Content-Security-Policy"]
    assert "connect-src 'self' wss://f9g8h7j6k5.execute-api.us-east-1.amazonaws.com;" in page
    plain = create_app(service).test_client()
    assert "Link" not in plain.get(f"/v1/games/{gid}", headers=auth(token)).headers
    assert "connect-src 'self';" in plain.get("/play").headers["Content-Security-Policy"]
