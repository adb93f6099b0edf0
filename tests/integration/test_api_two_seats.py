"""Two seats through the Flask app: invites and joins, whose move, per-seat staleness, sealed
moves kept out of every response, bot seats and the long-poll. Royal Ace-assin is the game."""

import time

import pytest

from domain.registry import GAMES
from domain.verify import verify
from tests.api_helpers import make_app
from tests.fakes import InMemoryStore
from tests.integration.test_api import assert_problem, auth
from tests.unit.test_royal_ace_assin import EXAMPLE

RAA = "royal-ace-assin"


@pytest.fixture
def client(tmp_path):
    from infra.sqlite_store import SqliteStore

    return make_app(SqliteStore(str(tmp_path / "court.db"))).test_client()


def create(client, **body):
    body.setdefault("ruleset", RAA)
    r = client.post("/v1/games", json=body)
    assert r.status_code == 201, r.json
    return r.json


def join(client, created, seat=1, invite=None):
    gid = created["game"]["id"]
    invite = invite or next(i["invite"] for i in created["invites"] if i["seat"] == seat)
    return client.post(f"/v1/games/{gid}/seats/{seat}", json={"invite": invite})


def two_seats(client):
    created = create(client)
    joined = join(client, created)
    assert joined.status_code == 201, joined.json
    return created["game"]["id"], [created["token"], joined.json["token"]]


def play(client, gid, token, version, move, **headers):
    return client.post(
        f"/v1/games/{gid}/moves",
        json={"version": version, "move": move},
        headers={**auth(token), **headers},
    )


def log(client, gid, token=None):
    return client.get(f"/v1/games/{gid}/moves", headers=auth(token) if token else {}).json["moves"]


# ---- seats and joining --------------------------------------------------------------------------


def test_create_lists_seats_and_gives_one_invite(client):
    created = create(client)
    assert created["seat"] == 0
    assert created["game"]["seats"] == [
        {"seat": 0, "player": "human", "joined": True},
        {"seat": 1, "player": "human", "joined": False},
    ]
    [invite] = created["invites"]
    assert invite["seat"] == 1 and invite["join"].endswith("/seats/1")
    assert created["view"]["legal_moves"][0] == {"type": "choose_suit", "suit": "clubs"}


def test_join_once_with_the_right_invite(client):
    created = create(client)
    gid = created["game"]["id"]
    before = log(client, gid)
    assert_problem(join(client, created, invite="not-it"), 403, "wrong-token")
    assert_problem(join(client, created, seat=0, invite="x"), 403, "wrong-token")
    assert_problem(join(client, created, seat=7, invite="x"), 403, "wrong-token")
    r = client.post(f"/v1/games/{gid}/seats/1", json={"invite": 3})
    assert_problem(r, 422, "invalid-body")
    r = client.post("/v1/games/nope/seats/1", json={"invite": "x"})
    assert_problem(r, 404, "game-not-found")
    first = join(client, created)
    assert first.status_code == 201
    assert first.json["seat"] == 1 and first.json["view"]["seat"] == 1
    assert first.json["game"]["seats"][1]["joined"] is True
    assert_problem(join(client, created), 409, "seat-taken")
    assert log(client, gid) == before
    # the token works as seat 1's, and only the hashes were stored
    view = client.get(f"/v1/games/{gid}", headers=auth(first.json["token"])).json["view"]
    assert view["seat"] == 1


def test_bad_seats_are_refused_naming_the_field(client):
    for seats in (
        [{"player": "human"}],
        [{"player": "human"}] * 3,
        [{"player": "bot"}, {"player": "bot"}],
        [{"player": "human"}, {"player": "bot", "policy": "nope"}],
        [{"player": "alien"}, {"player": "human"}],
        "two",
    ):
        r = client.post("/v1/games", json={"ruleset": RAA, "seats": seats})
        body = assert_problem(r, 422)
        assert "seats" in body["errors"], body


def test_a_solitaire_keeps_one_seat(client):
    created = create(client, ruleset="royal-assassin")
    assert created["invites"] == [] and created["game"]["seats"][0]["joined"]
    r = client.post(
        "/v1/games", json={"ruleset": "royal-assassin", "seats": [{"player": "human"}] * 2}
    )
    assert_problem(r, 422)


# ---- a whole game between two tokens -----------------------------------------------------------


def test_the_example_game_between_two_tokens(client):
    gid, tokens = two_seats(client)
    version = 0
    for seat, move in EXAMPLE:
        r = play(client, gid, tokens[seat], version, move)
        assert r.status_code == 201, r.json
        version = r.json["game"]["version"]
    game = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json
    assert game["game"]["status"] == "finished"
    assert game["view"]["outcome"]["result"] == "won"
    assert game["game"]["outcome"]["winner"] == 0 and game["game"]["outcome"]["result"] is None
    assert "seed" in game["game"]  # revealed at the end
    record = client.get(f"/v1/games/{gid}/record").json
    assert [m["move"] for m in record["moves"]] == [m for _, m in EXAMPLE]
    assert verify(record).valid


def test_out_of_turn_is_409_and_appends_nothing(client):
    gid, tokens = two_seats(client)
    r = play(client, gid, tokens[1], 0, {"type": "choose_suit", "suit": "clubs"})
    body = assert_problem(r, 409, "not-your-turn")
    assert body["legal_moves"] == [{"type": "resign"}]
    assert log(client, gid) == []
    play(client, gid, tokens[0], 0, EXAMPLE[0][1])
    play(client, gid, tokens[1], 1, EXAMPLE[1][1])
    play(client, gid, tokens[0], 2, EXAMPLE[2][1])
    again = play(client, gid, tokens[0], 3, EXAMPLE[2][1])  # placed already: wait
    assert_problem(again, 409, "not-your-turn")
    assert len(log(client, gid)) == 3


def test_a_sealed_submission_does_not_make_the_other_seat_stale(client):
    gid, tokens = two_seats(client)
    for version, (seat, move) in enumerate(EXAMPLE[:2]):
        assert play(client, gid, tokens[seat], version, move).status_code == 201
    # both seats saw version 2; seat 0 places first, seat 1 still sends version 2
    assert play(client, gid, tokens[0], 2, EXAMPLE[2][1]).status_code == 201
    r = play(client, gid, tokens[1], 2, EXAMPLE[3][1])
    assert r.status_code == 201, r.json
    assert r.json["game"]["version"] == 4
    assert play(client, gid, tokens[0], 4, EXAMPLE[4][1]).status_code == 201
    assert play(client, gid, tokens[1], 4, EXAMPLE[5][1]).status_code == 201
    # after the flips resolved, what seat 1 may do changed: version 4 is stale for a place
    r = play(client, gid, tokens[0], 6, EXAMPLE[6][1])
    assert r.status_code == 201
    r = play(client, gid, tokens[1], 4, EXAMPLE[7][1])
    assert_problem(r, 409, "stale-version")


def test_hidden_moves_are_filtered_for_the_other_seat_and_spectators(client):
    gid, tokens = two_seats(client)
    for version, (seat, move) in enumerate(EXAMPLE[:5]):
        assert play(client, gid, tokens[seat], version, move).status_code == 201
    mine, theirs, public = (
        log(client, gid, tokens[0]),
        log(client, gid, tokens[1]),
        log(client, gid),
    )
    assert mine[2]["move"] == EXAMPLE[2][1] and mine[4]["move"] == EXAMPLE[4][1]
    assert theirs[2]["move"] == {"type": "place"} and theirs[4]["move"] == {"type": "flip"}
    assert public[3]["move"] == {"type": "place"} and public[4]["move"] == {"type": "flip"}
    assert [m["hash"] for m in mine] == [m["hash"] for m in theirs] == [m["hash"] for m in public]
    record = client.get(f"/v1/games/{gid}/record", headers=auth(tokens[1])).json
    assert "seed" not in record and record["moves"][4]["move"] == {"type": "flip"}
    step = client.get(f"/v1/games/{gid}/replay?at=5", headers=auth(tokens[1])).json
    assert step["move"]["move"] == {"type": "flip"}
    assert client.get(f"/v1/games/{gid}/replay?at=5").status_code == 401
    # once seat 1 flips, both flips are public
    assert play(client, gid, tokens[1], 5, EXAMPLE[5][1]).status_code == 201
    assert log(client, gid)[4]["move"] == EXAMPLE[4][1]
    assert log(client, gid)[2]["move"] == {"type": "place"}


def test_racing_sealed_submissions_are_both_accepted(tmp_path):
    from tests.integration.test_api import race

    client = make_app(InMemoryStore()).test_client()
    gid, tokens = two_seats(client)
    for version, (seat, move) in enumerate(EXAMPLE[:2]):
        play(client, gid, tokens[seat], version, move)
    places = [EXAMPLE[2], EXAMPLE[3]]
    statuses = race(
        2,
        lambda: (lambda seat, move: play(client, gid, tokens[seat], 2, move).status_code)(
            *places.pop()
        ),
    )
    assert sorted(statuses) == [201, 201]
    assert {m["seat"] for m in log(client, gid)[2:]} == {0, 1}


# ---- bot seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["random", "greedy", "best"])
def test_a_whole_game_against_a_bot_seat(client, policy):
    created = create(client, seats=[{"player": "human"}, {"player": "bot", "policy": policy}])
    assert created["invites"] == []
    assert created["game"]["seats"][1] == {
        "seat": 1,
        "player": "bot",
        "policy": policy,
        "joined": True,
    }
    gid, token, snap = created["game"]["id"], created["token"], created
    while snap["game"]["status"] == "playing":
        real = [m for m in snap["view"]["legal_moves"] if m["type"] != "resign"]
        r = play(client, gid, token, snap["game"]["version"], real[-1])
        assert r.status_code == 201, r.json
        snap = r.json
        bot_moves = [e for e in snap["effects"] if e["type"] == "bot_move"]
        for e in bot_moves:  # never the bot's placed cards or its sealed flip
            assert e["move"] in ({"type": "place"}, {"type": "flip"}) or e["move"]["type"] in (
                "choose_suit",
                "assassinate",
            )
    assert {m["seat"] for m in log(client, gid)} == {0, 1}
    assert verify(client.get(f"/v1/games/{gid}/record").json).valid


def test_a_bot_in_seat_0_moves_at_creation(client):
    created = create(client, seats=[{"player": "bot", "policy": "random"}, {"player": "human"}])
    assert created["seat"] == 1 and created["view"]["seat"] == 1
    assert created["game"]["version"] == 1
    assert created["effects"][0]["type"] == "bot_move"
    assert created["view"]["to_move"] == [1]


# ---- waiting for the other seat -----------------------------------------------------------------


def test_long_poll_answers_304_after_the_wait_and_at_once_on_a_change(client):
    gid, tokens = two_seats(client)
    started = time.monotonic()
    r = client.get(f"/v1/games/{gid}?wait=0.3", headers={**auth(tokens[1]), "If-None-Match": '"0"'})
    assert r.status_code == 304 and time.monotonic() - started >= 0.3
    play(client, gid, tokens[0], 0, EXAMPLE[0][1])
    started = time.monotonic()
    r = client.get(f"/v1/games/{gid}?wait=20", headers={**auth(tokens[1]), "If-None-Match": '"0"'})
    assert r.status_code == 200 and time.monotonic() - started < 5
    assert r.json["view"]["to_move"] == [1]
    assert_problem(client.get(f"/v1/games/{gid}?wait=26"), 422, "invalid-body")
    assert_problem(client.get(f"/v1/games/{gid}?wait=soon"), 422, "invalid-body")


# ---- every game of two seats ---------------------------------------------------------------------

TWO_SEAT_GAMES = sorted(g for g, e in GAMES.items() if e.ruleset.max_seats > 1)


@pytest.mark.parametrize("ruleset_id", TWO_SEAT_GAMES)
def test_a_whole_game_between_two_tokens(client, ruleset_id):
    created = create(client, ruleset=ruleset_id)
    gid = created["game"]["id"]
    tokens = {0: created["token"], 1: join(client, created).json["token"]}
    for step in range(2000):
        seat_views = {s: client.get(f"/v1/games/{gid}", headers=auth(t)).json
                      for s, t in tokens.items()}  # fmt: skip
        if seat_views[0]["game"]["status"] != "playing":
            break
        seat = seat_views[0]["view"]["to_move"][step % len(seat_views[0]["view"]["to_move"])]
        other = 1 - seat
        real = [m for m in seat_views[seat]["view"]["legal_moves"] if m["type"] != "resign"]
        # the other seat, not to move, is refused and nothing is appended
        if other not in seat_views[other]["view"]["to_move"]:
            before = seat_views[other]["game"]["version"]
            r = play(client, gid, tokens[other], before, real[0])
            assert r.status_code in (409, 422)
            assert len(log(client, gid)) == before
        r = play(client, gid, tokens[seat], seat_views[seat]["game"]["version"],
                 real[step % len(real)])  # fmt: skip
        assert r.status_code == 201, r.json
    else:
        raise AssertionError("the game did not end")
    record = client.get(f"/v1/games/{gid}/record").json
    assert verify(record).valid and record["outcome"]["winner"] in (0, 1, None)


@pytest.mark.parametrize("ruleset_id", TWO_SEAT_GAMES)
def test_a_whole_game_against_each_bot(client, ruleset_id):
    for policy in GAMES[ruleset_id].policies:
        created = create(
            client,
            ruleset=ruleset_id,
            seats=[{"player": "human"}, {"player": "bot", "policy": policy}],
        )
        gid, token, snap = created["game"]["id"], created["token"], created
        while snap["game"]["status"] == "playing":
            real = [m for m in snap["view"]["legal_moves"] if m["type"] != "resign"]
            r = play(client, gid, token, snap["game"]["version"], real[0])
            assert r.status_code == 201, r.json
            snap = r.json
        assert verify(client.get(f"/v1/games/{gid}/record").json).valid


def test_a_finished_game_says_its_result_in_the_shared_words(client):
    """`result` (null while playing) reads the same for every game; `outcome` stays the
    game's own (docs/api.md, "Results")."""
    created = create(client, ruleset="royal-assassin-duel")
    assert created["game"]["result"] is None
    joined = join(client, created)
    gid, tokens = created["game"]["id"], [created["token"], joined.json["token"]]
    snap = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json
    seat = snap["view"]["to_move"][0]
    r = play(client, gid, tokens[seat], snap["game"]["version"], {"type": "resign"})
    assert r.status_code == 201, r.json
    game = client.get(f"/v1/games/{gid}").json["game"]
    by_seat = ["lost", "lost"]
    by_seat[1 - seat] = "won"
    assert game["result"] == {"by_seat": by_seat, "reason": "resign",
                              "scores": game["outcome"]["score"]}  # fmt: skip
    assert game["outcome"]["winner"] == 1 - seat
    solo = client.post("/v1/games", json={"ruleset": "royal-assassin", "seed": "rr"}).json
    assert solo["game"]["result"] is None
    r = play(client, solo["game"]["id"], solo["token"], 0, {"type": "resign"})
    assert r.json["game"]["result"] == {"by_seat": ["lost"], "reason": None,
                                        "scores": [r.json["game"]["outcome"]["score"]]}  # fmt: skip
