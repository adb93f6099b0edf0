"""Records, verification, step-by-step replay, finished-game listings, shared deals and undo,
through the Flask app."""

import json

import pytest
from hypothesis import given, settings

from tests.api_helpers import make_app
from tests.conformance.test_malformed_moves import JSON_VALUES


@pytest.fixture
def client(tmp_path):
    from infra.sqlite_store import SqliteStore

    return make_app(SqliteStore(str(tmp_path / "court.db"))).test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, **body):
    body.setdefault("ruleset", "royal-assassin")
    r = client.post("/v1/games", json=body)
    assert r.status_code == 201, r.json
    return r.json


def play(client, created, move, version):
    r = client.post(
        f"/v1/games/{created['game']['id']}/moves",
        json={"version": version, "move": move},
        headers=auth(created["token"]),
    )
    return r


def play_to_the_end(client, created, pick=0):
    body, version = created, 0
    while body["game"]["status"] == "playing":
        real = [m for m in body["view"]["legal_moves"] if m["type"] not in ("resign", "undo")]
        r = play(client, created, real[(pick + version) % len(real)], version)
        assert r.status_code == 201, r.json
        body, version = r.json, version + 1
    return body, version


def problem(r, status, slug):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    assert r.content_type == "application/problem+json"
    assert r.json["type"].endswith(slug)
    return r.json


# ---- the record -----------------------------------------------------------------------------


def test_the_record_of_a_finished_game_downloads_and_verifies(client):
    created = create(client)
    final, version = play_to_the_end(client, created)
    gid = created["game"]["id"]
    r = client.get(f"/v1/games/{gid}/record")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"] == f'attachment; filename="royal-court-{gid}.json"'
    record = r.json
    assert list(record) == ["format", "id", "ruleset", "options", "seed_commitment", "seed",
                            "created_at", "moves", "status", "outcome"]  # fmt: skip
    assert record["format"] == "royal-court-record/2" and len(record["moves"]) == version
    assert record["seed"] == final["game"]["seed"] and record["outcome"] == final["game"]["outcome"]
    assert all(set(m) == {"seq", "seat", "move", "at", "hash", "salt"} for m in record["moves"])
    verdict = client.post("/v1/records/verify", json=record).json
    assert verdict["valid"] is True and verdict["moves"] == version
    assert final["game"]["share"]["record"] == f"/v1/games/{gid}/record"


def test_a_game_in_play_keeps_its_secret_seed_out_of_the_record(client):
    created = create(client)
    gid, token = created["game"]["id"], created["token"]
    assert play(client, created, {"type": "reserve"}, 0).status_code == 201
    for headers in ({}, auth(token)):
        record = client.get(f"/v1/games/{gid}/record", headers=headers).json
        assert "seed" not in record and record["status"] == "playing"
        assert created["game"]["seed_commitment"] == record["seed_commitment"]
    verdict = client.post("/v1/records/verify", json=record).json
    assert verdict["valid"] is False and verdict["problems"][0]["field"] == "seed"
    shared = create(client, seed="royal")
    assert client.get(f"/v1/games/{shared['game']['id']}/record").json["seed"] == "royal"
    other = create(client)
    r = client.get(f"/v1/games/{gid}/record", headers=auth(other["token"]))
    problem(r, 403, "wrong-token")


def test_verify_refuses_nothing_but_bad_json_and_huge_bodies(client):
    assert (
        client.post("/v1/records/verify", data=b"{", content_type="application/json").status_code
        == 400
    )
    big = b'{"pad": "' + b"x" * (1024 * 1024) + b'"}'
    problem(
        client.post("/v1/records/verify", data=big, content_type="application/json"),
        413,
        "body-too-large",
    )
    for hostile in ([], 7, None, "record", {"format": "royal-court-record/1"}, {"moves": [None]}):
        r = client.post(
            "/v1/records/verify", data=json.dumps(hostile), content_type="application/json"
        )
        assert r.status_code == 200 and r.json["valid"] is False and r.json["problems"]


@settings(max_examples=60)
@given(body=JSON_VALUES)
def test_any_json_to_verify_is_a_verdict(tmp_path_factory, body):
    from infra.sqlite_store import SqliteStore

    client = make_app(SqliteStore(str(tmp_path_factory.mktemp("v") / "c.db"))).test_client()
    r = client.post("/v1/records/verify", data=json.dumps(body), content_type="application/json")
    assert r.status_code == 200 and r.json["valid"] is False


# ---- replay step by step ----------------------------------------------------------------------


def test_a_finished_game_replays_step_by_step_for_anyone(client):
    created = create(client)
    _, version = play_to_the_end(client, created)
    gid = created["game"]["id"]
    first = client.get(f"/v1/games/{gid}/replay?at=0").json
    assert first["move"] is None and first["effects"] == [] and first["view"]["legal_moves"] == []
    assert len(first["deck"]) == 52  # the whole deal, public now that the seed is
    step = client.get(f"/v1/games/{gid}/replay?at=1").json
    assert step["move"]["seq"] == 1 and step["effects"] and step["version"] == version
    last = client.get(f"/v1/games/{gid}/replay?at={version}").json
    assert last["view"]["status"] != "playing"
    problem(client.get(f"/v1/games/{gid}/replay?at={version + 1}"), 422, "invalid-request")
    for bad in ("at=-1", "at=x", "", "at=1&extra=2"):
        assert client.get(f"/v1/games/{gid}/replay?{bad}").status_code == 422


def test_a_game_in_play_replays_only_for_its_seat_and_only_up_to_now(client):
    created = create(client)
    gid, token = created["game"]["id"], created["token"]
    assert play(client, created, {"type": "reserve"}, 0).status_code == 201
    problem(client.get(f"/v1/games/{gid}/replay?at=0"), 401, "token-required")
    step = client.get(f"/v1/games/{gid}/replay?at=1", headers=auth(token)).json
    assert step["view"]["legal_moves"] and "deck" not in step
    problem(client.get(f"/v1/games/{gid}/replay?at=2", headers=auth(token)), 422, "invalid-request")


# ---- listing finished games --------------------------------------------------------------------


def test_finished_games_are_listed_newest_first_in_pages(client):
    finished = []
    for i in range(5):
        created = create(client, ruleset="adaman" if i == 2 else "royal-assassin")
        play_to_the_end(client, created, pick=i)
        finished.append(created["game"]["id"])
    create(client)  # still being played: never listed
    seen, cursor = [], None
    while True:
        url = "/v1/games?status=finished&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url).json
        seen += [g["id"] for g in page["games"]]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(finished) and len(seen) == 5
    adaman = client.get("/v1/games?status=finished&ruleset=adaman").json["games"]
    assert [g["id"] for g in adaman] == [finished[2]] and adaman[0]["seed"]
    problem(client.get("/v1/games?status=playing"), 422, "invalid-body")
    problem(client.get("/v1/games"), 422, "invalid-body")
    problem(client.get("/v1/games?status=finished&limit=0"), 422, "invalid-body")
    problem(client.get("/v1/games?status=finished&cursor=garbage"), 422, "invalid-request")
    problem(client.get("/v1/games?status=finished&ruleset=chess"), 422, "unknown-ruleset")


# ---- shared deals --------------------------------------------------------------------------


def test_a_finished_games_deal_can_be_played_again(client):
    source = create(client)
    gid = source["game"]["id"]
    r = client.post("/v1/games", json={"ruleset": "royal-assassin", "from_game": gid})
    problem(r, 422, "invalid-request")  # still being played: its deal is secret
    final, _ = play_to_the_end(client, source)
    again = create(client, from_game=gid)
    assert again["game"]["seed_known"] is True and again["game"]["from_game"] == gid
    assert again["game"]["seed"] == final["game"]["seed"]
    assert again["game"]["options"] == source["game"]["options"]
    assert again["view"] == source["view"]  # the same deal, card for card
    record = client.get(f"/v1/games/{again['game']['id']}/record").json
    assert record["from_game"] == gid
    for body, slug in [
        ({"ruleset": "adaman", "from_game": gid}, "invalid-request"),
        ({"ruleset": "royal-assassin", "from_game": gid, "seed": "x"}, "invalid-request"),
        ({"ruleset": "royal-assassin", "from_game": "nope"}, "invalid-request"),
        ({"ruleset": "royal-assassin", "from_game": "../x"}, "invalid-body"),
    ]:
        problem(client.post("/v1/games", json=body), 422, slug)


# ---- undo ----------------------------------------------------------------------------------


def test_undo_in_a_casual_game(client):
    created = create(client, seed="royal", options={"undo": True})
    assert {"type": "undo"} not in created["view"]["legal_moves"]
    problem(play(client, created, {"type": "undo"}, 0), 422, "illegal-move")
    before = created["view"]
    after = play(client, created, {"type": "reserve"}, 0).json
    assert {"type": "undo"} in after["view"]["legal_moves"]
    undone = play(client, created, {"type": "undo"}, 1)
    assert undone.status_code == 201
    assert undone.json["effects"] == [{"type": "undo", "seat": 0, "move": {"type": "reserve"}}]
    view = dict(undone.json["view"])
    assert view.pop("undos") == 1 and before.pop("undos") == 0 and view == before
    moves = client.get(f"/v1/games/{created['game']['id']}/moves").json["moves"]
    assert [m["move"]["type"] for m in moves] == ["reserve", "undo"]  # the log keeps both


def test_no_undo_unless_the_game_allows_it(client):
    created = create(client, seed="royal")
    assert play(client, created, {"type": "reserve"}, 0).status_code == 201
    body = problem(play(client, created, {"type": "undo"}, 1), 422, "illegal-move")
    assert {"type": "undo"} not in body["legal_moves"]


def test_records_and_listings_on_every_store(store):
    client = make_app(store).test_client()
    created = create(client)
    play_to_the_end(client, created)
    gid = created["game"]["id"]
    record = client.get(f"/v1/games/{gid}/record").json
    assert client.post("/v1/records/verify", json=record).json["valid"] is True
    listed = client.get("/v1/games?status=finished&ruleset=royal-assassin").json["games"]
    assert [g["id"] for g in listed] == [gid]
