"""The game service: the use cases of domain/usecases/ behind one object, for the handlers,
whatever their kind (HTTP, `court serve`, AWS, the CLI), and the tests written against it.

Each method is one use case, called with the service's `Court` (its store, clock, secrets
and settings); every business rule lives in the use-case modules, none here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from domain.daily import FIRST_DAY
from domain.errors import Json
from domain.identity import IdentityPort
from domain.replay_cache import ReplayCache
from domain.store import GameStore
from domain.usecases import daily, games, players, playing, records, rematches
from domain.usecases.court import GAME_ID, Court, Snapshot, epoch, token_digest
from domain.usecases.playing import MAX_EVENTS

__all__ = ["GAME_ID", "MAX_EVENTS", "GameService", "Snapshot", "epoch", "token_digest"]


class GameService:
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
        self.court = Court(
            store, clock, new_secret, daily_secret, replay_cache, first_day, game_ttl,
            finished_ttl, identities,
        )  # fmt: skip

    @property
    def store(self) -> GameStore:
        return self.court.store

    @property
    def cache(self) -> ReplayCache | None:
        return self.court.cache

    @cache.setter
    def cache(self, cache: ReplayCache | None) -> None:
        self.court.cache = cache

    @property
    def game_ttl(self) -> int | None:
        return self.court.game_ttl

    def today(self) -> str:
        return self.court.today()

    # ---- games ---------------------------------------------------------------------------

    @staticmethod
    def rulesets() -> list[Json]:
        return games.rulesets()

    def create_game(
        self,
        ruleset_id: str,
        options: Mapping[str, Any] | None,
        seed: str | None,
        from_game: str | None = None,
        seats: object = None,
    ) -> Snapshot:
        return games.create_game(self.court, ruleset_id, options, seed, from_game, seats)

    def join(self, game_id: str, seat: int, invite: str | None) -> Snapshot:
        return games.join(self.court, game_id, seat, invite)

    def rematch(self, game_id: str, token: str | None) -> Snapshot:
        return rematches.rematch(self.court, game_id, token)

    def read_game(self, game_id: str, token: str | None) -> Snapshot:
        return games.read_game(self.court, game_id, token)

    def watch_game(self, game_id: str, token: str | None) -> tuple[int | None, Snapshot]:
        return games.watch_game(self.court, game_id, token)

    def read_game_as(self, game_id: str, seats: Iterable[int | None]) -> dict[int | None, Snapshot]:
        return games.read_game_as(self.court, game_id, seats)

    def game_version(self, game_id: str) -> int:
        return games.game_version(self.court, game_id)

    def delete_expired(self) -> int:
        return games.delete_expired(self.court)

    def play(
        self,
        game_id: str,
        token: str | None,
        version: int,
        move: Json,
        idempotency_key: str | None = None,
    ) -> Snapshot:
        return playing.play(self.court, game_id, token, version, move, idempotency_key)

    # ---- records -------------------------------------------------------------------------

    def moves(self, game_id: str, token: str | None = None) -> list[Json]:
        return records.moves(self.court, game_id, token)

    def record(self, game_id: str, token: str | None) -> Json:
        return records.record(self.court, game_id, token)

    def replay_step(self, game_id: str, token: str | None, at: int) -> Json:
        return records.replay_step(self.court, game_id, token, at)

    def list_finished(self, ruleset_id: str | None, limit: int, cursor: str | None) -> Json:
        return records.list_finished(self.court, ruleset_id, limit, cursor)

    # ---- daily challenges ------------------------------------------------------------------

    def daily(self, date: str) -> Json:
        return daily.daily(self.court, date)

    def prepare_daily(self, days: int = 2) -> list[str]:
        return daily.prepare_daily(self.court, days)

    # ---- players ---------------------------------------------------------------------------

    def create_player(self, name: object) -> Json:
        return players.create_player(self.court, name)

    def sign_in(self, id_token: object, name: object, guest_token: str | None) -> Json:
        return players.sign_in(self.court, id_token, name, guest_token)

    def sign_in_with_code(
        self, code: str, code_verifier: str, redirect_uri: str, name: object,
        guest_token: str | None,
    ) -> Json:  # fmt: skip
        return players.sign_in_with_code(
            self.court, code, code_verifier, redirect_uri, name, guest_token
        )

    def sign_out(self, token: str | None) -> None:
        players.sign_out(self.court, token)

    def me(self, token: str | None) -> Json:
        return players.me(self.court, token)

    def rename(self, token: str | None, name: object) -> Json:
        return players.rename(self.court, token, name)

    def profile(self, player_id: str) -> Json:
        return players.profile(self.court, player_id)

    def sign_in_provider(self) -> Json:
        return players.provider(self.court)

    def start_daily(self, date: str, ruleset_id: str, player_token: str | None) -> Snapshot:
        return daily.start_daily(self.court, date, ruleset_id, player_token)

    def leaderboard(
        self,
        date: str,
        ruleset_id: str,
        limit: int,
        cursor: str | None,
        player_token: str | None = None,
    ) -> Json:
        return daily.leaderboard(self.court, date, ruleset_id, limit, cursor, player_token)
