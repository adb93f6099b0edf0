"""The embedded default store: one SQLite file in WAL mode, one connection per thread.

A primary key on (game, seq) gives the same conflict semantics as DynamoDB's conditional put:
of two writers appending the same seq, exactly one succeeds.

Writes wait for the write lock themselves (`_locked`), in steps of 50 us to 1 ms: SQLite's
own busy handler never sleeps less than a millisecond, and with two workers writing one file a
fifth of all moves met a taken lock. And a move is appended by one statement (the record's
version, as in every store, is written only when the game ends: the log is what counts), so
the lock is held only inside SQLite: a transaction of several statements holds it between
them too, while its thread waits for the GIL behind the other threads of its worker
(measured: holds of up to 7 ms; see `make bench`'s workers row).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from domain.daily import ranked_entry, tie_prefix
from domain.errors import (
    AccountTaken,
    AttemptExists,
    PlayerNotFound,
    StoreUnavailable,
    VersionConflict,
)
from domain.record_codec import (
    EVENT_FIELDS,
    GAME_FIELDS,
    Scalar,
    deal_from_text,
    deal_text,
    entry_from_text,
    entry_text,
    event_fields,
    finish_fields,
    game_fields,
    game_record,
    token_hashes_text,
)
from domain.store import check_join, check_rematch, decode_cursor, encode_cursor
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

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id              TEXT PRIMARY KEY,
    ruleset         TEXT NOT NULL,
    options         TEXT NOT NULL,
    seed            TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    seed_known      INTEGER NOT NULL,
    created_at      TEXT NOT NULL,
    token_hashes    TEXT NOT NULL,
    status          TEXT NOT NULL,
    version         INTEGER NOT NULL,
    outcome         TEXT,
    from_game       TEXT,
    finished_at     TEXT,
    daily           TEXT,
    seats           TEXT,
    chain_key       TEXT,
    expires_at      INTEGER,
    rematch         TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id         TEXT NOT NULL REFERENCES games(id),
    seq             INTEGER NOT NULL,
    seat            INTEGER NOT NULL,
    move            TEXT NOT NULL,
    at              TEXT NOT NULL,
    hash            TEXT NOT NULL,
    idempotency_key TEXT,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    token_hash      TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    account         TEXT UNIQUE,
    sessions        TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS used_tokens (
    key             TEXT PRIMARY KEY,
    expires_at      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS daily (
    date            TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    deal            TEXT NOT NULL,
    players         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (date, ruleset)
);
CREATE TABLE IF NOT EXISTS attempts (
    date            TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    player_id       TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    PRIMARY KEY (date, ruleset, player_id)
);
CREATE TABLE IF NOT EXISTS leaderboard (
    date            TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    key             TEXT NOT NULL,
    entry           TEXT NOT NULL,
    PRIMARY KEY (date, ruleset, key)
) WITHOUT ROWID;
"""
# Indexes on columns a file made by an older version gains in _migrate, so created after it.
INDEXES = """
CREATE INDEX IF NOT EXISTS games_finished ON games (finished_at DESC, id DESC)
    WHERE finished_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_finished_by_ruleset ON games (ruleset, finished_at DESC, id DESC)
    WHERE finished_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_expiring ON games (expires_at) WHERE expires_at IS NOT NULL;
"""
GAME_COLUMNS = ", ".join(GAME_FIELDS)
INSERT_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join(f':{f}' for f in GAME_FIELDS)})"
)
INSERT_MOVE = (
    f"INSERT INTO moves (game_id, {', '.join(EVENT_FIELDS)}) "
    f"VALUES (:game_id, {', '.join(f':{f}' for f in EVENT_FIELDS)})"
)
SELECT_MOVES = f"SELECT {', '.join(EVENT_FIELDS)} FROM moves WHERE game_id = ? ORDER BY seq"
Params = tuple[Any, ...] | dict[str, Any]
CURSOR_FIELDS = ("finished_at", "id")
BUSY_TIMEOUT = 10.0
"""Seconds a statement waits for a lock held by another connection before giving up."""
EXPIRED_BATCH = 200
"""Expired games deleted per transaction: the write lock is let go between batches."""


class SqliteStore:
    def __init__(self, path: str, game_ttl: int | None = None) -> None:
        """`game_ttl`: the seconds an unfinished casual game lives after its last move, for the
        games of a file made before games expired (None: those are kept for good)."""
        self.path = path
        self._local = threading.local()
        try:
            conn = self._connection()
            conn.executescript(SCHEMA)
            self._migrate(conn, game_ttl)
            conn.executescript(INDEXES)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open the SQLite file {path}: {e}") from e

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection, game_ttl: int | None = None) -> None:
        """Files written by earlier versions gain the newer columns (all nullable)."""
        have = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        for column in ("from_game", "finished_at", "daily", "seats", "chain_key", "rematch"):
            if column not in have:
                conn.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
        players = {row[1] for row in conn.execute("PRAGMA table_info(players)")}
        if "account" not in players:  # accounts came later (docs/accounts.md)
            conn.execute("ALTER TABLE players ADD COLUMN account TEXT")
            conn.execute("ALTER TABLE players ADD COLUMN sessions TEXT NOT NULL DEFAULT ''")
            conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS players_account ON players (account)")
        if "expires_at" not in have:
            # Their unfinished casual games expire `game_ttl` after their last move (or their
            # creation): the column and its values come in one transaction.
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ALTER TABLE games ADD COLUMN expires_at INTEGER")
            if game_ttl:
                conn.execute(
                    "UPDATE games SET expires_at = ? + CAST(strftime('%s', MAX(created_at, "
                    "COALESCE((SELECT MAX(at) FROM moves WHERE game_id = games.id), created_at)"
                    ")) AS INTEGER) WHERE finished_at IS NULL AND daily IS NULL",
                    (game_ttl,),
                )
            conn.execute("COMMIT")

    @staticmethod
    def _locked(conn: sqlite3.Connection, sql: str, params: Params = ()) -> None:
        """Run a statement that takes the write lock (a whole one-statement write, or BEGIN
        IMMEDIATE), retrying every 50 us, backing off to 1 ms, while another connection holds
        it, for up to BUSY_TIMEOUT. Nothing is written by a try that found the lock taken."""
        conn.execute("PRAGMA busy_timeout = 0")  # the retries below wait instead
        try:
            delay, deadline = 50e-6, time.monotonic() + BUSY_TIMEOUT
            while True:
                try:
                    conn.execute(sql, params)
                    return
                except sqlite3.OperationalError as e:
                    if not _busy(e) or time.monotonic() > deadline:
                        raise
                time.sleep(delay)
                delay = min(delay * 2, 1e-3)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction of several statements: committed if the block ends normally,
        rolled back if not. The write lock is taken at once (`BEGIN IMMEDIATE`), so what the
        block reads does not change before it commits."""
        conn = self._connection()
        self._locked(conn, "BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def check(self) -> None:
        """The file opens and takes writes (the schema was created when the store was)."""
        try:
            with self._writing() as conn:
                conn.execute("SELECT 1")
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot write the SQLite file {self.path}: {e}") from e

    def create(self, record: GameRecord) -> None:
        self._write(INSERT_GAME, game_fields(record))

    def load(self, game_id: str) -> StoredGame | None:
        conn = self._connection()
        try:
            conn.execute("BEGIN")  # one snapshot for the record and its moves
            try:
                row = _games(conn, "WHERE id = ?", (game_id,)).fetchone()
                rows = conn.execute(SELECT_MOVES, (game_id,)).fetchall()
            finally:
                conn.execute("COMMIT")
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        if row is None:
            return None
        return StoredGame(game_record(row), MoveEvent.stored(rows))

    def version(self, game_id: str) -> int | None:
        # One statement (one snapshot); the last seq is read from the primary key's index.
        rows = self._query(
            "SELECT (SELECT MAX(seq) FROM moves WHERE game_id = ?) FROM games WHERE id = ?",
            (game_id, game_id),
        )
        return None if not rows else int(rows[0][0] or 0)

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """`version` of many games in one statement per 500 (a game not found left out): what
        `court serve`'s stream hub reads for every game with an open stream when the file
        changed (`data_version`)."""
        out: dict[str, int] = {}
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start : start + 500]
            rows = self._query(
                "SELECT id, (SELECT MAX(seq) FROM moves WHERE game_id = games.id) FROM games "
                f"WHERE id IN ({','.join('?' * len(chunk))})",
                tuple(chunk),
            )
            out.update((row[0], int(row[1] or 0)) for row in rows)
        return out

    def data_version(self) -> int:
        """SQLite's `PRAGMA data_version` on this thread's connection: it changes whenever
        another connection has committed to the file, so `court serve`'s stream hub reads the
        watched games' versions only then (one cheap statement a second, however many)."""
        return int(self._query("PRAGMA data_version", ())[0][0])

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        if event.seq != expected_version + 1:
            raise ValueError("a move's seq is the expected version + 1")
        row = {"game_id": game_id, **event_fields(event)}
        try:
            if finish is None:
                self._locked(self._connection(), INSERT_MOVE, row)
                return
            with self._writing() as conn:  # the move and the game's end, together
                conn.execute(INSERT_MOVE, row)
                changes = finish_fields(finish, event.seq)
                conn.execute(
                    f"UPDATE games SET {', '.join(f'{f} = :{f}' for f in changes)} "
                    "WHERE id = :game_id",
                    {**changes, "game_id": game_id},
                )
                if finish.entry is not None:
                    e = finish.entry
                    conn.execute(
                        "INSERT INTO leaderboard VALUES (?,?,?,?)",
                        (e.date, e.ruleset, e.key, entry_text(e)),
                    )
        except sqlite3.IntegrityError as e:
            if "UNIQUE" not in str(e) and "PRIMARY KEY" not in str(e):
                raise LookupError(f"no game {game_id!r} to append to") from e
            raise VersionConflict(f"move {event.seq} of {game_id} already exists") from e
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def touch(self, game_id: str, expires_at: int) -> None:
        self._write(
            "UPDATE games SET expires_at = ? WHERE id = ? AND expires_at < ?",
            (expires_at, game_id, expires_at),
        )

    def delete_expired(self, now: int) -> int:
        deleted = 0
        while True:
            try:
                with self._writing() as conn:  # a batch at a time: moves first (they refer)
                    ids = [row[0] for row in conn.execute(
                        "SELECT id FROM games WHERE expires_at <= ? LIMIT ?", (now, EXPIRED_BATCH)
                    )]  # fmt: skip
                    marks = ",".join("?" * len(ids))
                    conn.execute(f"DELETE FROM moves WHERE game_id IN ({marks})", ids)
                    conn.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)
            except sqlite3.OperationalError as e:
                raise StoreUnavailable(f"sqlite: {e}") from e
            deleted += len(ids)
            if len(ids) < EXPIRED_BATCH:
                # ID tokens past their `exp` could not sign in again anyway
                self._write("DELETE FROM used_tokens WHERE expires_at <= ?", (now,))
                return deleted

    def join(self, game_id: str, seat: int, invite_hash: str, token_hash: str) -> None:
        try:
            with self._writing() as conn:  # the check and the write under one lock
                row = _games(conn, "WHERE id = ?", (game_id,)).fetchone()
                record = None if row is None else game_record(row)
                tokens = check_join(record, seat, invite_hash, token_hash)
                conn.execute(
                    "UPDATE games SET token_hashes = ? WHERE id = ?",
                    (token_hashes_text(tokens), game_id),
                )
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def create_rematch(self, game_id: str, record: GameRecord, replacing: str | None) -> None:
        try:
            with self._writing() as conn:  # the pointer and the new game, under one lock
                pointed = conn.execute(
                    "UPDATE games SET rematch = ? WHERE id = ? AND rematch IS ?",
                    (record.id, game_id, replacing),
                ).rowcount
                if not pointed:  # why not: rolled back, with the reason
                    row = conn.execute("SELECT rematch FROM games WHERE id = ?", (game_id,))
                    found = row.fetchone()
                    check_rematch(game_id, found is not None, found and found[0], replacing)
                conn.execute(INSERT_GAME, game_fields(record))
        except sqlite3.IntegrityError as e:
            raise VersionConflict(f"game {record.id} exists") from e
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def list_finished(self, ruleset: str | None, limit: int, cursor: str | None) -> Page:
        where, params = ["finished_at IS NOT NULL"], []
        if ruleset is not None:
            where.append("ruleset = ?")
            params.append(ruleset)
        if cursor is not None:
            after = decode_cursor(cursor, CURSOR_FIELDS)
            where.append("(finished_at, id) < (?, ?)")
            params += [after["finished_at"], after["id"]]
        query = f"WHERE {' AND '.join(where)} ORDER BY finished_at DESC, id DESC LIMIT ?"
        try:
            rows = _games(self._connection(), query, (*params, limit + 1)).fetchall()
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        records = tuple(game_record(row) for row in rows[:limit])
        more = len(rows) > limit
        last = records[-1] if records else None
        next_cursor = (
            encode_cursor({"finished_at": last.finished_at or "", "id": last.id})
            if more and last is not None
            else None
        )
        return Page(records, next_cursor)

    # ---- daily challenges -------------------------------------------------------------------

    def _query(self, sql: str, params: Params) -> list[Any]:
        try:
            return self._connection().execute(sql, params).fetchall()
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def _write(self, sql: str, params: Params) -> None:
        """One statement that writes: it commits alone, taking the lock as `_locked` does."""
        try:
            self._locked(self._connection(), sql, params)
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def create_player(self, player: PlayerRecord) -> None:
        try:  # the account column is UNIQUE: the account's "pointer" comes with the row
            self._write(
                "INSERT INTO players (id, name, token_hash, created_at, account, sessions) "
                "VALUES (?,?,?,?,?,?)",
                (player.id, player.name, player.token_hash, player.created_at, player.account,
                 ",".join(player.sessions)),
            )  # fmt: skip
        except sqlite3.IntegrityError as e:
            raise AccountTaken("the account has a player already") from e

    def load_player(self, player_id: str) -> PlayerRecord | None:
        rows = self._query(
            "SELECT id, name, token_hash, created_at, account, sessions FROM players WHERE id = ?",
            (player_id,),
        )
        if not rows:
            return None
        player_id, name, token_hash, created_at, account, sessions = rows[0]
        kept = tuple(s for s in sessions.split(",") if s)
        return PlayerRecord(player_id, name, token_hash, created_at, account, kept)

    def load_account(self, account: str) -> str | None:
        rows = self._query("SELECT id FROM players WHERE account = ?", (account,))
        return rows[0][0] if rows else None

    def attach_account(self, player_id: str, account: str) -> None:
        try:
            with self._writing() as conn:
                done = conn.execute(
                    "UPDATE players SET account = ?, token_hash = '' WHERE id = ? "
                    "AND account IS NULL",
                    (account, player_id),
                ).rowcount
        except sqlite3.IntegrityError as e:
            raise AccountTaken("the account has a player already") from e
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        if not done:
            raise AccountTaken("this player is an account's already")

    def save_sessions(
        self, player_id: str, before: tuple[str, ...], after: tuple[str, ...]
    ) -> bool:
        try:
            with self._writing() as conn:
                return bool(conn.execute(
                    "UPDATE players SET sessions = ? WHERE id = ? AND sessions = ?",
                    (",".join(after), player_id, ",".join(before)),
                ).rowcount)  # fmt: skip
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def rename_player(self, player_id: str, name: str) -> None:
        try:
            with self._writing() as conn:
                done = conn.execute(
                    "UPDATE players SET name = ? WHERE id = ?", (name, player_id)
                ).rowcount
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        if not done:
            raise PlayerNotFound(f"no player {player_id!r}")

    def claim_once(self, key: str, expires_at: int) -> bool:
        try:
            with self._writing() as conn:
                return bool(conn.execute(
                    "INSERT OR IGNORE INTO used_tokens VALUES (?, ?)", (key, expires_at)
                ).rowcount)  # fmt: skip
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def load_daily(self, date: str, ruleset: str) -> DailyDeal | None:
        rows = self._query(
            "SELECT deal, players FROM daily WHERE date = ? AND ruleset = ?", (date, ruleset)
        )
        if not rows:
            return None
        return deal_from_text(rows[0][0], rows[0][1])

    def save_daily(self, deal: DailyDeal) -> DailyDeal:
        self._write(
            "INSERT OR IGNORE INTO daily (date, ruleset, deal) VALUES (?,?,?)",
            (deal.date, deal.ruleset, deal_text(deal)),
        )
        kept = self.load_daily(deal.date, deal.ruleset)
        assert kept is not None
        return kept

    def create_attempt(self, date: str, player_id: str, record: GameRecord) -> None:
        try:
            with self._writing() as conn:  # the check and the write under one lock
                found = conn.execute(
                    "SELECT game_id FROM attempts WHERE date = ? AND ruleset = ? AND player_id = ?",
                    (date, record.ruleset, player_id),
                ).fetchone()
                if found is not None:
                    raise AttemptExists(found[0])
                conn.execute(
                    "INSERT INTO attempts VALUES (?,?,?,?)",
                    (date, record.ruleset, player_id, record.id),
                )
                conn.execute(
                    "UPDATE daily SET players = players + 1 WHERE date = ? AND ruleset = ?",
                    (date, record.ruleset),
                )
                conn.execute(INSERT_GAME, game_fields(record))
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e

    def load_attempt(self, date: str, ruleset: str, player_id: str) -> Attempt | None:
        # The entry is derived from the game's record (finished, with its outcome): the board
        # row is keyed by its sort key, the record by the id the attempt names.
        rows = self._query(
            "SELECT game_id FROM attempts WHERE date = ? AND ruleset = ? AND player_id = ?",
            (date, ruleset, player_id),
        )
        if not rows:
            return None
        found = _games(self._connection(), "WHERE id = ?", (rows[0][0],)).fetchone()
        return Attempt(rows[0][0], None if found is None else ranked_entry(game_record(found)))

    def attempts_of(self, player_id: str, since: str) -> list[tuple[str, str, Attempt]]:
        try:
            rows = _games(self._connection(),
                          "WHERE id IN (SELECT game_id FROM attempts WHERE player_id = ? "
                          "AND date >= ?)", (player_id, since)).fetchall()  # fmt: skip
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        found = []
        for row in rows:
            record = game_record(row)
            if record.daily is not None:
                entry = ranked_entry(record)
                found.append((record.daily.date, record.ruleset, Attempt(record.id, entry)))
        return found

    def leaderboard(
        self, date: str, ruleset: str, limit: int, after: str | None
    ) -> list[LeaderboardEntry]:
        rows = self._query(
            "SELECT entry FROM leaderboard WHERE date = ? AND ruleset = ? AND key > ? "
            "ORDER BY key LIMIT ?",
            (date, ruleset, after or "", limit),
        )
        return [entry_from_text(row[0]) for row in rows]

    def leaderboard_rank(self, date: str, ruleset: str, key: str) -> int:
        rows = self._query(
            "SELECT COUNT(*) FROM leaderboard WHERE date = ? AND ruleset = ? AND key < ?",
            (date, ruleset, tie_prefix(key)),
        )
        return int(rows[0][0]) + 1


def _games(conn: sqlite3.Connection, where: str, params: Params) -> sqlite3.Cursor:
    """`SELECT` of games rows, each as a dict of its columns by name (what the codec reads),
    so that no row is read by position and a column a migration adds is read like any."""
    cursor = conn.cursor()
    cursor.row_factory = _by_name
    return cursor.execute(f"SELECT {GAME_COLUMNS} FROM games {where}", params)


def _by_name(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Scalar]:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


def _busy(error: sqlite3.OperationalError) -> bool:
    """Whether another connection holds the lock (SQLITE_BUSY), as opposed to real trouble."""
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY
