"""The storage ports the use cases need, one per aggregate, and the rules every adapter shares.

Adapters live in infra/ (SQLite, DynamoDB) and implement them all (`GameStore`); every one of
them passes the same contract tests, and stores a record as domain/record_codec.py says. The
values crossing the ports are domain/stored.py's.
"""

from __future__ import annotations

import base64
import hmac
import json
from typing import Any, Protocol

from domain.errors import (
    Forbidden,
    GameNotFound,
    InvalidRequest,
    RematchExists,
    SeatTaken,
    VersionConflict,
)
from domain.stored import (
    Attempt,
    DailyDeal,
    Finish,
    GameRecord,
    LeaderboardEntry,
    MoveEvent,
    Page,
    PlayerRecord,
    StoredGame,
)


class GamePort(Protocol):
    """Games and their logs: what playing, reading and listing games needs."""

    def create(self, record: GameRecord) -> None:
        """Store a new game record (its id is fresh)."""

    def load(self, game_id: str) -> StoredGame | None:
        """The record and every move, in order, in one consistent read; None if unknown."""

    def version(self, game_id: str) -> int | None:
        """The number of moves in the game's log, None if there is no such game: one small
        consistent read, never the log itself (what a long-poll checks while it waits)."""

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        """Append move `expected_version + 1` atomically, or raise VersionConflict. A finish
        also removes the record's expiry, in the same write (and files its leaderboard
        entry, if it has one: the one write to a leaderboard, so no port of its own)."""

    def touch(self, game_id: str, expires_at: int) -> None:
        """Push the game's expiry back to `expires_at`, only if it has one (a finished game
        never gains one again) and only later, never earlier; nothing if there is no game."""

    def delete_expired(self, now: int) -> int:
        """Delete every game (record and moves) whose expiry is `now` or earlier; how many.
        A store whose engine expires items itself (DynamoDB TTL) deletes nothing here."""

    def join(self, game_id: str, seat: int, invite_hash: str, token_hash: str) -> None:
        """Give `seat` its token, at once and only once: SeatTaken if it has one already,
        Forbidden if `invite_hash` is not the seat's, GameNotFound if there is no game.
        Two racing joins of one seat: exactly one succeeds."""

    def create_rematch(self, game_id: str, record: GameRecord, replacing: str | None) -> None:
        """Create `record`, the rematch of game `game_id`, and point that game at it, in one
        atomic step, only while the game's pointer is `replacing` (None: it has none; else a
        rematch that expired unplayed): `check_rematch` says what else. Two racing
        rematches of one game: exactly one is created, the other creates nothing."""

    def list_finished(self, ruleset: str | None, limit: int, cursor: str | None) -> Page:
        """Finished games (of one ruleset, or all), newest finish first, `limit` at most.

        `cursor` is a previous page's, opaque to callers; a malformed one is InvalidRequest.
        """


class PlayerPort(Protocol):
    """Players, guests and accounts' (only their tokens' hashes are kept): docs/accounts.md."""

    def create_player(self, player: PlayerRecord) -> None:
        """Create a guest, or an account's player together with its account's pointer
        (AccountTaken, creating nothing, if the account has a player already)."""

    def load_player(self, player_id: str) -> PlayerRecord | None: ...

    def load_account(self, account: str) -> str | None:
        """The id of the player of `account`, if it has one."""

    def attach_account(self, player_id: str, account: str) -> None:
        """Make the guest `player_id` the player of `account`, at once with the account's
        pointer, and forget its guest token (the account's sessions stand for it now);
        AccountTaken if the account has a player or the guest an account."""

    def save_sessions(
        self, player_id: str, before: tuple[str, ...], after: tuple[str, ...]
    ) -> bool:
        """Replace the player's session hashes `before` with `after`; False (changing
        nothing) if they are no longer `before`: another sign-in came first."""

    def rename_player(self, player_id: str, name: str) -> None:
        """Set the player's shown name (PlayerNotFound if there is no such player)."""

    def claim_once(self, key: str, expires_at: int) -> bool:
        """Remember `key` (a digest) as used until `expires_at` (Unix seconds); False if it
        was already: an ID token signs in once."""


class DailyPort(Protocol):
    """The day's deals and the ranked attempts at them."""

    def load_daily(self, date: str, ruleset: str) -> DailyDeal | None: ...

    def save_daily(self, deal: DailyDeal) -> DailyDeal:
        """Keep `deal` unless one is already kept (first writer wins); return the kept one."""

    def create_attempt(self, date: str, player_id: str, record: GameRecord) -> None:
        """Create the ranked game `record` and the player's attempt at the day's deal, and
        count the player, at once; AttemptExists (creating nothing) if there is one."""

    def load_attempt(self, date: str, ruleset: str, player_id: str) -> Attempt | None:
        """The player's ranked attempt, if any: its game id and, once it is finished, its
        place on the board (written with the finishing move)."""

    def attempts_of(self, player_id: str, since: str) -> list[tuple[str, str, Attempt]]:
        """(date, ruleset, attempt) of each of the player's ranked attempts of `since` (an ISO
        date) or later, in any order: one Query of the player's own partition on DynamoDB."""


class LeaderboardPort(Protocol):
    """The days' boards, read (entries are written by the finishing move: `GamePort.append`)."""

    def leaderboard(
        self, date: str, ruleset: str, limit: int, after: str | None
    ) -> list[LeaderboardEntry]:
        """Entries best first (by key), after the key `after` if given."""

    def leaderboard_rank(self, date: str, ruleset: str, key: str) -> int:
        """1 + the number of entries strictly better than `key`: whose result, score and
        moves (`tie_prefix`) sort before its own. Tied entries share a rank."""


class GameStore(GamePort, PlayerPort, DailyPort, LeaderboardPort, Protocol):
    """Every port at once: what an adapter implements (one table or file holds them all, so
    that the writes that span two, a ranked attempt and its game, stay atomic). A use case
    is given the narrowest port it needs (domain/usecases/court.py)."""

    def check(self) -> None:
        """Raise StoreUnavailable, with a reason an operator can act on, unless usable now."""


def check_join(
    record: GameRecord | None, seat: int, invite_hash: str, token_hash: str
) -> dict[int, str]:
    """The token hashes after `seat` joins with this invite, or why it cannot: the one rule
    every store applies to the record it read inside its own atomic step."""
    if record is None:
        raise GameNotFound("no such game")
    seats, token_hashes = record.seat_list, record.token_hashes
    if not 0 <= seat < len(seats) or seats[seat].player != "human":
        raise Forbidden(f"seat {seat} takes no invite")
    expected = seats[seat].invite_hash
    if expected is None or not hmac.compare_digest(expected, invite_hash):
        raise Forbidden("this is not the invite of that seat")
    if seat in token_hashes:
        raise SeatTaken(f"seat {seat} has already been joined")
    return {**token_hashes, seat: token_hash}


def check_rematch(game_id: str, found: bool, pointer: str | None, replacing: str | None) -> None:
    """Whether game `game_id` (`found`, pointing at `pointer`) may be pointed at a new
    rematch in place of `replacing`: GameNotFound if there is no such game, RematchExists
    naming the rematch another request dealt first, VersionConflict if the pointer was
    replaced meanwhile by nothing (never written so). The one rule every store applies,
    to what it read inside its own atomic step, or after its conditional write failed."""
    if not found:
        raise GameNotFound(f"no game {game_id!r}")
    if pointer != replacing:
        if pointer is None:
            raise VersionConflict(f"game {game_id} no longer points at {replacing}")
        raise RematchExists(pointer)


def encode_cursor(position: dict[str, Any]) -> str:
    """An opaque page cursor: URL-safe base64 of compact JSON (each store picks the fields)."""
    text = json.dumps(position, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, fields: tuple[str, ...]) -> dict[str, str]:
    """The position in a cursor made by `encode_cursor`, or InvalidRequest: never trusted."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        position = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, UnicodeError):
        raise InvalidRequest("cursor", "not a cursor this server gave") from None
    if (
        not isinstance(position, dict)
        or set(position) != set(fields)
        or not all(isinstance(v, str) and len(v) <= 200 for v in position.values())
    ):
        raise InvalidRequest("cursor", "not a cursor this server gave")
    return position
