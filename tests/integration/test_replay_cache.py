"""The replay cache changes nothing a client sees: a cached and an uncached service give
byte-identical responses over random interleavings of games, moves, retries, stale versions,
illegal moves, reads, records and replay steps."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.replay_cache import CHECKPOINT_EVERY, ReplayCache
from domain.service import GameService
from handlers.http.app import create_app
from tests.fakes import InMemoryStore


def twin_clients(capacity):
    """Two apps alike in every way (clock, secrets, store) but the cache."""

    def build(cache):
        counter = itertools.count()
        service = GameService(
            InMemoryStore(),
            lambda: "2026-11-22T00:00:00.000Z",
            lambda: f"s{next(counter):010d}xxxxxxxxxxxxxxxxxxxxxx",
            b"secret",
            cache,
        )
        return create_app(service).test_client()

    return build(ReplayCache(capacity)), build(None)


RULESETS = ["royal-assassin", "adaman", "royal-assassin-duel", "royal-ace-assin", "risus-royale"]
TWO_SEATS = {"royal-assassin-duel", "royal-ace-assin"}

OPS = st.lists(
    st.tuples(
        st.sampled_from(["create", "move", "move", "move", "retry", "stale", "junk", "read",
                         "record", "replay", "moves"]),
        st.integers(0, 1000),
        st.integers(0, 1000),
    ),
    min_size=1,
    max_size=60,
)  # fmt: skip


@settings(max_examples=60)
@given(ops=OPS, capacity=st.sampled_from([1, 2, 64]))
def test_cached_and_uncached_services_answer_byte_for_byte_alike(ops, capacity):
    cached, plain = twin_clients(capacity)
    games = []  # (id, token, ruleset) as created (the same in both: deterministic secrets)
    last_move: dict[str, tuple] = {}

    def both(method, path, **kwargs):
        a = getattr(cached, method)(path, **kwargs)
        b = getattr(plain, method)(path, **kwargs)
        assert (a.status_code, a.get_data()) == (b.status_code, b.get_data()), path
        return a

    for op, x, y in ops:
        if op == "create" or not games:
            ruleset = RULESETS[x % len(RULESETS)]
            body = {"ruleset": ruleset}
            if y % 3 == 0 and ruleset not in TWO_SEATS:  # a two-seat deal is always secret
                body["seed"] = f"s{y}"
            if ruleset in TWO_SEATS:  # against a bot: its replies are replayed too
                body["seats"] = [{"player": "human"}, {"player": "bot", "policy": "random"}]
            elif y % 5 == 0:
                body["options"] = {"undo": True}
            r = both("post", "/v1/games", json=body)
            games.append((r.json["game"]["id"], r.json["token"]))
            continue
        gid, token = games[x % len(games)]
        auth = {"Authorization": f"Bearer {token}"}
        if op in ("move", "stale", "junk"):
            state = both("get", f"/v1/games/{gid}", headers=auth).json
            version = state["game"]["version"]
            legal = state["view"]["legal_moves"] or [{"type": "resign"}]
            move = legal[y % len(legal)] if op != "junk" else {"type": ["draw"]}
            if op == "stale":
                version = max(0, version - 1 - y % 3)
            headers = {**auth, "Idempotency-Key": f"k{x}-{y}"} if y % 2 else auth
            body = {"version": version, "move": move}
            both("post", f"/v1/games/{gid}/moves", json=body, headers=headers)
            last_move[gid] = (body, headers)
        elif op == "retry" and gid in last_move:
            body, headers = last_move[gid]
            both("post", f"/v1/games/{gid}/moves", json=body, headers=headers)
        elif op == "read":
            both("get", f"/v1/games/{gid}", headers=auth if y % 2 else {})
        elif op == "record":
            both("get", f"/v1/games/{gid}/record")
        elif op == "replay":
            both("get", f"/v1/games/{gid}/replay?at={y % 6}", headers=auth)
        elif op == "moves":
            both("get", f"/v1/games/{gid}/moves")


def test_the_cache_is_used_and_a_forged_entry_is_ignored():
    cached, _ = twin_clients(8)
    created = cached.post("/v1/games", json={"ruleset": "royal-assassin", "seed": "royal"}).json
    gid, auth = created["game"]["id"], {"Authorization": f"Bearer {created['token']}"}
    for version in range(3):
        legal = cached.get(f"/v1/games/{gid}", headers=auth).json["view"]["legal_moves"]
        r = cached.post(f"/v1/games/{gid}/moves", json={"version": version, "move": legal[0]},
                        headers=auth)  # fmt: skip
        assert r.status_code == 201
    cache = _cache_of(cached)
    assert cache.hits > 0
    # An entry that does not match the log (a forged or stale hash) is never used.
    entry = cache._entries[gid]
    cache._entries[gid] = type(entry)(entry.version, "0" * 64, entry.game)
    before = cache.misses
    assert cached.get(f"/v1/games/{gid}", headers=auth).status_code == 200
    assert cache.misses == before + 1


def _cache_of(client):
    return _service_of(client).cache


def _service_of(client):
    for cell in client.application.view_functions["read_game"].__closure__:
        value = cell.cell_contents
        if isinstance(value, GameService):
            return value
    raise AssertionError("no service in the app")


def test_past_positions_of_a_long_game_start_from_its_checkpoints():
    """A game of 300 events (moves and undos): every replay step and the record read alike
    with and without the cache, and a step of its past starts from the checkpoint before it
    (a multiple of CHECKPOINT_EVERY), not from the deal."""
    cached, plain = twin_clients(8)
    body = {"ruleset": "royal-assassin", "seed": "royal", "options": {"undo": True}}
    created = cached.post("/v1/games", json=body).json
    assert plain.post("/v1/games", json=body).json == created
    gid, auth = created["game"]["id"], {"Authorization": f"Bearer {created['token']}"}
    for version in range(300):
        legal = cached.get(f"/v1/games/{gid}", headers=auth).json["view"]["legal_moves"]
        undo = [m for m in legal if m["type"] == "undo"]
        move = undo[0] if undo and version % 2 else next(m for m in legal if m["type"] != "resign")
        for client in (cached, plain):
            r = client.post(f"/v1/games/{gid}/moves", json={"version": version, "move": move},
                            headers=auth)  # fmt: skip
            assert r.status_code == 201, r.json
    cache = _cache_of(cached)
    assert sorted(cache._checkpoints[gid]) == list(range(CHECKPOINT_EVERY, 301, CHECKPOINT_EVERY))
    for at in (0, 1, 127, 128, 129, 200, 255, 256, 299, 300, 5):
        path = f"/v1/games/{gid}/replay?at={at}"
        a, b = cached.get(path, headers=auth), plain.get(path, headers=auth)
        assert (a.status_code, a.get_data()) == (b.status_code, b.get_data()), at
    stored = _service_of(cached).court.games.load(gid)
    assert cache.get(gid, stored.hash_at, 200)[0] == 200 - 200 % CHECKPOINT_EVERY
    assert cache.get(gid, stored.hash_at, CHECKPOINT_EVERY - 1) is None  # from the deal
    assert (
        cached.get(f"/v1/games/{gid}/record").get_data()
        == plain.get(f"/v1/games/{gid}/record").get_data()
    )
