"""The sixth game, through the API: Tally (tests/games/tally), a game of three or four seats
added by following the checklist alone, with no line of handlers/ or infra/ written for it.
Its seats join by invite, play to the end, never see another seat's hand or the stock, and
the record verifies; bot seats play themselves."""

import random

import pytest

from domain.registry import get_ruleset
from infra.sqlite_store import SqliteStore
from tests.api_helpers import make_app
from tests.games import offered
from tests.integration.test_api import auth

TALLY = "tally"


@pytest.fixture
def client(tmp_path):
    with offered():
        yield make_app(SqliteStore(str(tmp_path / "court.db"))).test_client()


def create(client, seats):
    r = client.post("/v1/games", json={"ruleset": TALLY, "seats": seats})
    assert r.status_code == 201, r.json
    return r.json


def shown_cards(value, found=None):
    """Every string anywhere in a JSON value: what a response could give away."""
    found = set() if found is None else found
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, list):
        for item in value:
            shown_cards(item, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            shown_cards(item, found)
    return found


def test_the_ruleset_is_offered_with_its_seats_and_layout(client):
    listed = {r["id"]: r for r in client.get("/v1/rulesets").json["rulesets"]}
    assert listed[TALLY]["seats"] == {"min": 3, "max": 4}
    assert listed[TALLY]["board"] == "generic" and listed[TALLY]["chosen_deals"] is False
    assert sorted(listed[TALLY]["policies"]) == ["greedy", "random"]
    r = client.post("/v1/games", json={"ruleset": TALLY, "seats": [{"player": "human"}] * 2})
    assert r.status_code == 422 and "3" in r.json["detail"]


def join_all(client, created):
    gid = created["game"]["id"]
    tokens = {0: created["token"]}
    seats = len(created["game"]["seats"])
    assert sorted(i["seat"] for i in created["invites"]) == list(range(1, seats))
    for invite in created["invites"]:
        joined = client.post(f"/v1/games/{gid}/seats/{invite['seat']}",
                             json={"invite": invite["invite"]})  # fmt: skip
        assert joined.status_code == 201, joined.json
        tokens[invite["seat"]] = joined.json["token"]
    return gid, tokens


@pytest.mark.parametrize("seats", [3, 4])
def test_every_seat_plays_to_the_end_and_sees_only_its_own(client, seats):
    """Three or four seats: the number asked for reaches the rules (the `seats` option), and
    is kept in the record, so that a replay deals for as many."""
    ruleset = get_ruleset(TALLY)
    created = create(client, [{"player": "human"}] * seats)
    assert created["game"]["options"] == {"seats": seats}
    assert len(created["view"]["hand_counts"]) == seats
    gid, tokens = join_all(client, created)
    rng = random.Random(6)
    seen = []  # (version, viewer, every string of the answers it got at that version)
    for _ in range(20):
        answers = {seat: client.get(f"/v1/games/{gid}", headers=auth(token)).json
                   for seat, token in tokens.items()}  # fmt: skip
        answers[None] = client.get(f"/v1/games/{gid}").json
        version = answers[None]["game"]["version"]
        for viewer, answer in answers.items():
            headers = auth(tokens[viewer]) if viewer is not None else {}
            log = client.get(f"/v1/games/{gid}/moves", headers=headers)
            seen.append((version, viewer, shown_cards([answer, log.json])))
        if answers[None]["game"]["status"] != "playing":
            break
        [mover] = answers[None]["view"]["to_move"]
        plays = [m for m in answers[mover]["view"]["legal_moves"] if m["type"] == "play"]
        r = client.post(f"/v1/games/{gid}/moves", headers=auth(tokens[mover]),
                        json={"version": version, "move": rng.choice(plays)})  # fmt: skip
        assert r.status_code == 201, r.json
        seen.append((version + 1, mover, shown_cards(r.json)))
    else:
        pytest.fail("the game did not end in 20 moves")

    # Over: the seed is public, so every position is known again, and none of the answers a
    # viewer got at a version held a card hidden from it there.
    record = client.get(f"/v1/games/{gid}/record").json
    # Each seat's last card is forced: the engine plays it, and the log holds real choices.
    assert len(record["moves"]) == 12 - seats and record["outcome"]["reason"] == "cards_out"
    assert record["options"] == {"seats": seats}
    states = [ruleset.start(record["seed"], record["options"])]
    for event in record["moves"]:
        states.append(ruleset.apply(states[-1], event["seat"], event["move"]).state)
    for version, viewer, strings in seen:
        hidden = ruleset.hidden(states[version], viewer)
        assert not hidden & strings, (version, viewer, hidden & strings)
    assert client.post("/v1/records/verify", json=record).json["valid"] is True
    step = client.get(f"/v1/games/{gid}/replay?at=0").json
    assert step["deal_plan"] == [{"label": "deal", "cards": list(ruleset.deal_plan()[0].cards)}]
    assert step["deck"] == ruleset.deck(record["seed"])
    assert len(step["view"]["piles"]) == seats  # the replay deals for as many seats
    totals = states[-1].totals()
    outcome = client.get(f"/v1/games/{gid}", headers=auth(tokens[1])).json["game"]["outcome"]
    assert outcome["score"] == totals
    leaders = [seat for seat, total in enumerate(totals) if total == max(totals)]
    assert outcome["winner"] == (leaders[0] if len(leaders) == 1 else None), (outcome, totals)


def test_bot_seats_play_themselves(client):
    created = create(client, [{"player": "human"}, {"player": "bot", "policy": "greedy"},
                              {"player": "bot", "policy": "random"}])  # fmt: skip
    gid, token = created["game"]["id"], created["token"]
    assert created["invites"] == []
    for _ in range(8):
        answer = client.get(f"/v1/games/{gid}", headers=auth(token)).json
        if answer["game"]["status"] != "playing":
            break
        assert answer["view"]["to_move"] == [0]  # the bots have moved by the time we read
        play = next(m for m in answer["view"]["legal_moves"] if m["type"] == "play")
        r = client.post(f"/v1/games/{gid}/moves", headers=auth(token),
                        json={"version": answer["game"]["version"], "move": play})  # fmt: skip
        assert r.status_code == 201, r.json
    record = client.get(f"/v1/games/{gid}/record").json
    assert record["status"] == "finished" and len(record["moves"]) == 9
    assert [e["seat"] for e in record["moves"]] == [0, 1, 2] * 3


def test_the_seats_option_and_the_seats_asked_for_agree(client):
    four = client.post("/v1/games", json={"ruleset": TALLY, "options": {"seats": 4}})
    assert four.status_code == 201 and len(four.json["game"]["seats"]) == 4  # all human
    both = {"ruleset": TALLY, "options": {"seats": 4}, "seats": [{"player": "human"}] * 3}
    r = client.post("/v1/games", json=both)
    assert r.status_code == 422 and "3 seats were asked for" in r.json["detail"], r.json
    for wrong in (2, 5, 10**9, "4", True):
        r = client.post("/v1/games", json={"ruleset": TALLY, "options": {"seats": wrong}})
        assert r.status_code == 422, (wrong, r.json)
    listed = {r["id"]: r for r in client.get("/v1/rulesets").json["rulesets"]}
    [seats] = [o for o in listed[TALLY]["options"] if o["name"] == "seats"]
    assert (seats["minimum"], seats["maximum"], seats["default"]) == (3, 4, 3)
    # Games of a fixed number of seats are offered no such option.
    assert all("seats" not in {o["name"] for o in r["options"]}
               for i, r in listed.items() if i != TALLY)  # fmt: skip
