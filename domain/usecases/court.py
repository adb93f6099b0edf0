"""What every use case shares: the ports it is given, and the one way a request opens a game
(load, authorize, guard, replay), so that no use case writes that preamble again.

The court holds the store, the clock and the source of secrets as plain functions, so the
use cases stay free of I/O and of wall-clock time: the HTTP handlers, the Lambda entry and the
tests wire in real or fixed ones. The store is handed to the use cases as its narrow ports
(`games`, `players`, `deals`, `boards`: domain/store.py), each typed as only what it offers, so
that a use case says, and mypy checks, which aggregates it touches.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from domain.daily import FIRST_DAY
from domain.errors import Forbidden, GameNotFound, Json
from domain.identity import IdentityPort
from domain.registry import get_ruleset
from domain.replay import Playthrough
from domain.replay_cache import CHECKPOINT_EVERY, ReplayCache
from domain.store import DailyPort, GamePort, GameStore, LeaderboardPort, PlayerPort
from domain.stored import DailyDeal, GameRecord, StoredGame
from domain.usecases.shown import logged, masked

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id can look like (the service issues 32 URL-safe characters)."""
MAX_PAGE = 100


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game as one seat (or a spectator) sees it, plus what the last move set off."""

    game: Json
    view: Json
    effects: list[Json] | None = None
    token: str | None = None
    seat: int | None = None  # the seat a token was issued for
    invites: list[Json] | None = None  # a new game's invites, for the other human seats
    seq: int | None = None  # the event a move became (for Location headers)


@dataclass(frozen=True, slots=True)
class Opened:
    """A game as a request found it: stored, replayed to its end, and the requester's seat
    (None: a spectator)."""

    stored: StoredGame
    seat: int | None
    game: Playthrough


def token_digest(token: str) -> str:
    # A lone surrogate (JSON allows "\ud800") is no token of ours; hashed as is, it simply
    # matches nothing.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def epoch(at: str) -> int:
    """Unix seconds of a time as the clock gives it (ISO 8601, UTC).

    >>> epoch("2026-11-22T00:00:00.000Z")
    1795305600
    """
    return int(datetime.fromisoformat(at).timestamp())


class Court:
    """The ports and settings every use case works with, and the steps they share."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], str],
        new_secret: Callable[[], str],
        daily_secret: bytes | Callable[[], bytes] = b"",
        replay_cache: ReplayCache | None = None,
        first_day: str = FIRST_DAY,
        game_ttl: int | None = None,
        finished_ttl: int | None = None,
        identities: IdentityPort | None = None,
    ) -> None:
        self.store = store  # every port at once: for wiring and health checks, not use cases
        self.games: GamePort = store
        self.players: PlayerPort = store
        self.deals: DailyPort = store
        self.boards: LeaderboardPort = store
        self.clock = clock
        self.new_secret = new_secret
        # The sign-in provider's checker (None: none configured, every player a guest, and
        # guests rank: docs/accounts.md).
        self.identities = identities
        self.cache = replay_cache
        self.first_day = first_day  # the first day with a daily challenge
        # Seconds an unfinished casual game lives after its last move (None: for good).
        self.game_ttl = game_ttl or None
        # Seconds a finished casual game is kept after it ends, or after its deal was last
        # dealt again (a shared link), whichever is later (None: for good).
        self.finished_ttl = finished_ttl or None
        # Keys the daily deals (without it none can be chosen); a function is called once, on
        # first need, so that a cold start never waits on a secret store it may not use.
        self._daily_secret = daily_secret
        # One deal chosen at a time in this process: it costs seconds, and a second request
        # for the same day would only redo the work (the store keeps the first).
        self.choosing = threading.Lock()
        # The daily deals read lately, with when (epoch seconds): `usecases.daily.daily_deal`.
        self.deals_read: dict[tuple[str, str], tuple[DailyDeal, int]] = {}

    def daily_secret(self) -> bytes:
        if callable(self._daily_secret):
            self._daily_secret = self._daily_secret()
        return self._daily_secret

    def today(self) -> str:
        """The current UTC date, from the injected clock: the day boundary is testable."""
        return self.clock()[:10]

    # ---- opening a game --------------------------------------------------------------------

    def open(self, game_id: str, token: str | None, upto: int | None = None) -> Opened:
        """Load the game, find the token's seat, refuse what a ranked game keeps private, and
        replay it (to its end, or to `upto` events): every read's preamble, written once."""
        stored = self.load(game_id)
        seat = self.seat(stored.record, token) if token is not None else None
        self.guard_daily(stored.record, seat)
        game = self.replay(stored, stored.version if upto is None else upto)
        return Opened(stored, seat, game)

    def load(self, game_id: str) -> StoredGame:
        if GAME_ID.fullmatch(game_id) is None:  # never issued: no need to ask the store
            raise GameNotFound(f"no game {game_id[:80]!r}")
        stored = self.games.load(game_id)
        if stored is None:
            raise GameNotFound(f"no game {game_id!r}")
        expires = stored.record.expires_at
        if expires is not None and expires <= epoch(self.clock()):
            # Expired, whether or not the store has deleted it yet (DynamoDB's TTL takes days).
            why = "its time is up" if stored.record.finished_at else "it expired unplayed"
            raise GameNotFound(f"no game {game_id!r} ({why})")
        return stored

    @staticmethod
    def seat(record: GameRecord, token: str) -> int:
        digest = token_digest(token)
        for seat, expected in record.token_hashes.items():
            if hmac.compare_digest(digest, expected):
                return seat
        raise Forbidden("this token is not a token of a seat of this game")

    def guard_daily(self, record: GameRecord, seat: int | None) -> None:
        """A ranked daily game is its player's alone until the day is over: what it shows
        (cards drawn, the log replayed) would tell others the day's deck."""
        if record.daily is not None and seat is None and record.daily.date >= self.today():
            raise Forbidden("a ranked daily game is private to its player until the day is over")

    def replay(self, stored: StoredGame, upto: int) -> Playthrough:
        """The game after `upto` events of its log, from the cache's longest matching prefix
        (its newest position or a checkpoint; from the deal, without a cache or a match), the
        rest played by the one replay path (`Playthrough.replay`, domain/replay.py) by their
        stored text, leaving a checkpoint at each multiple of CHECKPOINT_EVERY it passes."""
        r = stored.record
        cache = self.cache
        found = None if cache is None else cache.get(r.id, stored.hash_at, upto)
        if found is None:
            start, game = 0, Playthrough(get_ruleset(r.ruleset), r.seed, r.options)
        else:
            start, game = found
        every = CHECKPOINT_EVERY
        marks = range(start - start % every + every, upto + 1, every) if cache is not None else ()
        for stop in [*marks, upto]:
            game.replay([(e.seat, e.payload) for e in stored.moves[start:stop]], start, texts=True)
            start = stop
            if cache is not None:  # kept only at the multiples of CHECKPOINT_EVERY
                cache.checkpoint(r.id, stop, stored.hash_at(stop), game)
        if cache is not None:
            cache.put(r.id, upto, stored.hash_at(upto), game)
        return game

    # ---- what a requester may see ------------------------------------------------------------

    def sealed_cards(self, stored: StoredGame) -> frozenset[str]:
        """The cards a finished ranked game keeps face down until its day is over.

        A game's end may turn every card up (Risus Royale's map, by its spec), but a ranked
        attempt's deal is the day's deal: shown to its player before midnight, it would be
        passed on to those still to play. So until the day is over, every card hidden from the
        player just before the last move stays out of every view, effect and outcome (null
        where it would stand); from midnight on the seed, and so every card, is public."""
        r = stored.record
        if r.daily is None or r.status == "playing" or not stored.moves:
            return frozenset()
        if r.daily.date < self.today():
            return frozenset()
        before = self.replay(stored, stored.version - 1)
        return frozenset(before.ruleset.hidden(before.state, 0))

    def shown(self, stored: StoredGame, game: Playthrough, seat: int | None) -> tuple[Json, Json]:
        """The game and the seat's view of it, as the requester may see them now."""
        sealed = self.sealed_cards(stored)
        game_json = self.game_json(stored.record, stored.version, game)
        return masked(game_json, sealed), masked(game.view(seat), sealed)

    def seed_public(self, record: GameRecord, over: bool) -> bool:
        """Whether the seed may be shown: chosen by the client, or the game is over; and for a
        ranked daily game, only once its day is over (else a finished player could pass the
        deck on to those still to play)."""
        if record.seed_known:
            return True
        if record.daily is not None:  # the day's seed is public once the day is over
            return record.daily.date < self.today()
        return over

    @staticmethod
    def public_moves(
        stored: StoredGame, game: Playthrough, seat: int | None, only: int | None = None
    ) -> list[Json]:
        """The log as `seat` (None: a spectator) may see it now; `only`: just its event of
        that index (what is shown of a move may depend on the whole log, but each move's
        salt is its own, and a replay step needs one of them, not two thousand)."""
        shown = game.ruleset.public_log(game.state, [(m.seat, m.move) for m in stored.moves], seat)
        key = stored.record.chain_key
        if only is not None:
            return [logged(stored.moves[only], shown[only], key)]
        return [logged(m, move, key) for m, move in zip(stored.moves, shown, strict=True)]

    def game_json(self, record: GameRecord, version: int, game: Playthrough) -> Json:
        """The game as every requester sees it (the seat's own view goes beside it)."""
        ruleset = game.ruleset
        over = ruleset.is_over(game.state)
        out: Json = {
            "id": record.id,
            "ruleset": record.ruleset,
            "options": record.options,
            "version": version,
            "status": ruleset.status(game.state),
            "seed_commitment": record.seed_commitment,
            "seed_known": record.seed_known,
            "created_at": record.created_at,
            "outcome": ruleset.outcome(game.state),
            "result": ruleset.result(game.state, len(record.seat_list)),
        }
        out["seats"] = [
            {"seat": i, "player": seat.player, **({"policy": seat.policy} if seat.is_bot else {}),
             "joined": seat.is_bot or i in record.token_hashes}
            for i, seat in enumerate(record.seat_list)
        ]  # fmt: skip
        if record.from_game is not None:
            out["from_game"] = record.from_game
        if record.daily is not None:
            out["daily"] = {"date": record.daily.date, "name": record.daily.name}
        if self.seed_public(record, over):
            out["seed"] = record.seed  # revealed: anyone can now check it and re-deal
        if "seed" in out and over:
            out["share"] = {"seed": record.seed}
            if ruleset.deals_may_be_chosen:
                out["share"]["same_deal"] = {"ruleset": record.ruleset, "from_game": record.id}
        if record.rematch is not None:  # once a seat has asked for it (usecases/rematches.py)
            out["rematch"] = {"game_id": record.rematch}
        return out
