"""Risus Royale through the Flask app: a whole game from the view alone, every roll in the
effects and re-derivable from the revealed seed, the record verified, malformed moves refused
with nothing changed, a daily challenge, and no face-down card in any response while playing."""

import json
import os

import pytest

from domain.deal import DealRandom
from domain.games.risus_royale import RISUS_ROYALE as RR
from domain.games.risus_royale.bots import best_choice, random_choice
from domain.replay import replay
from tests.api_helpers import make_app
from tests.fakes import InMemoryStore
from tests.helpers import RISUS_VECTORS, strings_in

GAMES = int(os.environ.get("ROYAL_RISUS_SECRECY_GAMES", "24"))
"""Random games are long (about 300 moves): 24 games are some 7,000 responses checked."""


@pytest.fixture
def store(tmp_path):
    from infra.sqlite_store import SqliteStore

    return SqliteStore(str(tmp_path / "court.db"))


@pytest.fixture
def client(store):
    return make_app(store).test_client()


def create(client, **body):
    r = client.post("/v1/games", json={"ruleset": "risus-royale", **body})
    assert r.status_code == 201, r.json
    return r.json


def post(client, created, version, move):
    return client.post(
        f"/v1/games/{created['game']['id']}/moves",
        json={"version": version, "move": move},
        headers={"Authorization": f"Bearer {created['token']}"},
    )


def play_out(client, created, choose, on_response=None):
    """Play from the view alone until the game ends; returns the last body and every effect."""
    body, effects = created, []
    rng = DealRandom("api-test", "bot")
    while body["view"]["status"] == "playing":
        r = post(client, created, body["game"]["version"], choose(body["view"], rng))
        assert r.status_code == 201, r.json
        if on_response is not None:
            on_response(r)
        body = r.json
        effects += body["effects"]
    return body, effects


def test_listed_with_its_options_and_moves(client):
    listed = {r["id"]: r for r in client.get("/v1/rulesets").json["rulesets"]}
    risus = listed["risus-royale"]
    assert risus["seats"] == {"min": 1, "max": 1}
    assert {o["name"] for o in risus["options"]} >= {"points", "opponent_bonus"}


def test_a_whole_game_over_http_with_every_roll_from_the_revealed_seed(client):
    created = create(client, options={"points": 12})
    assert created["view"]["phase"] == "create" and len(created["view"]["legal_moves"]) == 32
    final, effects = play_out(client, created, best_choice)
    game = final["game"]
    assert game["status"] in ("won", "lost")
    assert final["view"]["outcome"]["result"] == game["status"]
    rolled = []
    for effect in effects:
        if effect["type"] == "roll":
            rolled += effect.get("dice", []) + effect.get("player", []) + effect.get("foe", [])
    assert len(rolled) == final["view"]["dice_rolled"] > 0
    stream = DealRandom(game["seed"], "dice")  # revealed at the end
    assert rolled == [stream.uniform(6) + 1 for _ in rolled]
    record = client.get(f"/v1/games/{game['id']}/record").json
    verdict = client.post("/v1/records/verify", json=record).json
    assert verdict["valid"] is True, verdict
    moves = [(m["seat"], m["move"]) for m in record["moves"]]
    again = replay(RR, record["seed"], record["options"], moves).state
    assert RR.view(again, 0) == final["view"]


def test_the_shared_seed_plays_the_spec_vector(client):
    lines = RISUS_VECTORS.read_text().splitlines()
    vector = next(v for v in map(json.loads, lines) if v["name"] == "magic-aura")
    given = vector["input"]
    created = create(client, seed=given["seed"], options=given["options"])
    body = created
    for move in given["moves"]:
        r = post(client, created, body["game"]["version"], move)
        assert r.status_code == 201, r.json
        body = r.json
    assert body["view"] == vector["view"]
    spectator = client.get(f"/v1/games/{created['game']['id']}").json
    assert spectator["view"] == dict(vector["view"], legal_moves=[])


@pytest.mark.parametrize(
    "move",
    [
        {"type": "create", "cliches": {"spades": 4, "clubs": 4, "diamonds": 1, "hearts": [1]}},
        {"type": "create", "cliches": {"spades": 4, "clubs": 4, "diamonds": 1}},
        {"type": "create", "cliches": [4, 4, 1, 1]},
        {"type": "create", "cliches": {"spades": 4, "clubs": 4, "diamonds": 1, "hearts": 1.0}},
        {"type": "enter", "pile": [0, 0, 0]},
        {"type": "enter", "pile": [[0], 0]},
        {"type": "round", "cliche": None},
        {"type": "declare", "item": {"card": "8S"}},
    ],
)
def test_malformed_moves_are_422_and_change_nothing(client, move):
    created = create(client, seed="royal")
    r = post(client, created, 0, move)
    assert r.status_code == 422 and r.content_type == "application/problem+json"
    assert r.json["legal_moves"]
    game = client.get(f"/v1/games/{created['game']['id']}").json
    assert game["game"]["version"] == 0 and game["view"]["phase"] == "create"


def test_a_daily_challenge(client):
    player = client.post("/v1/players", json={"name": "Risa"}).json
    r = client.post(
        "/v1/daily/2026-11-22/risus-royale/games",
        headers={"Authorization": f"Bearer {player['token']}"},
    )
    assert r.status_code == 201, r.json
    created = r.json
    assert "seed" not in created["game"] or created["game"]["seed"] is None
    final, _ = play_out(client, created, best_choice)
    board = client.get("/v1/daily/2026-11-22/risus-royale/leaderboard").json
    assert board["entries"][0]["score"] == final["view"]["outcome"]["score"]


@pytest.mark.long
def test_no_face_down_card_in_any_response_while_playing():
    """Over many random games through the API: a face-down card's code appears in no body
    and no header of any response while the game is on (views, effects, logs, errors). On
    the in-memory store: what a response shows is the service's, whatever the store (the
    stores answer alike: tests/integration/test_store_contract.py), and reading back each
    game's whole log after every move costs SQLite a quarter of this test's time."""
    store = InMemoryStore()
    client = make_app(store).test_client()
    for i in range(GAMES):
        created = create(client, options={"points": 10 + i % 3, "opponent_bonus": i % 3})
        gid = created["game"]["id"]
        truth = replay(RR, _seed(store, gid), created["game"]["options"], [])

        played = [0]  # events of the stored log replayed into `truth` so far

        def check(response, gid=gid, truth=truth, played=played):
            for event in store.load(gid).moves[played[0] :]:
                truth.play(event.seat, event.move)  # the stored log: the only truth
                played[0] += 1
            body = response.json
            if body["view"]["status"] != "playing":
                return
            hidden = RR.hidden(truth.state, 0)
            texts = set(strings_in(body)) | {v for _, v in response.headers.items()}
            assert not texts & hidden
            if body["game"]["version"] % 25 == 0:
                for path in ("moves", "replay?at=1"):
                    shown = client.get(f"/v1/games/{gid}/{path}")
                    assert not set(strings_in(shown.json)) & hidden

        play_out(client, created, random_choice, check)


def _seed(store, gid):
    """The secret seed, read from the store (no response ever shows it while playing)."""
    return store.load(gid).record.seed
