"""Secrecy as a property, through the Flask app: thousands of random two-seat games played by
random clients (both seats, bots, a spectator) submitting in random order, sometimes stale,
sometimes retrying, and reading everything a client can read. After every response the full
state is rebuilt from the store, and the response (body and headers) must hold no card hidden
from its requester at that moment (unless a move of the past, as shown to it, named that card,
or it saw it in play at an earlier position), no sealed move of another seat, and no
unrevealed seed.

ROYAL_SECRECY_GAMES sets the number of games (default 2,000).
"""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from domain.registry import GAMES
from domain.replay import replay
from domain.replay_cache import ReplayCache
from domain.service import GameService
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets, fixed_clock
from tests.fakes import InMemoryStore
from tests.helpers import strings_in

pytestmark = pytest.mark.long  # handed out first (tests/conftest.py)

GAMES_TO_PLAY = int(os.environ.get("ROYAL_SECRECY_GAMES", "2000"))
LONG_GAMES = {"royal-assassin-duel": 100}
"""A Duel runs ~160 moves (about 500 requests of the probe): it plays 1/100 as many games."""
SHARDS = 4
"""Each ruleset's games are played as this many independent servers with their own random
streams, so that the test runners' workers share them."""
TWO_SEAT_GAMES = sorted(g for g, entry in GAMES.items() if entry.ruleset.max_seats > 1)
SEATINGS = (
    [{"player": "human"}, {"player": "human"}],
    [{"player": "human"}, {"player": "bot", "policy": "random"}],
    [{"player": "bot", "policy": "best"}, {"player": "human"}],
)


class Prober:
    def __init__(self, store, client, ruleset_id, rng):
        self.store, self.client, self.rng = store, client, rng
        self.ruleset = GAMES[ruleset_id].ruleset
        self.ruleset_id = ruleset_id
        self.responses = 0
        self.known: dict[tuple[str, int | None], tuple[int, set[str], object]] = {}
        self.replayed: dict[str, tuple[int, object]] = {}

    def truth(self, gid):
        """The full state now, replayed from the stored log (incrementally: it only grows;
        read again only when the store's version says it grew)."""
        done, game = self.replayed.get(gid, (0, None))
        if game is None or self.store.version(gid) != done:
            stored = self.store.load(gid)
            self.record = r = stored.record  # the game as the last check found it (the loop
            if game is None:  # reads its status)
                game = replay(self.ruleset, r.seed, r.options, [])
            for event in stored.moves[done:]:
                game.play(event.seat, event.move)
            self.replayed[gid] = (len(stored.moves), game)
        return self.record, game.state

    def public_knowledge(self, gid, viewer):
        """Every card `viewer` may know of: all it could see at every position so far, and
        the log as it is shown to it (forced moves the engine played included). A card
        hidden now (back in the stock after a reshuffle, say) may still be named by a move
        of the past; naming it tells nothing."""
        stored = self.store.load(gid)
        r = stored.record
        done, known, game = self.known.get((gid, viewer), (0, set(), None))
        events = [(m.seat, m.move) for m in stored.moves]
        if game is None:
            game = replay(self.ruleset, r.seed, r.options, [])
        for index in range(done, len(events) + 1):
            known |= set(strings_in(self.ruleset.view(game.state, viewer)))
            if index < len(events):
                for effect in game.play(*events[index]):
                    if effect.get("type") == "forced":  # a move the engine played: shown
                        known |= set(
                            strings_in(
                                self.ruleset.public_log(
                                    game.state, [(effect["seat"], effect["move"])], viewer
                                )
                            )
                        )
        known |= set(strings_in(self.ruleset.public_log(game.state, events, viewer)))
        self.known[(gid, viewer)] = (len(events), known, game)
        return known

    def check(self, gid, viewer, response):
        """Nothing hidden from `viewer` now may be in this response."""
        self.responses += 1
        record, state = self.truth(gid)
        text = response.get_data(as_text=True)
        headers = " ".join(f"{k}: {v}" for k, v in response.headers.items())
        over = self.ruleset.is_over(state)
        if not over and not record.seed_known:
            assert record.seed not in text and record.seed not in headers, "seed leaked"
        hidden = self.ruleset.hidden(state, viewer)
        if not hidden and over:
            return
        words = set(re.findall(r"[A-Za-z0-9]+", headers))
        assert not words & hidden, ("header leak", words & hidden)
        if not text:
            return
        if response.mimetype == "text/event-stream":  # each event's data is a JSON body
            body = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]
        else:
            body = response.json  # parsed once, by the spec check too
        if over and isinstance(body, dict):
            # A finished game's deck, re-derived from its public seed, and what its deal
            # shuffled (every card of the game in canonical order, the same for every deal).
            body.pop("deck", None)
            body.pop("deal_plan", None)
        leaked = set(strings_in(body)) & hidden
        if leaked:
            leaked -= self.public_knowledge(gid, viewer)
        assert not leaked, (viewer, leaked, text[:400])
        if not over:
            for other, sealed in enumerate(getattr(state, "sealed", ())):
                if other != viewer and sealed is not None:
                    assert not _sealed_shown(body, other, len(sealed)), (viewer, text[:400])

    def play_game(self, seating):
        client, rng = self.client, self.rng
        r = client.post("/v1/games", json={"ruleset": self.ruleset_id, "seats": seating})
        assert r.status_code == 201, r.json
        created = r.json
        gid = created["game"]["id"]
        self.check(gid, created["seat"], r)
        tokens = {created["seat"]: created["token"]}
        for invite in created["invites"]:
            j = client.post(f"/v1/games/{gid}/seats/{invite['seat']}",
                            json={"invite": invite["invite"]})  # fmt: skip
            assert j.status_code == 201
            self.check(gid, invite["seat"], j)
            tokens[invite["seat"]] = j.json["token"]
        seen = {seat: 0 for seat in tokens}
        last_key: dict[int, tuple[str, int, dict]] = {}
        for _ in range(5000):
            actor = rng.choice([*tokens, None])
            headers = {} if actor is None else {"Authorization": f"Bearer {tokens[actor]}"}
            action = rng.random()
            if action < 0.15:
                resp = client.get(f"/v1/games/{gid}/moves", headers=headers)
            elif action < 0.22:
                resp = client.get(f"/v1/games/{gid}/record", headers=headers)
            elif action < 0.3:
                version = self.replayed[gid][0]  # as the last check read the store
                resp = client.get(f"/v1/games/{gid}/replay?at={rng.randint(0, version)}",
                                  headers=headers)  # fmt: skip
            elif actor is None or action < 0.4:
                resp = client.get(f"/v1/games/{gid}", headers=headers)
            else:
                resp = self.move(gid, actor, headers, seen, last_key)
            self.check(gid, actor, resp)
            if resp.status_code in (200, 201) and actor is not None and "game" in resp.json:
                seen[actor] = resp.json["game"]["version"]
            if self.record.status != "playing":  # read from the store by this check
                break
        else:
            raise AssertionError("the game did not end")
        for viewer in [*tokens, None]:  # at the end everything is public
            headers = {} if viewer is None else {"Authorization": f"Bearer {tokens[viewer]}"}
            self.check(gid, viewer, client.get(f"/v1/games/{gid}/record", headers=headers))

    def move(self, gid, seat, headers, seen, last_key):
        rng = self.rng
        if seat in last_key and rng.random() < 0.2:  # a retry of the last request
            key, version, move = last_key[seat]
        else:
            # The seat's legal moves as its view lists them, from the position the last check
            # replayed (reading the view first would add a request to every move: a fifth of
            # the probe's, and the reads are probed on their own, above).
            version, game = self.replayed[gid]
            legal = game.legal_moves(seat)
            real = [m for m in legal if m["type"] != "resign"]
            if not real or rng.random() < 0.1:
                move = rng.choice([*legal, {"type": "flip", "targets": ["king"]}]
                                  if legal else [{"type": "resign"}])  # fmt: skip
            else:
                move = rng.choice(real)
            if move["type"] == "resign" and rng.random() < 0.9:
                move = real[0] if real else move
            if rng.random() < 0.2:
                version = seen[seat]  # possibly stale
            key = f"k{rng.random()}"
        last_key[seat] = (key, version, move)
        return self.client.post(f"/v1/games/{gid}/moves",
                                json={"version": version, "move": move},
                                headers={**headers, "Idempotency-Key": key})  # fmt: skip


def _sealed_shown(body, other, count) -> bool:
    """Whether seat `other`'s flip of this turn (`count` targets: the sealed one; earlier
    turns' flips are public) appears, targets and all, anywhere in `body`."""
    if isinstance(body, dict):
        move = body.get("move")
        if (
            body.get("seat") == other
            and isinstance(move, dict)
            and len(move.get("targets") or ()) == count
        ):
            return True
        return any(_sealed_shown(v, other, count) for v in body.values())
    if isinstance(body, list):
        return any(_sealed_shown(v, other, count) for v in body)
    return False


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("ruleset_id", TWO_SEAT_GAMES)
def test_no_response_leaks_what_its_requester_may_not_see(ruleset_id, shard):
    store = InMemoryStore()
    service = GameService(store, fixed_clock, counting_secrets(), replay_cache=ReplayCache(64))
    rng = random.Random(7 + 1000 * shard)
    prober = Prober(store, create_app(service).test_client(), ruleset_id, rng)
    games = max(GAMES_TO_PLAY // LONG_GAMES.get(ruleset_id, 1) // SHARDS, 3)
    for i in range(games):
        prober.play_game(SEATINGS[i % len(SEATINGS)])
    assert prober.responses > games * 10
