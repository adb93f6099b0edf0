"""Hostile moves through the Flask app, for every ruleset: never a 5xx, nothing appended."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.registry import RULESETS
from domain.service import GameService
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets, fixed_clock, make_app
from tests.conformance.test_malformed_moves import hostile_moves


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from infra.sqlite_store import SqliteStore

    return SqliteStore(str(tmp_path_factory.mktemp("db") / "court.db"))


@pytest.fixture(scope="module")
def client(store):
    return make_app(store).test_client()


def dealt_by(store, seed):
    """An app whose next secret seed is `seed` (the rest fresh): a game of several seats takes
    no chosen seed, but hypothesis must see the same deal for the same draw."""
    first = iter([f"deal-{seed}"])
    secrets = counting_secrets()
    service = GameService(store, fixed_clock, lambda: next(first, None) or secrets())
    return create_app(service).test_client()


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
@settings(max_examples=60)
@given(data=st.data())
def test_hostile_moves_over_http_are_4xx_and_append_nothing(client, store, ruleset_id, data):
    ruleset = RULESETS[ruleset_id]
    seed = data.draw(st.text("abcdef0123", min_size=1, max_size=6), label="seed")
    body = {"ruleset": ruleset_id}
    if ruleset.deals_may_be_chosen:
        body["seed"] = seed
    else:  # a game of several seats deals only secret deals: the server's, drawn here
        client = dealt_by(store, seed)
    created = client.post("/v1/games", json=body).json
    gid, auth = created["game"]["id"], {"Authorization": f"Bearer {created['token']}"}
    version = 0
    for _ in range(data.draw(st.integers(0, 15), label="moves")):
        legal = [m for m in created["view"]["legal_moves"] if m["type"] != "resign"]
        if created["game"]["status"] != "playing" or not legal:
            break
        move = data.draw(st.sampled_from(legal))
        r = client.post(
            f"/v1/games/{gid}/moves", json={"version": version, "move": move}, headers=auth
        )
        assert r.status_code == 201
        created, version = r.json, version + 1
    legal = created["view"]["legal_moves"]
    move = data.draw(hostile_moves(ruleset, legal), label="move")
    r = client.post(f"/v1/games/{gid}/moves", json={"version": version, "move": move}, headers=auth)
    assert r.status_code < 500, r.get_data(as_text=True)
    if r.status_code != 201:
        assert 400 <= r.status_code < 500 and r.content_type == "application/problem+json"
        assert len(client.get(f"/v1/games/{gid}/moves").json["moves"]) == version
