"""Daily challenges through the Flask app, across a simulated day boundary (injected clock)."""

import threading

import pytest

from domain.daily import candidate_seed
from domain.registry import GAMES
from domain.service import GameService
from domain.verify import verify
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets

SECRET = b"test-daily-secret"


class Clock:
    """A clock the test moves: the service reads nothing else."""

    def __init__(self, now="2026-11-22T10:00:00.000Z"):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


def make(store, clock):
    service = GameService(store, clock, counting_secrets(), SECRET)
    return create_app(service).test_client()


@pytest.fixture
def client(tmp_path, clock):
    from infra.sqlite_store import SqliteStore

    return make(SqliteStore(str(tmp_path / "court.db")), clock)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def player(client, name="Anne"):
    r = client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.json
    return r.json


def start(client, token, ruleset="royal-assassin", date="2026-11-22"):
    headers = auth(token) if token is not None else {}
    return client.post(f"/v1/daily/{date}/{ruleset}/games", headers=headers)


def finish(client, created, pick=0):
    body, version = created, 0
    gid, token = created["game"]["id"], created["token"]
    while body["game"]["status"] == "playing":
        real = [m for m in body["view"]["legal_moves"] if m["type"] != "resign"]
        r = client.post(
            f"/v1/games/{gid}/moves",
            json={"version": version, "move": real[(pick + version) % len(real)]},
            headers=auth(token),
        )
        assert r.status_code == 201, r.json
        body, version = r.json, version + 1
    return body


def test_todays_challenges_hide_their_seeds(client):
    day = client.get("/v1/daily/today").json
    assert day["date"] == day["today"] == "2026-11-22" and day["over"] is False
    solitaires = {g.id for g in GAMES.values() if g.ruleset.max_seats == 1}
    assert solitaires == {"royal-assassin", "adaman", "risus-royale"}
    assert {c["ruleset"] for c in day["challenges"]} == solitaires
    for challenge in day["challenges"]:
        assert "seed" not in challenge and challenge["players"] == 0
        assert 1 <= challenge["difficulty"] <= 5 and challenge["ranked"] is True
    assert client.get("/v1/daily/2026-11-22").json == day
    assert client.get("/v1/daily/2026-11-23").status_code == 404
    assert client.get("/v1/daily/22-11-2026").status_code == 422


def test_the_daily_seed_is_the_first_winnable_candidate(client):
    day = client.get("/v1/daily/today").json
    ra = next(c for c in day["challenges"] if c["ruleset"] == "royal-assassin")
    import hashlib

    candidates = [candidate_seed(SECRET, "2026-11-22", "royal-assassin", k) for k in range(30)]
    commitments = [hashlib.sha256(c.encode()).hexdigest() for c in candidates]
    assert ra["seed_commitment"] in commitments


@pytest.mark.parametrize(
    ("name", "ok"),
    [("  Anne  ", True), ("", False), ("   ", False), ("x" * 25, False), ("x" * 24, True),
     ("bad\u0007bell", False), ("zero\u200bwidth", False), (7, False), ("Königin ♛", True)],
)  # fmt: skip
def test_player_names(client, name, ok):
    r = client.post("/v1/players", json={"name": name})
    if ok:
        assert r.status_code == 201 and r.json["name"].startswith(str(name).strip() + "#")
        assert r.json["token"].startswith(r.json["player_id"] + ".")
    else:
        assert r.status_code == 422 and r.content_type == "application/problem+json"


def test_duplicate_names_are_told_apart(client):
    assert player(client)["name"] != player(client)["name"]


def test_one_ranked_attempt_no_undo_and_the_seed_stays_secret_until_the_day_ends(client, clock):
    anne = player(client)
    assert start(client, None).status_code == 401
    assert start(client, "nope.nope").status_code == 403
    r = start(client, anne["token"])
    assert r.status_code == 201, r.json
    game = r.json
    gid = game["game"]["id"]
    assert game["game"]["daily"] == {"date": "2026-11-22", "name": anne["name"]}
    assert game["game"]["options"]["undo"] is False and "seed" not in game["game"]
    again = start(client, anne["token"])
    assert again.status_code == 409 and again.json["game_id"] == gid
    # Private to its player while the day runs: no spectators, no log for others.
    for path in (f"/v1/games/{gid}", f"/v1/games/{gid}/moves", f"/v1/games/{gid}/record"):
        assert client.get(path).status_code == 403
    final = finish(client, game)
    assert final["game"]["status"] != "playing" and "seed" not in final["game"]
    record = client.get(f"/v1/games/{gid}/record", headers=auth(game["token"])).json
    assert "seed" not in record and verify(record).valid is False
    step = client.get(f"/v1/games/{gid}/replay?at=1", headers=auth(game["token"])).json
    assert "deck" not in step
    same_deal = client.post("/v1/games", json={"ruleset": "royal-assassin", "from_game": gid})
    assert same_deal.status_code == 422
    board = client.get("/v1/daily/today/royal-assassin/leaderboard", headers=auth(anne["token"]))
    assert board.json["entries"][0]["game_id"] == gid and "record" not in board.json["entries"][0]
    assert board.json["you"]["rank"] == 1 and board.json["you"]["finished"] is True
    # The next day: everything opens.
    clock.now = "2026-11-23T00:00:00.001Z"
    yesterday = client.get("/v1/daily/2026-11-22").json
    assert yesterday["over"] is True
    ra = next(c for c in yesterday["challenges"] if c["ruleset"] == "royal-assassin")
    assert ra["players"] == 1 and ra["seed"]
    record = client.get(f"/v1/games/{gid}/record").json
    assert record["seed"] == ra["seed"] and verify(record).valid
    entry = client.get("/v1/daily/2026-11-22/royal-assassin/leaderboard").json["entries"][0]
    assert entry["record"] == f"/v1/games/{gid}/record"
    # Yesterday's deal is practice now: unranked, the seed visible, as often as you like.
    practice = start(client, anne["token"], date="2026-11-22")
    assert practice.status_code == 201 and practice.json["game"]["seed"] == ra["seed"]
    assert "daily" not in practice.json["game"]
    assert client.post("/v1/daily/2026-11-22/royal-assassin/games").status_code == 201


def test_future_and_unknown_daily_games(client):
    anne = player(client)
    assert start(client, anne["token"], date="2026-11-23").status_code == 404
    assert start(client, anne["token"], ruleset="chess").status_code == 422


def test_leaderboard_ranks_wins_first_then_score(client):
    scores = []
    for i in range(6):
        p = player(client, f"p{i}")
        final = finish(client, start(client, p["token"]).json, pick=i)
        scores.append((final["game"]["outcome"]["result"], final["game"]["outcome"]["score"]))
    board = client.get("/v1/daily/today/royal-assassin/leaderboard?limit=4").json
    entries = board["entries"]
    assert len(entries) == 4 and board["cursor"]
    rest = client.get(f"/v1/daily/today/royal-assassin/leaderboard?cursor={board['cursor']}").json
    assert len(rest["entries"]) == 2 and rest["cursor"] is None
    ordered = [(e["result"] != "won", -e["score"], e["moves"]) for e in entries + rest["entries"]]
    assert ordered == sorted(ordered)
    # Ranked as sports rank: tied entries share a place, the next comes after all of them.
    shared = [1 + sum(other < mine for other in ordered) for mine in ordered]
    assert [e["rank"] for e in entries + rest["entries"]] == shared
    forged = client.get("/v1/daily/today/royal-assassin/leaderboard?cursor=forged")
    assert forged.status_code == 422


# Not on moto: its TransactWriteItems checks conditions and writes without a lock, so two
# threads can both pass (seen: two 201s). DynamoDB Local, the real engine, is raced here.
@pytest.mark.parametrize("store", ["memory", "sqlite", "dynamodb-local"], indirect=True)
def test_racing_first_attempts_one_wins_on_every_store(store, clock):
    client = make(store, clock)
    anne = player(client)
    client.get("/v1/daily/today")  # the deal chosen once, before the race
    statuses = []
    barrier = threading.Barrier(8)

    def racer():
        barrier.wait()
        statuses.append(start(client, anne["token"]).status_code)

    threads = [threading.Thread(target=racer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201] + [409] * 7
    day = client.get("/v1/daily/today").json
    assert next(c for c in day["challenges"] if c["ruleset"] == "royal-assassin")["players"] == 1


def test_a_leaderboard_of_1000_entries_pages_in_order(tmp_path, clock):
    from infra.sqlite_store import SqliteStore
    from tests.integration.test_store_contract import finish_with_entry

    store = SqliteStore(str(tmp_path / "court.db"))
    client = make(store, clock)
    keys = [f"{i % 3}|{(i * 7919) % 1000:04d}" for i in range(1000)]
    for i, key in enumerate(keys):
        finish_with_entry(store, f"g{i:04d}", key)
    ranks, names, cursor = [], [], None
    while True:
        url = "/v1/daily/today/royal-assassin/leaderboard?limit=100"
        page = client.get(url + (f"&cursor={cursor}" if cursor else "")).json
        ranks += [e["rank"] for e in page["entries"]]
        names += [e["game_id"] for e in page["entries"]]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert ranks == list(range(1, 1001))
    by_key = dict(zip(keys, (f"g{i:04d}" for i in range(1000)), strict=True))
    assert names == [by_key[k] for k in sorted(keys)]


def test_the_local_daily_secret_is_made_once_and_private(tmp_path, monkeypatch):
    import stat

    from handlers.config import Settings, daily_secret

    monkeypatch.delenv("ROYAL_DAILY_SECRET", raising=False)
    settings = Settings(db=str(tmp_path / "court.db"))
    first = daily_secret(settings)
    path = tmp_path / "court.db.daily-secret"
    assert len(first) == 64 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert daily_secret(settings) == first  # kept: the same deals after a restart
    assert daily_secret(Settings(db=settings.db, daily_secret="given")) == b"given"
