"""Trust under attack (issue 27): each probe that once broke a promise, run through the Flask
app on every store where it applies, with an injected clock for the day boundary."""

from __future__ import annotations

import json

import pytest

import domain.daily
import domain.usecases.playing
from domain.record import move_hash
from domain.registry import GAMES
from domain.service import GameService
from domain.store import encode_cursor
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets
from tests.fakes import InMemoryStore

SECRET = b"test-daily-secret"
TWO_SEAT = sorted(g for g, e in GAMES.items() if e.ruleset.max_seats > 1)


class Clock:
    def __init__(self, now: str = "2026-11-22T10:00:00.000Z") -> None:
        self.now = now

    def __call__(self) -> str:
        return self.now


def app_on(store, clock):
    return create_app(GameService(store, clock, counting_secrets(), SECRET)).test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def new_player(client, name="Anne"):
    r = client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.json
    return r.json["token"]


def resign(client, created):
    r = client.post(
        f"/v1/games/{created['game']['id']}/moves",
        headers=auth(created["token"]),
        json={"version": created["game"]["version"], "move": {"type": "resign"}},
    )
    assert r.status_code == 201, r.json
    return r.json


# ---- 1. today's seed is in no listing -------------------------------------------------------


def test_a_ranked_game_of_today_is_listed_without_its_seed(store):
    clock = Clock()
    client = app_on(store, clock)
    created = client.post("/v1/daily/today/royal-assassin/games", headers=auth(new_player(client)))
    assert created.status_code == 201
    resign(client, created.json)
    seed = store.load(created.json["game"]["id"]).record.seed
    for query in ("", "&ruleset=royal-assassin"):
        listing = client.get(f"/v1/games?status=finished{query}")
        assert listing.status_code == 200
        (entry,) = [g for g in listing.json["games"] if g["id"] == created.json["game"]["id"]]
        assert "seed" not in entry and seed not in listing.get_data(as_text=True)
    clock.now = "2026-11-23T00:00:00.001Z"  # the day is over: its seed is public anyway
    (entry,) = client.get("/v1/games?status=finished&ruleset=royal-assassin").json["games"]
    assert entry["seed"] == seed


# ---- 3. a ranked attempt belongs to its day -------------------------------------------------


def test_a_ranked_attempt_takes_no_move_after_its_day(store):
    clock = Clock("2026-11-22T23:59:59.000Z")
    client = app_on(store, clock)
    token = new_player(client)
    created = client.post("/v1/daily/today/royal-assassin/games", headers=auth(token)).json
    gid = created["game"]["id"]
    first = created["view"]["legal_moves"][0]
    r = client.post(
        f"/v1/games/{gid}/moves", headers=auth(created["token"]), json={"version": 0, "move": first}
    )
    assert r.status_code == 201
    clock.now = "2026-11-23T00:00:00.000Z"
    for move in (r.json["view"]["legal_moves"][0], {"type": "resign"}):
        late = client.post(
            f"/v1/games/{gid}/moves",
            headers=auth(created["token"]),
            json={"version": 1, "move": move},
        )
        assert late.status_code == 409 and late.json["type"].endswith("daily-closed")
        assert late.content_type == "application/problem+json"
    assert store.load(gid).version == 1  # nothing appended
    board = client.get("/v1/daily/2026-11-22/royal-assassin/leaderboard").json
    assert board["entries"] == []  # an unfinished attempt never ranks
    # The player still reads their game; its seed is the day's, public now.
    mine = client.get(f"/v1/games/{gid}", headers=auth(created["token"])).json
    assert mine["game"]["status"] == "playing" and mine["game"]["seed"]


# ---- 10. no seat chooses a deal another seat cannot see ----------------------------------------


@pytest.mark.parametrize("ruleset", TWO_SEAT)
def test_two_seat_games_deal_only_secret_deals(ruleset):
    client = app_on(InMemoryStore(), Clock())
    described = {r["id"]: r for r in client.get("/v1/rulesets").json["rulesets"]}
    assert described[ruleset]["chosen_deals"] is False
    assert described["royal-assassin"]["chosen_deals"] is True
    seated = [{"player": "human"}, {"player": "bot", "policy": "random"}]
    refused = client.post("/v1/games", json={"ruleset": ruleset, "seed": "royal", "seats": seated})
    assert refused.status_code == 422 and "seed" in refused.json["errors"]
    game = client.post("/v1/games", json={"ruleset": ruleset, "seats": seated}).json
    assert game["game"]["seed_known"] is False and "seed" not in game["game"]
    over = resign(client, game)
    assert over["game"]["seed"] and "same_deal" not in over["game"]["share"]
    again = client.post("/v1/games", json={"ruleset": ruleset, "from_game": game["game"]["id"]})
    assert again.status_code == 422 and "from_game" in again.json["errors"]


# ---- 2. the hash chain hides what it must -----------------------------------------------------


def test_hidden_moves_cannot_be_read_back_from_the_chain():
    """The attack that once recovered every face-down card and the pending sealed flip: try
    every move the seat could have made against the hash that the other seat and a
    spectator are shown. With salts no guess matches, under the old formula or with any
    salt the log shows, though the guesses always hold the real move."""
    store = InMemoryStore()
    client = app_on(store, Clock())
    created = client.post("/v1/games", json={"ruleset": "royal-ace-assin"}).json
    gid = created["game"]["id"]
    invite = created["invites"][0]
    joined = client.post(
        f"/v1/games/{gid}/seats/{invite['seat']}", json={"invite": invite["invite"]}
    ).json
    tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
    guesses: dict[int, list[dict]] = {}  # seq -> every move its seat could have made
    hidden_seen = 0
    while len(guesses) < 12:
        for token in tokens.values():
            view = client.get(f"/v1/games/{gid}", headers=auth(token)).json
            legal = [m for m in view["view"]["legal_moves"] if m["type"] != "resign"]
            if not legal:
                continue
            r = client.post(
                f"/v1/games/{gid}/moves",
                headers=auth(token),
                json={"version": view["game"]["version"], "move": legal[-1]},
            )
            assert r.status_code == 201, r.json
            guesses[store.load(gid).version] = legal
            hidden_seen += check_no_hash_gives_away_a_move(client, store, gid, tokens, guesses)
    assert hidden_seen > 10  # placements and sealed flips were attacked as they happened


def check_no_hash_gives_away_a_move(client, store, gid, tokens, guesses) -> int:
    true_log = store.load(gid).moves
    attacked = 0
    for viewer in (*tokens, None):
        shown = client.get(
            f"/v1/games/{gid}/moves", headers={} if viewer is None else auth(tokens[viewer])
        ).json["moves"]
        salts_seen = {m["salt"] for m in shown if "salt" in m}
        previous = store.load(gid).record.seed_commitment
        for entry, truth in zip(shown, true_log, strict=True):
            if entry["move"] == truth.move:  # seen whole: its own salt checks its link
                assert (
                    move_hash(previous, entry["seq"], entry["seat"], entry["move"], entry["salt"])
                    == entry["hash"]
                )
            else:
                assert "salt" not in entry
                candidates = guesses[entry["seq"]]
                assert truth.move in candidates  # the attack holds the answer...
                for guess in candidates:  # ... and cannot tell it
                    for salt in (None, *salts_seen):
                        h = move_hash(previous, entry["seq"], entry["seat"], guess, salt)
                        assert h != entry["hash"], (viewer, entry["seq"])
                attacked += 1
            previous = entry["hash"]
    return attacked


# ---- 6. bounded work per request ----------------------------------------------------------------


def test_a_game_takes_so_many_events_then_only_resign(monkeypatch):
    monkeypatch.setattr(domain.usecases.playing, "MAX_EVENTS", 24)
    store = InMemoryStore()
    client = app_on(store, Clock())
    created = client.post(
        "/v1/games", json={"ruleset": "royal-assassin", "seed": "royal", "options": {"undo": True}}
    ).json
    gid, token, version = created["game"]["id"], created["token"], 0
    view = created["view"]
    while version < 24:  # a move and its undo, over and over: the log grows, the game not
        real = [m for m in view["legal_moves"] if m["type"] not in ("resign", "undo")]
        move = {"type": "undo"} if version % 2 else real[0]
        r = client.post(
            f"/v1/games/{gid}/moves", headers=auth(token), json={"version": version, "move": move}
        )
        assert r.status_code == 201, r.json
        version, view = r.json["game"]["version"], r.json["view"]
    full = client.post(
        f"/v1/games/{gid}/moves",
        headers=auth(token),
        json={"version": 24, "move": view["legal_moves"][0]},
    )
    assert full.status_code == 409 and full.json["type"].endswith("game-too-long")
    assert full.json["limit"] == 24 and store.load(gid).version == 24
    assert resign(client, {"game": {"id": gid, "version": 24}, "token": token})["game"]["outcome"]


def test_verifying_a_record_past_any_game_s_length_is_a_verdict():
    client = app_on(InMemoryStore(), Clock())
    created = client.post("/v1/games", json={"ruleset": "royal-assassin"}).json
    resign(client, created)
    record = client.get(f"/v1/games/{created['game']['id']}/record").json
    record["moves"] = record["moves"] * 2100  # about 500 kB: within the body limit
    r = client.post("/v1/records/verify", json=record)
    assert r.status_code == 200 and r.json["valid"] is False
    assert r.json["problems"][0]["field"] == "moves"


@pytest.mark.parametrize("depth", [500, 990, 5000])
def test_a_deeply_nested_record_gets_a_verdict(depth):
    client = app_on(InMemoryStore(), Clock())
    body = '{"format": "royal-court-record/2", "moves": ' + "[" * depth + "]" * depth + "}"
    r = client.post("/v1/records/verify", data=body, content_type="application/json")
    assert r.status_code == 200 and r.json["valid"] is False


@pytest.mark.parametrize(
    "date",
    [
        "0000-00-00",
        "1999-99-99",
        "2026-02-30",
        "\u0662\u0660\u0662\u0666-\u0661\u0661-\u0662\u0662",
        "2026-10-31",
        "1999-01-01",
        "2026-11-23",
    ],
)
def test_only_real_days_of_the_service_have_a_challenge(store, date):
    """Each string once cost a deal's selection and stored rows; now nothing is chosen."""
    client = app_on(store, Clock())
    token = new_player(client)
    for r in (
        client.get(f"/v1/daily/{date}"),
        client.post(f"/v1/daily/{date}/royal-assassin/games", headers=auth(token)),
        client.get(f"/v1/daily/{date}/royal-assassin/leaderboard"),
    ):
        assert r.status_code in (404, 422), (date, r.status_code, r.json)
        assert r.content_type == "application/problem+json"
    assert all(store.load_daily(date, g) is None for g in GAMES)


# ---- 9. forged cursors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "shown"),
    [("²", "1"), ("٣", "1"), ("1e3", "1"), ("-1", "1"), (" 1", "1"), ("2", "3"), ("2", "0")],
)
def test_a_forged_leaderboard_cursor_is_a_4xx(rank, shown):
    client = app_on(InMemoryStore(), Clock())
    cursor = encode_cursor({"key": "0|x", "rank": rank, "shown": shown})
    r = client.get(f"/v1/daily/today/royal-assassin/leaderboard?cursor={cursor}")
    assert r.status_code == 422 and r.json["errors"] == {"cursor": "not a cursor this server gave"}
    json.dumps(r.json)


def test_a_ranked_game_s_end_turns_nothing_up_before_its_day_is_over(store):
    """Risus Royale turns the whole map up when a game ends (its spec): a ranked attempt
    resigned at once would hand the day's deal to the next player. Until midnight no response
    to anyone names a card that was face down before the end; from midnight on they all may."""
    from domain.registry import get_ruleset
    from tests.helpers import strings_in

    clock = Clock()
    client = app_on(store, clock)
    token = new_player(client)
    created = client.post("/v1/daily/today/risus-royale/games", headers=auth(token)).json
    gid, seat = created["game"]["id"], auth(created["token"])
    record = store.load(gid).record
    ruleset = get_ruleset("risus-royale")
    face_down = ruleset.hidden(ruleset.start(record.seed, record.options), 0)
    assert len(face_down) > 40
    over = resign(client, created)
    answers = [over]
    for url, headers in [
        (f"/v1/games/{gid}", seat),
        (f"/v1/games/{gid}/moves", seat),
        (f"/v1/games/{gid}/record", seat),
        (f"/v1/games/{gid}/replay?at=1", seat),
        (f"/v1/games/{gid}/replay?at=0", seat),
        ("/v1/games?status=finished&ruleset=risus-royale", {}),
        ("/v1/daily/today/risus-royale/leaderboard", auth(token)),
    ]:
        r = client.get(url, headers=headers)
        assert r.status_code == 200, (url, r.json)
        answers.append(r.json)
    for answer in answers:
        assert not set(strings_in(answer)) & face_down, answer
    assert over["game"]["status"] != "playing" and over["view"]["outcome"]
    clock.now = "2026-11-23T00:00:00.001Z"  # the day is over: the map may show
    shown = client.get(f"/v1/games/{gid}", headers=seat).json
    assert set(strings_in(shown)) & face_down


def test_lone_surrogates_and_huge_numbers_are_4xx_or_verdicts():
    """Inputs that once gave 500s (a lone surrogate hashed) or a verdict that was no JSON."""
    client = app_on(InMemoryStore(), Clock())
    created = client.post("/v1/games", json={"ruleset": "royal-ace-assin"}).json
    gid = created["game"]["id"]
    join = client.post(f"/v1/games/{gid}/seats/1", data='{"invite": "\\ud800"}',
                       content_type="application/json")  # fmt: skip
    assert join.status_code == 403 and join.content_type == "application/problem+json"
    solo = client.post("/v1/games", json={"ruleset": "royal-assassin"}).json
    resign(client, solo)
    record = client.get(f"/v1/games/{solo['game']['id']}/record").get_data(as_text=True)
    for hostile in (
        record.replace('"resign"}', '"resign", "x": "\\ud800"}'),
        record.replace('"outcome": {', '"outcome": {"huge": 1e999, "long": ' + "9" * 5000 + ", "),
    ):
        r = client.post("/v1/records/verify", data=hostile, content_type="application/json")
        assert r.status_code == 200 and r.json["valid"] is False
        json.loads(r.get_data(as_text=True), parse_constant=lambda name: 1 / 0)  # no Infinity
    move = client.post(f"/v1/games/{gid}/moves", headers=auth(created["token"]),
                       data='{"version": 0, "move": {"type": "choose_suit", "suit": 1e999}}',
                       content_type="application/json")  # fmt: skip
    assert move.status_code == 400 and move.content_type == "application/problem+json"


def test_a_record_move_by_a_seat_the_game_has_not_is_refused():
    client = app_on(InMemoryStore(), Clock())
    created = client.post("/v1/games", json={"ruleset": "royal-assassin"}).json
    resign(client, created)
    record = client.get(f"/v1/games/{created['game']['id']}/record").json
    for seat in (1, 2, -1, 99):
        forged = {**record, "moves": [{**record["moves"][0], "seat": seat}]}
        r = client.post("/v1/records/verify", json=forged)
        assert r.json["valid"] is False and r.json["problems"][0]["field"] == "seat"


def test_small_probes_of_the_second_attack():
    """A name that would begin as another's shown name; one seat's Idempotency-Key reused by
    the other seat; a doubled slash answered with an HTML redirect to the client's Host."""
    client = app_on(InMemoryStore(), Clock())
    r = client.post("/v1/players", json={"name": "Alice#1a2b3c4d"})
    assert r.status_code == 422 and "name" in r.json["errors"]
    created = client.post("/v1/games", json={"ruleset": "royal-ace-assin"}).json
    gid, invite = created["game"]["id"], created["invites"][0]
    joined = client.post(f"/v1/games/{gid}/seats/1", json={"invite": invite["invite"]}).json
    choose = {"type": "choose_suit", "suit": "hearts"}
    first = client.post(f"/v1/games/{gid}/moves", json={"version": 0, "move": choose},
                        headers={**auth(created["token"]), "Idempotency-Key": "k1"})  # fmt: skip
    assert first.status_code == 201
    theirs = first.json["game"]["version"]
    other = {"type": "choose_suit", "suit": "spades"}
    second = client.post(f"/v1/games/{gid}/moves", json={"version": theirs, "move": other},
                         headers={**auth(joined["token"]), "Idempotency-Key": "k1"})  # fmt: skip
    assert second.status_code == 201, second.json
    for method in ("get", "post"):
        slashed = getattr(client, method)("/v1//games")
        assert slashed.status_code == 404 and slashed.content_type == "application/problem+json"


def test_a_past_day_never_dealt_costs_nothing_and_today_is_chosen_once(monkeypatch):
    """A GET of a past day once chose its deals on the spot (seconds of CPU per request, and
    per concurrent request); now a past day shows what was dealt on it, and today's fallback
    is chosen by one request while the others wait for it."""
    import threading

    import domain.usecases.daily

    chosen = []
    real = domain.usecases.daily.select

    def counted(game, secret, day):
        chosen.append((day, game.id))
        return real(game, secret, day)

    monkeypatch.setattr(domain.usecases.daily, "select", counted)
    monkeypatch.setattr(domain.daily, "bot_wins", lambda game, seed: 1)
    client = app_on(InMemoryStore(), Clock())
    r = client.get("/v1/daily/2026-11-20")
    assert r.status_code == 404 and r.json["type"].endswith("daily-not-found")
    assert client.post("/v1/daily/2026-11-20/adaman/games").status_code == 404
    assert chosen == []
    answers = []
    racers = [threading.Thread(target=lambda: answers.append(client.get("/v1/daily/today")))
              for _ in range(4)]  # fmt: skip
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert [a.status_code for a in answers] == [200] * 4
    assert sorted(chosen) == sorted(set(chosen)) and len(chosen) == 3  # each deal chosen once
