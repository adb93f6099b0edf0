"""What a store holds and hands back: a game's record and its log of events, the daily deals,
players and leaderboard places; the typed values that cross the ports of domain/store.py.

Every one is immutable. domain/record_codec.py is the one place a record's stored form is
written and read; only player moves are stored, every position is derived by replaying them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal, NamedTuple

from domain.errors import Json
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


IDEMPOTENCY_KEY_MAX = 64
"""The longest Idempotency-Key a move may carry: it is stored with the move for as long as the
game is kept, so its length is paid in every copy of the log (a UUID is 36 characters)."""


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
    expires_at: int | None = None  # a finished casual game's end of retention (None: kept)


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
class Attempt:
    """A player's ranked attempt at a day's deal: its game, and its place on the board once
    it is finished (None until then). The store hands back both at once, so that "your rank"
    never loads the game itself."""

    game_id: str
    entry: LeaderboardEntry | None = None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player: a guest (a token of its own, `POST /v1/players`) or an account's (signed in
    with OpenID Connect: `account` set, and a session token per device it signed in on).
    Only the hashes of tokens are kept."""

    id: str
    name: str  # as shown: the chosen name and a short suffix
    token_hash: str  # the guest token's ("" for a player made by signing in)
    created_at: str
    account: str | None = None  # the digest of its issuer and subject (None: a guest)
    sessions: tuple[str, ...] = ()  # its session tokens' hashes, newest first


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
