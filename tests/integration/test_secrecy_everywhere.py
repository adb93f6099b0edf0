"""No secret before its time, through every endpoint (issue 27).

Random daily attempts and two-seat games are played side by side on one server while its
clock runs across UTC midnights; after every request, of any route, by any requester (each
seat, a spectator, a player of another game, a player of the day), the whole response (body
and headers) is searched for every secret that requester may not hold yet:

- a seed not revealed yet (a game in play, or a ranked game or daily deal whose day is not
  over), and every game's chain key (never revealed);
- the salt of a move the requester may not see whole (it would let guesses be tested against
  the move's hash), and the hidden cards and sealed moves of two-seat games (the card-level
  oracle of test_two_seat_secrecy's Prober).

Every GET route of /v1 is driven: a new route fails `test_every_read_route_is_probed` until
this probe knows how to call it, so future endpoints inherit the property.

ROYAL_SECRECY_GAMES sets the number of games (default 1,000).
"""

from __future__ import annotations

import os
import random
from datetime import datetime, timedelta

import pytest

from domain.record import move_salt
from domain.registry import GAMES
from domain.replay_cache import ReplayCache
from domain.service import GameService
from handlers.config import Settings
from handlers.http.app import create_app
from tests.api_helpers import counting_secrets
from tests.fakes import InMemoryStore
from tests.helpers import strings_in
from tests.integration.test_two_seat_secrecy import Prober

pytestmark = pytest.mark.long  # handed out first (tests/conftest.py)

GAMES_TO_PLAY = int(os.environ.get("ROYAL_SECRECY_GAMES", "1000"))
SHARDS = 4
"""The games are played as this many independent servers, each with its own random stream, so
that the test runners' workers share them."""
SECRET = b"secrecy-everywhere"
DAILY = "royal-assassin"  # ranked attempts: the cheapest solitaire to choose a deal for
TWO_SEAT = sorted(g for g, e in GAMES.items() if e.ruleset.max_seats > 1)
READ_ROUTES = {
    "/v1/rulesets",
    "/v1/games",
    "/v1/games/<game_id>",
    "/v1/games/<game_id>/moves",
    "/v1/games/<game_id>/record",
    "/v1/games/<game_id>/replay",
    "/v1/games/<game_id>/events",
    "/v1/daily/<date>",
    "/v1/daily/<date>/<ruleset>/leaderboard",
    "/v1/me",
    "/v1/players/<player_id>",
    "/v1/sign-in",
}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 20, 0)

    def __call__(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    @property
    def today(self) -> str:
        return self.now.strftime("%Y-%m-%d")


class Court:
    """One server, its store and clock, and everything a requester could hold."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.clock = Clock()
        self.store = InMemoryStore()
        cache = ReplayCache(Settings.replay_cache)  # as the entry points run it
        self.service = GameService(self.store, self.clock, counting_secrets(), SECRET, cache)
        self.client = create_app(self.service).test_client()
        self.probers = {g: Prober(self.store, self.client, g, rng) for g in [DAILY, *TWO_SEAT]}
        self.games: dict[str, dict[int, str]] = {}  # game id -> seat -> token
        self.players: list[str] = []  # player tokens
        self.active: list[str] = []  # games still being played
        self.requests = 0
        self.listed_ranked = 0  # rows of ranked games of a day not over, read in the listing
        self.days: set[str] = set()
        self.chain_keys: set[str] = set()
        self.day_seeds: dict[str, str] = {}

    # ---- secrets -------------------------------------------------------------------------

    def secrets_for(self, viewer_game: str | None, viewer_seat: int | None) -> set[str]:
        """Every string no response to this requester may hold now: every chain key, the
        seed of each day not over yet, and of each game in play its seed (unless chosen)
        and the salts of the moves this requester may not see whole. A finished game's
        secrets are all out, but for a ranked game's seed: its day's, out when the day is."""
        today = self.clock.today
        found = set(self.chain_keys)
        found |= {seed for day, seed in self.day_seeds.items() if day >= today}
        for gid in self.active:
            stored = self.store.load(gid)
            r = stored.record
            if r.status != "playing":  # just finished: all out (a daily seed: see above)
                continue
            if r.daily is None and not r.seed_known:
                found.add(r.seed)
            ruleset = GAMES[r.ruleset].ruleset
            if ruleset.max_seats == 1:
                continue  # a solitaire's moves are all its one seat's: nothing is hidden
            seat = viewer_seat if gid == viewer_game else None
            state = self.probers[r.ruleset].truth(gid)[1]
            shown = ruleset.public_log(state, [(m.seat, m.move) for m in stored.moves], seat)
            for event, seen in zip(stored.moves, shown, strict=True):
                if seen != event.move:
                    found.add(move_salt(r.chain_key, event.seq))
        return found

    def check(self, response, viewer_game: str | None, viewer_seat: int | None, about: str | None):
        self.requests += 1
        text = response.get_data(as_text=True)
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        for secret in self.secrets_for(viewer_game, viewer_seat):
            assert secret not in text and secret not in headers, (
                response.request.path,
                viewer_game,
                viewer_seat,
                secret[:12],
                text[:300],
            )
        if about is not None and about in self.games and response.status_code < 400:
            record = self.store.load(about).record
            if record.daily is not None and record.daily.date < self.clock.today:
                return  # its day is over: its seed, so every card, is public
            ruleset = record.ruleset
            seat = viewer_seat if viewer_game == about else None
            self.probers[ruleset].check(about, seat, response)

    # ---- requesters -----------------------------------------------------------------------

    def requester(self) -> tuple[dict[str, str], str | None, int | None]:
        """Headers of a random requester: a seat of some game, a player, or nobody."""
        rng = self.rng
        kind = rng.random()
        if kind < 0.55 and self.games:
            gid = rng.choice(self.active or list(self.games))
            seat = rng.choice(list(self.games[gid]))
            return {"Authorization": f"Bearer {self.games[gid][seat]}"}, gid, seat
        if kind < 0.75 and self.players:
            return {"Authorization": f"Bearer {rng.choice(self.players)}"}, None, None
        return {}, None, None

    def read(self) -> None:
        """One GET of a random read route, as a random requester."""
        rng, client = self.rng, self.client
        headers, viewer_game, viewer_seat = self.requester()
        gid = rng.choice(list(self.games)) if self.games and rng.random() < 0.5 else viewer_game
        gid = gid or (rng.choice(list(self.games)) if self.games else "nope")
        day = rng.choice([*sorted(self.days), "today"]) if self.days else "today"
        route = rng.choice(sorted(READ_ROUTES))
        version = self.store.version(gid) if gid in self.games else 0
        url = {
            "/v1/rulesets": "/v1/rulesets",
            "/v1/games": f"/v1/games?status=finished&limit={rng.randint(1, 100)}"
            + rng.choice(["", f"&ruleset={DAILY}", f"&ruleset={rng.choice(TWO_SEAT)}"]),
            "/v1/games/<game_id>": f"/v1/games/{gid}",
            "/v1/games/<game_id>/moves": f"/v1/games/{gid}/moves",
            "/v1/games/<game_id>/record": f"/v1/games/{gid}/record",
            "/v1/games/<game_id>/replay": f"/v1/games/{gid}/replay?at={rng.randint(0, version)}",
            # No Last-Event-ID: the current event at once, and the stream ends (on Flask).
            "/v1/games/<game_id>/events": f"/v1/games/{gid}/events",
            "/v1/daily/<date>": f"/v1/daily/{day}",
            "/v1/daily/<date>/<ruleset>/leaderboard": f"/v1/daily/{day}/{DAILY}/leaderboard",
            "/v1/me": "/v1/me",  # as whoever this requester is: a seat's token is refused
            "/v1/players/<player_id>": "/v1/players/"
            + (rng.choice(self.players).partition(".")[0] if self.players else "nobody"),
            "/v1/sign-in": "/v1/sign-in",
        }[route]
        response = client.get(url, headers=headers)
        assert response.status_code < 500, (url, response.get_data(as_text=True)[:300])
        about = gid if "<game_id>" in route else None
        self.check(response, viewer_game, viewer_seat, about)
        if route == "/v1/games":
            self.check_listing(response.json["games"])

    def check_listing(self, rows: list[dict]) -> None:
        """A ranked game's row, before its day is over, names no card of its deal: a stranger
        may know none of the day's deck (the player's own view is checked by the Prober)."""
        for row in rows:
            record = self.store.load(row["id"]).record
            if record.daily is None or record.daily.date < self.clock.today:
                continue
            deck = GAMES[record.ruleset].ruleset.deck(record.seed, record.options)
            assert not strings_in(row) & set(deck), (row, self.clock.today)
            self.listed_ranked += 1

    # ---- games ------------------------------------------------------------------------------

    def start_daily(self) -> None:
        r = self.client.post("/v1/players", json={"name": f"P{len(self.players)}"})
        self.check(r, None, None, None)
        player = r.json["token"]
        self.players.append(player)
        self.days.add(self.clock.today)
        r = self.client.post(
            f"/v1/daily/today/{DAILY}/games", headers={"Authorization": f"Bearer {player}"}
        )
        assert r.status_code == 201, r.json
        gid = r.json["game"]["id"]
        self.games[gid] = {0: r.json["token"]}
        self.active.append(gid)
        record = self.store.load(gid).record
        self.chain_keys.add(record.chain_key)
        self.day_seeds[self.clock.today] = record.seed
        self.check(r, gid, 0, gid)

    def start_two_seat(self) -> None:
        rng = self.rng
        ruleset = "royal-assassin-duel" if rng.random() < 0.05 else "royal-ace-assin"
        seats = rng.choice(
            [
                [{"player": "human"}, {"player": "human"}],
                [{"player": "human"}, {"player": "bot", "policy": "random"}],
                [{"player": "bot", "policy": "greedy"}, {"player": "human"}],
            ]
        )
        r = self.client.post("/v1/games", json={"ruleset": ruleset, "seats": seats})
        assert r.status_code == 201, r.json
        gid = r.json["game"]["id"]
        self.games[gid] = {r.json["seat"]: r.json["token"]}
        self.active.append(gid)
        self.chain_keys.add(self.store.load(gid).record.chain_key)
        self.check(r, gid, r.json["seat"], gid)
        for invite in r.json["invites"]:
            j = self.client.post(
                f"/v1/games/{gid}/seats/{invite['seat']}", json={"invite": invite["invite"]}
            )
            self.games[gid][invite["seat"]] = j.json["token"]
            self.check(j, gid, invite["seat"], gid)

    def move(self) -> None:
        rng = self.rng
        gid = rng.choice(self.active)
        seat = rng.choice(list(self.games[gid]))
        headers = {"Authorization": f"Bearer {self.games[gid][seat]}"}
        view = self.client.get(f"/v1/games/{gid}", headers=headers)
        self.check(view, gid, seat, gid)
        if view.status_code != 200:
            return
        legal = view.json["view"]["legal_moves"]
        real = [m for m in legal if m["type"] not in ("resign", "undo")]
        move = rng.choice(real) if real and rng.random() > 0.03 else {"type": "resign"}
        r = self.client.post(
            f"/v1/games/{gid}/moves",
            headers=headers,
            json={"version": view.json["game"]["version"], "move": move},
        )
        self.check(r, gid, seat, gid)
        closed = r.status_code == 409 and r.json["type"].endswith("daily-closed")
        if closed or self.store.load(gid).record.status != "playing":
            self.active.remove(gid)

    def round(self) -> None:
        rng = self.rng
        while len(self.active) < 3:
            self.start_daily() if rng.random() < 0.5 else self.start_two_seat()
        for _ in range(rng.randint(1, 12)):
            if not self.active:
                break
            self.move() if rng.random() < 0.6 else self.read()
        self.clock.now += timedelta(minutes=rng.randint(0, 40))


def test_every_read_route_is_probed():
    app = create_app(GameService(InMemoryStore(), Clock(), counting_secrets(), SECRET))
    reads = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and rule.rule.startswith("/v1/")
    }
    assert reads == READ_ROUTES, "a /v1 read route this probe does not call yet: add it"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_secret_before_its_time_through_any_endpoint(quick_deals, shard):
    # Choosing a day's deals (the solver's search for a winnable one, then 200 bot games to
    # rate it) would be most of this test's time, and tells nothing about secrecy: candidate
    # 0 is taken, rated by one game (tests/conftest.py: quick_deals).
    court = Court(random.Random(27 + shard))
    games = GAMES_TO_PLAY // SHARDS
    while len(court.games) < games:
        court.round()
    assert len(court.days) >= 3  # midnights were crossed: seeds came out as days ended
    assert court.requests > 10 * games
    assert court.listed_ranked > 0  # the listing's masking was exercised
