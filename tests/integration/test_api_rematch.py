"""A finished game's rematch through the Flask app (each response held to openapi.yaml): the
same seats and a new deal, the other seat joining with its old token, the race of both seats
asking at once, every refusal (changing nothing), the pointer in the game JSON and its ETag,
secrecy, the per-client limit, and the same route through the Lambda entry."""

import threading
import time

import pytest

from domain.deal import seed_commitment
from domain.stored import DailyDeal
from domain.usecases.court import token_digest
from handlers.http.app import create_app
from tests.api_helpers import make_app, make_service
from tests.integration.test_api import assert_problem, auth, race
from tests.integration.test_api_two_seats import RAA, create, join
from tests.integration.test_lambda import body_of, event, handler  # noqa: F401 (a fixture)

RESIGN = {"type": "resign"}


@pytest.fixture
def sqlite_store(tmp_path):
    from infra.sqlite_store import SqliteStore

    return SqliteStore(str(tmp_path / "court.db"))


@pytest.fixture
def client(sqlite_store):
    return make_app(sqlite_store).test_client()


def finished(client, ruleset=RAA):
    """Both seats joined, seat 0 resigned: (game id, [token of seat 0, token of seat 1])."""
    created = create(client, ruleset=ruleset)
    gid = created["game"]["id"]
    joined = join(client, created)
    assert joined.status_code == 201
    r = client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": RESIGN},
                    headers=auth(created["token"]))  # fmt: skip
    assert r.status_code == 201 and r.json["game"]["outcome"] is not None
    return gid, [created["token"], joined.json["token"]]


def rematch(client, gid, token=None, **headers):
    return client.post(f"/v1/games/{gid}/rematch", headers={**auth(token), **headers}
                       if token else headers)  # fmt: skip


def test_same_seats_new_deal_and_the_other_joins_with_its_old_token(client, sqlite_store):
    gid, tokens = finished(client)
    old = client.get(f"/v1/games/{gid}").json["game"]
    r = rematch(client, gid, tokens[1])
    assert r.status_code == 201, r.json
    body = r.json
    rid = body["game"]["id"]
    assert r.headers["Location"] == f"/v1/games/{rid}" and r.headers["ETag"] == '"0"'
    assert body["seat"] == 1 and body["invites"] == [] and body["view"]["seat"] == 1
    assert body["token"] not in tokens and rid != gid
    game = body["game"]
    assert (game["ruleset"], game["options"]) == (old["ruleset"], old["options"])
    assert not game["seed_known"] and "seed" not in game and game["status"] == "playing"
    assert game["seed_commitment"] != old["seed_commitment"]
    assert [s["joined"] for s in game["seats"]] == [False, True]
    stored = sqlite_store.load(rid).record
    assert game["seed_commitment"] == seed_commitment(stored.seed)
    assert stored.seats[0].invite_hash == token_digest(tokens[0])  # the old token's hash
    # The finished game points at it, for every requester.
    pointer = {"game_id": rid, "game": f"/v1/games/{rid}"}
    for token in (None, tokens[0], tokens[1]):
        read = client.get(f"/v1/games/{gid}", headers=auth(token) if token else {})
        assert read.json["game"]["rematch"] == pointer
    assert "rematch" not in client.get(f"/v1/games/{rid}").json["game"]
    # The other seat takes seat 0 with its OLD token as the invite, once.
    r = client.post(f"/v1/games/{rid}/seats/0", json={"invite": tokens[0]})
    assert r.status_code == 201 and r.json["seat"] == 0
    mine = r.json["token"]
    assert mine not in tokens and mine != body["token"]
    assert all(s["joined"] for s in r.json["game"]["seats"])
    assert_problem(client.post(f"/v1/games/{rid}/seats/0", json={"invite": tokens[0]}),
                   409, "seat-taken")  # fmt: skip
    # Both play the rematch with their new tokens; the old ones are not its tokens.
    move = {"type": "choose_suit", "suit": "clubs"}
    r = client.post(f"/v1/games/{rid}/moves", json={"version": 0, "move": move},
                    headers=auth(tokens[0]))  # fmt: skip
    assert_problem(r, 403, "wrong-token")
    r = client.post(f"/v1/games/{rid}/moves", json={"version": 0, "move": move},
                    headers=auth(mine))  # fmt: skip
    assert r.status_code == 201 and r.json["game"]["version"] == 1


def test_the_second_to_ask_is_seated_and_a_third_ask_is_a_clear_409(client):
    gid, tokens = finished(client)
    first = rematch(client, gid, tokens[0]).json
    second = rematch(client, gid, tokens[1])
    assert second.status_code == 201
    assert second.json["game"]["id"] == first["game"]["id"] and second.json["seat"] == 1
    assert second.json["token"] not in (first["token"], *tokens)
    for token in tokens:
        body = assert_problem(rematch(client, gid, token), 409, "seat-taken")
        assert first["game"]["id"] in body["detail"]
    assert client.get(f"/v1/games/{gid}").json["game"]["rematch"]["game_id"] == first["game"]["id"]


class SlowRematches:
    """A real store whose rematches land a moment late, so that both seats have read the
    finished game (no rematch yet) before either writes: the race of two clicks at once. It
    notes every rematch id a request tried to create."""

    def __init__(self, inner, delay=0.2):
        self.inner, self.delay, self.tried = inner, delay, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def create_rematch(self, game_id, record, replacing):
        self.tried.append(record.id)
        time.sleep(self.delay)
        return self.inner.create_rematch(game_id, record, replacing)


def test_both_seats_asking_at_once_make_one_rematch_and_both_get_a_seat(store, request):
    if request.node.callspec.params["store"] == "moto":
        pytest.skip("moto is not thread-safe: the race runs on DynamoDB Local")
    slow = SlowRematches(store)
    app = make_app(slow)
    gid, tokens = finished(app.test_client())
    answers = race(2, lambda: rematch(app.test_client(), gid, tokens.pop()))
    assert sorted(a.status_code for a in answers) == [201, 201], [a.json for a in answers]
    [rid] = {a.json["game"]["id"] for a in answers}
    assert sorted(a.json["seat"] for a in answers) == [0, 1]
    assert len(slow.tried) == 2 and rid in slow.tried  # both dealt one; one was stored
    assert [store.load(i) is not None for i in slow.tried].count(True) == 1
    assert store.load(gid).record.rematch == rid
    record = store.load(rid).record
    assert sorted(record.token_hashes) == [0, 1]
    assert {token_digest(a.json["token"]) for a in answers} == set(record.token_hashes.values())


def test_refusals_are_problems_and_change_nothing(client, sqlite_store):
    created = create(client)
    gid = created["game"]["id"]
    other = finished(client)

    def unchanged():
        return client.get(f"/v1/games/{gid}").get_data(), sqlite_store.load(gid).record

    before = unchanged()
    assert_problem(rematch(client, gid), 401, "token-required")
    r = client.post(f"/v1/games/{gid}/rematch", headers={"Authorization": "Basic eA=="})
    assert_problem(r, 401, "token-required")
    assert_problem(rematch(client, gid, "not-a-token"), 403, "wrong-token")
    assert_problem(rematch(client, gid, other[1][0]), 403, "wrong-token")  # another game's
    assert_problem(rematch(client, "nope", created["token"]), 404, "game-not-found")
    assert_problem(rematch(client, "no/such", created["token"]), 404)
    body = assert_problem(rematch(client, gid, created["token"]), 409, "no-rematch")
    assert "still being played" in body["detail"]
    assert client.get(f"/v1/games/{gid}/rematch").status_code == 405
    assert unchanged() == before
    # A ranked daily attempt, finished: never.
    sqlite_store.save_daily(DailyDeal("2026-11-22", "royal-assassin", "day-seed",
                                      seed_commitment("day-seed"), 0, 2, 3, 10, {}))  # fmt: skip
    player = client.post("/v1/players", json={"name": "Anne"}).json
    ranked = client.post("/v1/daily/2026-11-22/royal-assassin/games",
                         headers=auth(player["token"])).json  # fmt: skip
    rid = ranked["game"]["id"]
    r = client.post(f"/v1/games/{rid}/moves", json={"version": 0, "move": RESIGN},
                    headers=auth(ranked["token"]))  # fmt: skip
    assert r.status_code == 201
    body = assert_problem(rematch(client, rid, ranked["token"]), 409, "no-rematch")
    assert "ranked daily attempt" in body["detail"]
    assert sqlite_store.load(rid).record.rematch is None


def test_a_solitaire_has_one_too_with_a_secret_seed(client):
    created = create(client, ruleset="royal-assassin", seed="royal")
    gid = created["game"]["id"]
    client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": RESIGN},
                headers=auth(created["token"]))  # fmt: skip
    r = rematch(client, gid, created["token"])
    assert r.status_code == 201 and r.json["seat"] == 0
    assert "seed" not in r.json["game"] and not r.json["game"]["seed_known"]
    assert_problem(rematch(client, gid, created["token"]), 409, "seat-taken")


def test_a_read_is_not_304_over_the_pointer(client):
    gid, tokens = finished(client)
    before = client.get(f"/v1/games/{gid}")
    assert before.headers["ETag"] == '"1"'
    assert client.get(f"/v1/games/{gid}", headers={"If-None-Match": '"1"'}).status_code == 304
    rematch(client, gid, tokens[0])
    after = client.get(f"/v1/games/{gid}", headers={"If-None-Match": '"1"'})
    assert after.status_code == 200 and after.headers["ETag"] == '"1r"'
    assert "rematch" in after.json["game"]
    again = client.get(f"/v1/games/{gid}?wait=0.1", headers={"If-None-Match": '"1r"'})
    assert again.status_code == 304 and again.headers["ETag"] == '"1r"'


def test_no_response_holds_the_new_seed_or_another_seats_token(client, sqlite_store):
    """Every response of a rematch's story, to each seat and a spectator: none holds the
    rematch's seed or chain key, nor a token of a seat other than its requester's."""
    gid, tokens = finished(client)
    seen = []  # (requester seat or None, response text with its headers)

    def keep(seat, r):
        seen.append((seat, r.get_data(as_text=True) + str(dict(r.headers))))
        return r

    first = keep(1, rematch(client, gid, tokens[1]))
    rid = first.json["game"]["id"]
    second = keep(0, rematch(client, gid, tokens[0]))
    new_tokens = {0: second.json["token"], 1: first.json["token"]}
    for seat in (0, 1, None):
        headers = auth(new_tokens[seat]) if seat is not None else {}
        old_headers = auth(tokens[seat]) if seat is not None else {}
        for path in ("", "/moves", "/record", "/replay?at=0", "/events?wait=0"):
            keep(seat, client.get(f"/v1/games/{rid}{path}", headers=headers))
            keep(seat, client.get(f"/v1/games/{gid}{path}", headers=old_headers))
        keep(seat, client.get("/v1/games?status=finished"))
    for seat in (0, 1):
        keep(seat, rematch(client, gid, tokens[seat]))  # the 409s
    record = sqlite_store.load(rid).record
    for seat, text in seen:
        assert record.seed not in text and record.chain_key not in text
        assert sqlite_store.load(gid).record.chain_key not in text
        for other in (0, 1):
            if other != seat:
                assert tokens[other] not in text and new_tokens[other] not in text
    assert len(seen) == 2 + 3 * 11 + 2


def test_rematches_count_as_games_against_the_per_client_limit(tmp_path):
    from infra.sqlite_store import SqliteStore

    app = create_app(make_service(store=SqliteStore(str(tmp_path / "c.db"))), games_per_minute=3)
    client = app.test_client()
    gid, tokens = finished(client)  # one game made
    assert rematch(client, gid, tokens[0]).status_code == 201  # the second
    assert rematch(client, gid, tokens[1]).status_code == 201  # the third
    r = rematch(client, gid, tokens[1])
    assert_problem(r, 429, "too-many-requests") and r.headers["Retry-After"]


# ---- the Lambda entry --------------------------------------------------------------------------


def test_a_rematch_through_lambda(handler):  # noqa: F811
    made = body_of(handler(event("POST", "/v1/games", {"ruleset": RAA}), None))
    gid, alice = made["game"]["id"], made["token"]
    seat = f"/v1/games/{gid}/seats/1"
    bob = body_of(handler(event("POST", seat, {"invite": made["invites"][0]["invite"]}), None))
    resign = {"version": 0, "move": RESIGN}
    bearer = {"authorization": f"Bearer {alice}"}
    resigned = handler(event("POST", f"/v1/games/{gid}/moves", resign, bearer), None)
    assert resigned["statusCode"] == 201
    dealt = handler(event("POST", f"/v1/games/{gid}/rematch", None, bearer), None)
    assert dealt["statusCode"] == 201, body_of(dealt)
    rid = body_of(dealt)["game"]["id"]
    assert dealt["headers"]["location"] == f"/v1/games/{rid}"
    read = body_of(handler(event("GET", f"/v1/games/{gid}"), None))
    assert read["game"]["rematch"] == {"game_id": rid, "game": f"/v1/games/{rid}"}
    joined = handler(event("POST", f"/v1/games/{rid}/seats/1", {"invite": bob["token"]}), None)
    assert joined["statusCode"] == 201 and body_of(joined)["seat"] == 1


def test_a_long_poll_of_a_finished_game_wakes_for_its_rematch(client, monkeypatch):
    """A finished game's one change is its rematch, which is no new version: a seat waiting
    on the game's ETag learns of it within the wait, not at the wait's end as a 304."""
    monkeypatch.setattr("handlers.http.app.FINISHED_POLL_SECONDS", 0.05)
    gid, tokens = finished(client)
    dealt = []
    timer = threading.Timer(0.3, lambda: dealt.append(rematch(client, gid, tokens[0])))
    timer.start()
    try:
        waited = client.get(f"/v1/games/{gid}?wait=20", headers={"If-None-Match": '"1"'})
    finally:
        timer.join()
    assert dealt[0].status_code == 201
    assert waited.status_code == 200 and waited.headers["ETag"] == '"1r"'
    assert waited.json["game"]["rematch"]["game_id"] == dealt[0].json["game"]["id"]


def test_a_finished_games_open_seat_can_no_longer_be_taken(client, sqlite_store):
    """Its seat would have nothing to play; the invite still takes the seat in the rematch."""
    created = create(client)
    gid = created["game"]["id"]
    invite = next(i["invite"] for i in created["invites"] if i["seat"] == 1)
    r = client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": RESIGN},
                    headers=auth(created["token"]))  # fmt: skip
    assert r.status_code == 201
    before = sqlite_store.load(gid).record
    assert_problem(join(client, created, invite=invite), 409, "game-finished")
    assert sqlite_store.load(gid).record == before
    rid = rematch(client, gid, created["token"]).json["game"]["id"]
    taken = client.post(f"/v1/games/{rid}/seats/1", json={"invite": invite})
    assert taken.status_code == 201 and taken.json["seat"] == 1


def test_a_body_past_the_limit_is_a_413_where_none_is_read(client):
    gid, tokens = finished(client)
    big = b"x" * (16 * 1024 + 1)
    r = client.post(f"/v1/games/{gid}/rematch", data=big, headers=auth(tokens[0]))
    assert_problem(r, 413, "body-too-large")
    assert "rematch" not in client.get(f"/v1/games/{gid}").json["game"]
    r = client.post("/v1/daily/2026-11-22/royal-assassin/games", data=big, headers=auth("x"))
    assert_problem(r, 413, "body-too-large")
