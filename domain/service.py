"""The game service: load, replay, check, append. Every business rule of the API lives here.

It talks to storage only through the `GameStore` port, and takes the clock and the source of
secrets as plain functions, so it stays free of I/O and of wall-clock time: the HTTP handlers,
the Lambda entry and the tests wire in real or fixed ones.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.capabilities import AnyRuleset
from domain.deal import check_seed, seed_commitment
from domain.errors import (
    Forbidden,
    GameNotFound,
    GameOver,
    IdempotencyMismatch,
    StaleVersion,
    Unauthenticated,
    VersionConflict,
)
from domain.record import move_hash
from domain.registry import RULESETS, get_ruleset
from domain.store import Finish, GameRecord, GameStore, MoveEvent, StoredGame

Json = dict[str, Any]
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id can look like (the service issues 32 URL-safe characters)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game as one seat (or a spectator) sees it, plus what the last move set off."""

    game: Json
    view: Json
    effects: list[Json] | None = None
    token: str | None = None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class GameService:
    def __init__(
        self, store: GameStore, clock: Callable[[], str], new_secret: Callable[[], str]
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_secret = new_secret

    # ---- queries ---------------------------------------------------------------------------

    @staticmethod
    def rulesets() -> list[Json]:
        return [r.describe() for r in RULESETS.values()]

    def read_game(self, game_id: str, token: str | None) -> Snapshot:
        stored = self._load(game_id)
        seat = self._seat(stored.record, token) if token is not None else None
        ruleset = get_ruleset(stored.record.ruleset)
        state = self._replay(ruleset, stored, stored.version)
        return Snapshot(
            self._game_json(ruleset, stored.record, stored.version, state),
            ruleset.view(state, seat),
        )

    def moves(self, game_id: str) -> list[Json]:
        stored = self._load(game_id)
        return [
            {"seq": m.seq, "seat": m.seat, "move": m.move, "at": m.at, "hash": m.hash}
            for m in stored.moves
        ]

    # ---- commands --------------------------------------------------------------------------

    def create_game(
        self, ruleset_id: str, options: Mapping[str, Any] | None, seed: str | None
    ) -> Snapshot:
        """Deal a new game; seed_known is true when the client chose the seed (a shared deal)."""
        ruleset = get_ruleset(ruleset_id)
        full_options = ruleset.validate_options(options)
        seed_known = seed is not None
        game_seed = check_seed(seed) if seed is not None else self.new_secret()
        state = ruleset.start(game_seed, full_options)
        token = self.new_secret()
        record = GameRecord(
            id=self.new_secret(),
            ruleset=ruleset.id,
            options=dict(full_options),
            seed=game_seed,
            seed_commitment=seed_commitment(game_seed),
            seed_known=seed_known,
            created_at=self.clock(),
            token_hashes={"0": token_digest(token)},
            status=ruleset.status(state),
            outcome=ruleset.outcome(state),
        )
        self.store.create(record)
        return Snapshot(
            self._game_json(ruleset, record, 0, state), ruleset.view(state, 0), None, token
        )

    def play(
        self,
        game_id: str,
        token: str | None,
        version: int,
        move: Json,
        idempotency_key: str | None = None,
    ) -> Snapshot:
        """Check `move` against the replayed game and append it if the client was up to date."""
        if token is None:
            raise Unauthenticated("a move needs the seat's token: Authorization: Bearer <token>")
        stored = self._load(game_id)
        seat = self._seat(stored.record, token)
        ruleset = get_ruleset(stored.record.ruleset)
        if idempotency_key is not None:
            earlier = self._answered(ruleset, stored, idempotency_key, seat, version, move)
            if earlier is not None:
                return earlier
        state = self._replay(ruleset, stored, stored.version)
        if ruleset.is_over(state):
            raise GameOver()
        if version != stored.version:
            raise StaleVersion(stored.version)
        transition = ruleset.apply(state, seat, move)  # IllegalMove: nothing is appended
        seq = version + 1
        previous = stored.moves[-1].hash if stored.moves else stored.record.seed_commitment
        event = MoveEvent(
            seq, seat, move, self.clock(), move_hash(previous, seq, seat, move), idempotency_key
        )
        new_state = transition.state
        finish = None
        if ruleset.is_over(new_state):
            outcome = ruleset.outcome(new_state)
            assert outcome is not None
            finish = Finish(ruleset.status(new_state), outcome)
        try:
            self.store.append(game_id, version, event, finish)
        except VersionConflict:
            # Lost the race. If the winner was this same request (a client's retry racing
            # its first try), answer from the winner's event: a retry always agrees.
            latest = self._load(game_id)
            if idempotency_key is not None:
                earlier = self._answered(ruleset, latest, idempotency_key, seat, version, move)
                if earlier is not None:
                    return earlier
            raise StaleVersion(latest.version) from None
        return Snapshot(
            self._game_json(ruleset, stored.record, seq, new_state),
            ruleset.view(new_state, seat),
            transition.effects,
        )

    # ---- helpers ---------------------------------------------------------------------------

    def _load(self, game_id: str) -> StoredGame:
        if GAME_ID.fullmatch(game_id) is None:  # never issued: no need to ask the store
            raise GameNotFound(f"no game {game_id[:80]!r}")
        stored = self.store.load(game_id)
        if stored is None:
            raise GameNotFound(f"no game {game_id!r}")
        return stored

    @staticmethod
    def _seat(record: GameRecord, token: str) -> int:
        digest = token_digest(token)
        for seat, expected in record.token_hashes.items():
            if hmac.compare_digest(digest, expected):
                return int(seat)
        raise Forbidden("this token is not a token of a seat of this game")

    @staticmethod
    def _replay(ruleset: AnyRuleset, stored: StoredGame, upto: int) -> Any:
        moves = [(m.seat, m.move) for m in stored.moves[:upto]]
        return ruleset.replay(stored.record.seed, stored.record.options, moves)

    def _answered(
        self,
        ruleset: AnyRuleset,
        stored: StoredGame,
        idempotency_key: str,
        seat: int,
        version: int,
        move: Json,
    ) -> Snapshot | None:
        """The answer already given to this Idempotency-Key, or None if it is new."""
        for event in stored.moves:
            if event.idempotency_key == idempotency_key:
                if (event.seq, event.seat, event.move) != (version + 1, seat, move):
                    raise IdempotencyMismatch(
                        "this Idempotency-Key was already used for a different move"
                    )
                return self._as_of(ruleset, stored, event.seq)
        return None

    def _as_of(self, ruleset: AnyRuleset, stored: StoredGame, seq: int) -> Snapshot:
        """Exactly the response the move `seq` got when it was accepted: replay is exact."""
        before = self._replay(ruleset, stored, seq - 1)
        event = stored.moves[seq - 1]
        transition = ruleset.apply(before, event.seat, event.move)
        return Snapshot(
            self._game_json(ruleset, stored.record, seq, transition.state),
            ruleset.view(transition.state, event.seat),
            transition.effects,
        )

    @staticmethod
    def _game_json(ruleset: AnyRuleset, record: GameRecord, version: int, state: Any) -> Json:
        over = ruleset.is_over(state)
        game: Json = {
            "id": record.id,
            "ruleset": record.ruleset,
            "options": record.options,
            "version": version,
            "status": ruleset.status(state),
            "seed_commitment": record.seed_commitment,
            "seed_known": record.seed_known,
            "created_at": record.created_at,
            "outcome": ruleset.outcome(state),
        }
        if record.seed_known or over:
            game["seed"] = record.seed  # revealed: anyone can now check it and re-deal
        return game
