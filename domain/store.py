"""The storage ports the use cases need, one per aggregate, and the typed values that cross them.

Adapters live in infra/ (SQLite, DynamoDB) and implement them all (`GameStore`); every one of
them passes the same contract tests, and stores a record as domain/record_codec.py says.
Only player moves are stored: every position is derived again by replaying them.
"""

from __future__ import annotations

import base64
import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, NamedTuple, Protocol

from domain.errors import (
    Forbidden,
    GameNotFound,
    InvalidRequest,
    Json,
    RematchExists,
    SeatTaken,
    VersionConflict,
)
from domain.moves import decode_move

PlayerKind = Literal["human", "bot"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game, as dealt: a human's, or a bot's playing `policy`.

    A human seat other than the creator's carries `invite_hash` (the SHA-256 of its one-time
    invite), kept once the seat is joined, so that a used invite is told from a wrong one.
    """

    player: PlayerKind = "human"
    policy: str | None = None  # a bot's: a name in its game's `policies`
    invite_hash: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.player == "bot"


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    """What makes a game a ranked daily attempt: its day (UTC, ISO) and its player, with the
    name the leaderboard shows (kept here so that the finishing move can rank it alone)."""

    date: str
    player_id: str
    name: str


ONE_HUMAN_SEAT = (Seat(),)
"""The seats of a record that lists none: a solitaire, or a game stored before seats."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What is written once when a game is created (and updated once, when it finishes).

    Its stored form, the same in every store, is domain/record_codec.py's.
    """

    id: str
    ruleset: str
    options: Json
    seed: str
    seed_commitment: str
    seed_known: bool
    created_at: str
    token_hashes: dict[int, str]  # seat -> hex SHA-256 of that seat's token, once it has one
    status: str = "playing"
    version: int = 0
    outcome: Json | None = None
    from_game: str | None = None  # the game whose deal this one replays (a shared deal)
    finished_at: str | None = None  # when the finishing move was accepted
    daily: DailyAttempt | None = None  # set on a ranked daily attempt
    seats: tuple[Seat, ...] = ()
    """One entry per seat. Empty: one human seat (a solitaire, or a record from before seats);
    `seat_list` reads both alike."""
    chain_key: str | None = None
    """The secret the salts of the hash chain derive from (domain/record.py `move_salt`):
    never shown, whoever asks. None: a game stored before salts (record format 1)."""
    expires_at: int | None = None
    """When an unfinished casual game nobody moves in is deleted (Unix seconds, UTC): set at
    creation, pushed back by moves, removed by the finishing move. None: kept for good (a
    finished game, a ranked daily attempt, or games made while expiry was off)."""
    rematch: str | None = None
    """The id of this finished game's rematch (the same seats, a new deal), once a seat has
    asked for it: written once, by the conditional write that creates it
    (`GamePort.create_rematch`). None: none yet, or a record from before rematches."""

    @property
    def seat_list(self) -> tuple[Seat, ...]:
        return self.seats or ONE_HUMAN_SEAT


class _EventFields(NamedTuple):
    seq: int
    seat: int
    payload: Json | str  # the move, or the JSON text a store keeps it as
    at: str
    hash: str
    idempotency_key: str | None = None


class MoveEvent(_EventFields):
    """One event of a game's log: immutable once appended.

    A store hands the move over as the JSON text it keeps (`MoveEvent.stored`, a plain tuple
    of the row), decoded only when read. A request whose replay starts from the cache reads
    only the events after the cached prefix, so each event before it costs a row and no more.
    """

    __slots__ = ()

    def __new__(
        cls,
        seq: int,
        seat: int,
        move: Json,
        at: str,
        hash: str,
        idempotency_key: str | None = None,
    ) -> MoveEvent:
        if not isinstance(move, dict):  # a str payload means JSON text still to decode
            raise TypeError(f"a move is a JSON object, not {type(move).__name__}")
        return tuple.__new__(cls, (seq, seat, move, at, hash, idempotency_key))

    @classmethod
    def stored(
        cls, rows: Iterable[tuple[int, int, str, str, str, str | None]]
    ) -> tuple[MoveEvent, ...]:
        """Events from a store's rows, each (seq, seat, move as JSON text, at, hash, key), with
        no Python frame per row: a request loads every row of its game's log, so this is the
        one cost of a read that grows with it."""
        return tuple(map(partial(tuple.__new__, cls), rows))

    @property
    def move(self) -> Json:
        """The move, a fresh dict on every read of a stored event (no caller can alter it)."""
        payload = self.payload
        return decode_move(payload) if isinstance(payload, str) else payload

    def _key(self) -> tuple[object, ...]:
        return (self.seq, self.seat, self.move, self.at, self.hash, self.idempotency_key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MoveEvent) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]  # a move is a dict: events are not hashable

    def __repr__(self) -> str:
        return (
            f"MoveEvent(seq={self.seq}, seat={self.seat}, move={self.move!r}, at={self.at!r}, "
            f"hash={self.hash!r}, idempotency_key={self.idempotency_key!r})"
        )


@dataclass(frozen=True, slots=True)
class StoredGame:
    record: GameRecord
    moves: tuple[MoveEvent, ...] = field(default_factory=tuple)

    @property
    def version(self) -> int:
        """The number of moves: always derived from the log, never trusted from the record."""
        return len(self.moves)

    def hash_at(self, version: int) -> str:
        """The hash the log ends with after `version` events: the seed commitment before any.
        The chain commits to everything before it, so it names that prefix of the log."""
        return self.moves[version - 1].hash if version else self.record.seed_commitment


@dataclass(frozen=True, slots=True)
class Finish:
    """The record's update when a move ends the game, written together with that move."""

    status: str
    outcome: Json
    at: str  # the finishing move's time: the finished games' listing is ordered by it
    ruleset: str  # repeated here so that a store can file the game by ruleset as it finishes
    entry: LeaderboardEntry | None = None  # a ranked daily game's place, written with the move


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A finished ranked daily game on its day's board; `key` sorts best first."""

    date: str
    ruleset: str
    key: str
    game_id: str
    player_id: str
    name: str
    result: str
    score: int
    moves: int
    finished_at: str


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str  # as shown: the chosen name and a short suffix
    token_hash: str
    created_at: str


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A day's deal of one ruleset, chosen once and kept so that every server agrees."""

    date: str
    ruleset: str
    seed: str
    seed_commitment: str
    candidate: int  # k: the seed is candidate k of the day's HMAC sequence
    difficulty: int  # 1 (easy) to 5 stars
    bot_wins: int
    bot_games: int
    solver: Json  # the solver's verdict on the chosen candidate
    players: int = 0  # ranked attempts so far


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing, newest first; `cursor` fetches the next (None: the last page)."""

    records: tuple[GameRecord, ...]
    cursor: str | None


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
    """The daily challenges' players (only their token's hash is kept)."""

    def create_player(self, player: PlayerRecord) -> None: ...

    def load_player(self, player_id: str) -> PlayerRecord | None: ...


class DailyPort(Protocol):
    """The day's deals and the ranked attempts at them."""

    def load_daily(self, date: str, ruleset: str) -> DailyDeal | None: ...

    def save_daily(self, deal: DailyDeal) -> DailyDeal:
        """Keep `deal` unless one is already kept (first writer wins); return the kept one."""

    def create_attempt(self, date: str, player_id: str, record: GameRecord) -> None:
        """Create the ranked game `record` and the player's attempt at the day's deal, and
        count the player, at once; AttemptExists (creating nothing) if there is one."""

    def load_attempt(self, date: str, ruleset: str, player_id: str) -> str | None:
        """The game id of the player's ranked attempt, if any."""


class LeaderboardPort(Protocol):
    """The days' boards, read (entries are written by the finishing move: `GamePort.append`)."""

    def leaderboard(
        self, date: str, ruleset: str, limit: int, after: str | None
    ) -> list[LeaderboardEntry]:
        """Entries best first (by key), after the key `after` if given."""

    def leaderboard_rank(self, date: str, ruleset: str, key: str) -> int:
        """1 + the number of entries whose key sorts before `key`."""


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
