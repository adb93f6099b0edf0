"""Accounts through the Flask app, signed in against a real OpenID Connect issuer served over
HTTP (tests/oidc_issuer.py), never a stubbed verifier: every bad ID token is a 401, a ranked
daily is one per account, a guest attaches to an account, sessions sign out (docs/accounts.md).
"""

import base64
import json

import pytest

from domain.service import GameService
from handlers.http.app import create_app
from infra.oidc import REFETCH_SECONDS, OidcVerifier
from infra.sqlite_store import SqliteStore
from tests.api_helpers import SpecCheckedClient, counting_secrets
from tests.oidc_issuer import AUDIENCE, Issuer, SigningKey

TODAY = "2026-11-22"


@pytest.fixture(scope="module")
def issuer():
    running = Issuer()
    yield running
    running.close()


class Clock:
    """The verifier's clock (key refetches), moved by the tests."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def keys_clock():
    return Clock()


def app_for(store, identities, clock=lambda: f"{TODAY}T10:00:00.000Z"):
    service = GameService(store, clock, counting_secrets(), b"secret", identities=identities)
    app = create_app(service)
    app.test_client_class = SpecCheckedClient
    return app.test_client()


@pytest.fixture
def client(tmp_path, issuer, keys_clock, quick_deals):
    verifier = OidcVerifier(issuer.url, AUDIENCE, clock=keys_clock)
    return app_for(SqliteStore(str(tmp_path / "court.db")), verifier)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def sign_in(client, id_token, guest=None, **body):
    sent = body if id_token is None else {"id_token": id_token, **body}
    return client.post("/v1/sessions", json=sent, headers=auth(guest) if guest else {})


def test_a_person_signs_in_and_is_the_same_player_on_every_device(client, issuer):
    assert client.get("/v1/sign-in").json == {
        "available": True,
        "issuer": issuer.url,
        "audience": AUDIENCE,
        "authorization_endpoint": f"{issuer.url}/authorize",
    }
    first = sign_in(client, issuer.token("alice"), name="Alice")
    assert first.status_code == 201, first.json
    assert first.json["name"].startswith("Alice#")
    again = sign_in(client, issuer.token("alice"), name="Someone else")
    assert again.status_code == 201
    assert again.json["player_id"] == first.json["player_id"]
    assert again.json["name"] == first.json["name"]  # an account keeps its own name
    for created in (first, again):  # two devices, two sessions, both good
        me = client.get("/v1/me", headers=auth(created.json["token"]))
        assert me.status_code == 200 and me.json["signed_in"] is True and me.json["sessions"] == 2
    public = client.get(f"/v1/players/{first.json['player_id']}").json
    assert {k: public[k] for k in ("player_id", "name", "joined", "signed_in")} == {
        "player_id": first.json["player_id"], "name": first.json["name"],
        "joined": "2026-11-22T10:00:00.000Z", "signed_in": True}  # fmt: skip
    assert all(row["played"] == 0 for row in public["dailies"])
    other = sign_in(client, issuer.token("bob"))
    assert other.status_code == 201 and other.json["player_id"] != first.json["player_id"]
    assert other.json["name"].startswith("Player#")
    assert client.get("/v1/players/nobody").status_code == 404


def test_every_bad_id_token_is_refused_with_a_401_and_changes_nothing(client, issuer):
    outsider = SigningKey()  # a key the issuer does not publish
    used = issuer.token("carol")
    assert sign_in(client, used).status_code == 201
    bad = {
        "expired": issuer.token("dave", exp=1_000_000, iat=999_000),
        "not yet valid": issuer.token("dave", nbf=4_000_000_000),
        "wrong audience": issuer.token("dave", aud="someone-elses-app"),
        "several audiences, not this one as azp": issuer.token(
            "dave", aud=[AUDIENCE, "other"], azp="other"
        ),
        "wrong issuer": issuer.token("dave", iss="https://evil.example"),
        "unsigned (alg none)": issuer.unsigned("dave"),
        "HS256 keyed with the public key": issuer.signed_with_public_key_as_secret("dave"),
        "a key the issuer does not publish": issuer.token("dave", key=outsider),
        "a tampered payload": _tampered(issuer.token("dave")),
        "no subject": issuer.token(None),
        "no expiry": issuer.token("dave", exp=None),
        "an expiry that is not a number": issuer.token("dave", exp="9999999999"),
        "valid for years": issuer.token("dave", exp=4_000_000_000),
        "an ES256 header on an RSA key": issuer.token("dave", header={"alg": "ES256"}),
        "an EdDSA header on an RSA key": issuer.token("dave", header={"alg": "EdDSA"}),
        "an algorithm named at length": issuer.token("dave", header={"alg": "X" * 5000}),
        "replayed": used,
        "not a JWT": "not-a-jwt",
    }
    for why, token in bad.items():
        r = sign_in(client, token)
        assert r.status_code == 401, (why, r.json)
        assert r.json["type"] == "urn:royal-court:problem:sign-in-refused", why
        assert r.headers["WWW-Authenticate"].startswith("Bearer"), why
        assert len(r.get_data()) < 600 and "object" not in r.json["detail"], why
    # nothing was made by any of them: dave has no player, and his good token signs in once
    made = sign_in(client, issuer.token("dave"))
    assert made.status_code == 201
    assert client.get("/v1/me", headers=auth(made.json["token"])).json["sessions"] == 1
    assert sign_in(client, "x" * 9000).status_code == 422  # past the documented length


def _tampered(token):
    head, body, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["sub"] = "mallory"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{head}.{forged}.{signature}"


def test_keys_are_fetched_again_when_the_issuer_rotates_them_but_not_for_made_up_ones(
    client, issuer, keys_clock
):
    assert sign_in(client, issuer.token("erin")).status_code == 201
    fetched = issuer.fetches
    outsider = SigningKey()
    for n in range(20):  # made-up key ids: refused, and no fetch for each
        outsider.kid = f"made-up-{n}"
        assert sign_in(client, issuer.token("erin", key=outsider)).status_code == 401
    assert issuer.fetches == fetched
    rotated = SigningKey()
    issuer.published.append(rotated)
    try:
        keys_clock.now += REFETCH_SECONDS  # a minute on: an unknown key fetches them again
        assert sign_in(client, issuer.token("erin", key=rotated)).status_code == 201
        assert issuer.fetches == fetched + 1
    finally:
        issuer.published.remove(rotated)


def test_todays_ranked_daily_is_one_per_account_and_not_for_guests(client, issuer):
    guest = client.post("/v1/players", json={"name": "Guest"}).json
    r = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(guest["token"]))
    assert r.status_code == 403 and r.json["type"].endswith(":sign-in-required")
    alice = sign_in(client, issuer.token("alice")).json
    bob = sign_in(client, issuer.token("bob")).json
    first = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(alice["token"]))
    assert first.status_code == 201, first.json
    # the same person on another device is the same account: no second attempt
    again = sign_in(client, issuer.token("alice")).json
    second = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(again["token"]))
    assert second.status_code == 409 and second.json["game_id"] == first.json["game"]["id"]
    # another person ranks on their own
    other = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(bob["token"]))
    assert other.status_code == 201
    gid, seat = first.json["game"]["id"], auth(first.json["token"])
    client.post(f"/v1/games/{gid}/moves", headers=seat,
                json={"version": 0, "move": {"type": "resign"}})  # fmt: skip
    board = client.get(f"/v1/daily/{TODAY}/royal-assassin/leaderboard").json
    assert board["verified"] is True  # its players signed in, one attempt per account
    assert [e["player_id"] for e in board["entries"]] == [alice["player_id"]]  # a profile link


def test_a_guest_attaches_to_an_account_and_its_guest_token_then_stops(client, issuer):
    guest = client.post("/v1/players", json={"name": "Gus"}).json
    signed = sign_in(client, issuer.token("gus"), guest=guest["token"])
    assert signed.status_code == 201, signed.json
    assert signed.json["player_id"] == guest["player_id"] and signed.json["name"] == guest["name"]
    assert client.get("/v1/me", headers=auth(signed.json["token"])).json["signed_in"] is True
    assert client.get("/v1/me", headers=auth(guest["token"])).status_code == 403
    # a guest cannot join an account that has its player
    other = client.post("/v1/players", json={"name": "Other"}).json
    taken = sign_in(client, issuer.token("gus"), guest=other["token"])
    assert taken.status_code == 409 and taken.json["type"].endswith(":account-taken")
    assert client.get("/v1/me", headers=auth(other["token"])).json["signed_in"] is False


def test_a_player_renames_itself_and_keeps_its_tag(client, issuer):
    player = sign_in(client, issuer.token("rita"), name="Rita").json
    renamed = client.patch("/v1/me", json={"name": "Queen Rita"}, headers=auth(player["token"]))
    assert renamed.status_code == 200, renamed.json
    tag = player["name"].rsplit("#", 1)[1]
    assert renamed.json["name"] == f"Queen Rita#{tag}"
    assert client.get(f"/v1/players/{player['player_id']}").json["name"] == renamed.json["name"]
    bad = client.patch("/v1/me", json={"name": "x#1"}, headers=auth(player["token"]))
    assert bad.status_code == 422 and client.get("/v1/me", headers=auth(player["token"])).json[
        "name"] == renamed.json["name"]  # fmt: skip
    assert client.patch("/v1/me", json={"name": "Nobody"}).status_code == 401


def test_signing_out_ends_that_session_only_and_sessions_are_bounded(client, issuer):
    tokens = [sign_in(client, issuer.token("hana")).json["token"] for _ in range(9)]
    assert client.get("/v1/me", headers=auth(tokens[0])).status_code == 403  # the oldest went
    assert client.get("/v1/me", headers=auth(tokens[-1])).json["sessions"] == 8
    assert client.delete("/v1/sessions/current", headers=auth(tokens[-1])).status_code == 204
    gone = client.get("/v1/me", headers=auth(tokens[-1]))
    assert gone.status_code == 403 and gone.json["type"].endswith(":not-a-players-token")
    guest = client.post("/v1/players", json={"name": "Guest"}).json  # a guest has no session
    assert client.delete("/v1/sessions/current", headers=auth(guest["token"])).status_code == 422
    assert client.get("/v1/me", headers=auth(guest["token"])).status_code == 200
    assert client.get("/v1/me", headers=auth(tokens[-2])).json["sessions"] == 7
    assert client.delete("/v1/sessions/current").status_code == 401


def test_without_a_provider_there_is_no_sign_in_and_guests_rank(tmp_path, quick_deals):
    client = app_for(SqliteStore(str(tmp_path / "court.db")), None)
    assert client.get("/v1/sign-in").json == {"available": False}
    r = sign_in(client, "anything")
    assert r.status_code == 404 and r.json["type"].endswith(":no-sign-in")
    guest = client.post("/v1/players", json={"name": "Guest"}).json
    ranked = client.post(f"/v1/daily/{TODAY}/royal-assassin/games", headers=auth(guest["token"]))
    assert ranked.status_code == 201
    board = client.get(f"/v1/daily/{TODAY}/royal-assassin/leaderboard").json
    assert board["verified"] is False  # guests: the board says its players are unverified


def test_an_unreachable_provider_is_a_503_to_retry(tmp_path):
    gone = Issuer()
    gone.close()  # nothing listens there any more
    client = app_for(SqliteStore(str(tmp_path / "court.db")), OidcVerifier(gone.url, AUDIENCE))
    r = sign_in(client, gone.token("ivy"))
    assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0
    assert r.json["type"].endswith(":sign-in-unavailable") and gone.url not in r.json["detail"]


def test_first_sign_ins_of_one_account_at_once_make_one_player_and_lose_no_session(
    tmp_path, issuer, quick_deals
):
    import threading

    verifier = OidcVerifier(issuer.url, AUDIENCE)
    store = SqliteStore(str(tmp_path / "court.db"))
    tokens = [issuer.token("zoe") for _ in range(6)]
    answers: list = []

    def one(id_token):
        client = app_for(store, verifier)  # a client (and app) per thread, one store
        answers.append(sign_in(client, id_token))

    threads = [threading.Thread(target=one, args=(t,)) for t in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201] * 6
    assert len({a.json["player_id"] for a in answers}) == 1
    client = app_for(store, verifier)
    for answer in answers:  # six devices, six sessions: none lost to a race
        me = client.get("/v1/me", headers=auth(answer.json["token"]))
        assert me.status_code == 200 and me.json["sessions"] == 6


def test_a_profile_counts_each_solitaires_dailies_and_the_streak_of_days(
    tmp_path, issuer, quick_deals
):
    now = {"day": "2026-11-20"}
    store = SqliteStore(str(tmp_path / "court.db"))
    client = app_for(store, OidcVerifier(issuer.url, AUDIENCE),
                     clock=lambda: f"{now['day']}T10:00:00.000Z")  # fmt: skip
    player = sign_in(client, issuer.token("sam")).json
    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        now["day"] = day
        started = client.post(f"/v1/daily/{day}/royal-assassin/games",
                              headers=auth(player["token"])).json  # fmt: skip
        if day != "2026-11-22":  # today's is left unfinished: it breaks no streak yet
            gid = started["game"]["id"]
            done = client.post(f"/v1/games/{gid}/moves", headers=auth(started["token"]),
                               json={"version": 0, "move": {"type": "resign"}})  # fmt: skip
            assert done.status_code == 201, done.json
    public = client.get(f"/v1/players/{player['player_id']}").json
    mine = client.get("/v1/me", headers=auth(player["token"])).json
    assert mine["dailies"] == public["dailies"]
    row = next(r for r in public["dailies"] if r["ruleset"] == "royal-assassin")
    assert (row["played"], row["won"], row["lost"]) == (3, 0, 2)
    assert (row["current_streak"], row["best_streak"], row["badges"]) == (2, 2, [])
    now["day"] = "2026-11-24"  # a whole day missed: the streak is over, the best stays
    row = next(r for r in client.get(f"/v1/players/{player['player_id']}").json["dailies"]
               if r["ruleset"] == "royal-assassin")  # fmt: skip
    assert (row["current_streak"], row["best_streak"]) == (0, 2)
    others = [r for r in public["dailies"] if r["ruleset"] != "royal-assassin"]
    assert others and all(r["played"] == 0 and r["best_score"] is None for r in others)


def test_a_hanging_provider_holds_one_request_and_a_provider_down_leaves_the_kept_keys(
    client, issuer, keys_clock
):
    """A fetch of the keys holds only the request that makes it: others go on with the keys
    kept. A provider in an outage costs no sign-in the kept keys can check."""
    import threading

    assert sign_in(client, issuer.token("kim")).status_code == 201  # the keys kept
    fetched = issuer.fetches
    keys_clock.now += REFETCH_SECONDS  # an unknown key may fetch them again
    issuer.answering.clear()  # the provider hangs
    try:
        outsider = SigningKey()
        waiting = threading.Thread(target=sign_in, args=(client, issuer.token("kim", key=outsider)))
        waiting.start()
        while issuer.fetches == fetched:  # the fetch is under way, and hangs
            threading.Event().wait(0.01)
        assert sign_in(client, issuer.token("kim")).status_code == 201  # not held by it
    finally:
        issuer.answering.set()
    waiting.join()
    issuer.down = True
    try:
        keys_clock.now += 24 * 3600  # the kept keys are old: fetched again, and it fails
        assert sign_in(client, issuer.token("kim")).status_code == 201  # the kept ones check
    finally:
        issuer.down = False


def test_a_guest_that_loses_a_race_to_an_account_keeps_its_id_token_unused(client, issuer):
    guest = client.post("/v1/players", json={"name": "Gail"}).json
    assert sign_in(client, issuer.token("gail"), guest=guest["token"]).status_code == 201
    later = issuer.token("gail2")  # this person's token, tried with a guest already attached
    r = sign_in(client, later, guest=guest["token"])
    assert r.status_code in (403, 409)
    assert sign_in(client, later).status_code == 201  # not used up by the refusal


def test_a_web_page_back_from_the_providers_sign_in_signs_in_with_its_code(client, issuer):
    """The code flow with PKCE: the page sends the person to the provider, comes back with a
    code, and this server gets its ID token (once: a code is spent when used)."""
    import hashlib
    from urllib.parse import parse_qsl, urlencode, urlsplit
    from urllib.request import HTTPRedirectHandler, build_opener

    verifier = "v" * 50
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    back = "http://127.0.0.1:1/signed-in"

    def sign_in_page():  # what a browser does at the provider: follow it to the redirect
        ask = {"response_type": "code", "client_id": AUDIENCE, "redirect_uri": back,
               "scope": "openid", "state": "s1", "code_challenge_method": "S256",
               "code_challenge": challenge.rstrip(b"=").decode()}  # fmt: skip
        where = client.get("/v1/sign-in").json["authorization_endpoint"]

        class Stop(HTTPRedirectHandler):
            def redirect_request(self, req, fp, code, msg, headers, newurl):
                raise AssertionError(newurl)

        try:
            build_opener(Stop).open(f"{where}?{urlencode(ask)}")
        except AssertionError as e:
            return dict(parse_qsl(urlsplit(str(e)).query))["code"]

    guest = client.post("/v1/players", json={"name": "Wes"}).json
    code = sign_in_page()
    wrong = sign_in(client, None, code=code, code_verifier="w" * 50, redirect_uri=back)
    assert wrong.status_code == 401  # the provider refuses a code without its verifier
    code = sign_in_page()
    made = client.post(
        "/v1/sessions",
        json={"code": code, "code_verifier": verifier, "redirect_uri": back},
        headers=auth(guest["token"]),
    )
    assert made.status_code == 201, made.json
    assert made.json["player_id"] == guest["player_id"]  # the guest became the account's
    again = client.post("/v1/sessions", json={"code": code, "code_verifier": verifier,
                                              "redirect_uri": back})  # fmt: skip
    assert again.status_code == 401  # spent
    both = client.post("/v1/sessions", json={"id_token": "x", "code": code})
    assert both.status_code == 422


def test_a_provider_down_is_asked_at_most_once_a_minute_whatever_is_asked_of_this_server(
    tmp_path, issuer, keys_clock
):
    verifier = OidcVerifier(issuer.url, AUDIENCE, clock=keys_clock)
    client = app_for(SqliteStore(str(tmp_path / "court.db")), verifier)
    issuer.down = True  # its keys answer 503
    try:
        fetched = issuer.fetches
        answers = [client.get("/v1/sign-in").status_code for _ in range(5)]
        answers += [sign_in(client, issuer.token("lou")).status_code for _ in range(5)]
        assert answers[0] == 503 and set(answers[5:]) == {503}
        assert issuer.fetches == fetched + 1  # one try, then a minute's pause
        keys_clock.now += REFETCH_SECONDS
        issuer.down = False
        assert sign_in(client, issuer.token("lou")).status_code == 201
    finally:
        issuer.down = False
