"""The embedded default store: one SQLite file in WAL mode, one connection per thread.

A primary key on (game, seq) gives the same conflict semantics as DynamoDB's conditional put:
of two writers appending the same seq, exactly one succeeds.
"""

from __future__ import annotations

import json
import sqlite3
import threading

from domain.errors import StoreUnavailable, VersionConflict
from domain.store import Finish, GameRecord, MoveEvent, StoredGame

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
    outcome         TEXT
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
"""


class SqliteStore:
    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        try:
            self._connection().executescript(SCHEMA)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open the SQLite file {path}: {e}") from e

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
        return conn

    def check(self) -> None:
        """The file opens and takes writes (the schema was created when the store was)."""
        try:
            self._connection().execute("BEGIN IMMEDIATE")
            self._connection().execute("ROLLBACK")
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot write the SQLite file {self.path}: {e}") from e

    def create(self, record: GameRecord) -> None:
        conn = self._connection()
        try:
            conn.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    record.id,
                    record.ruleset,
                    json.dumps(record.options),
                    record.seed,
                    record.seed_commitment,
                    int(record.seed_known),
                    record.created_at,
                    json.dumps(record.token_hashes),
                    record.status,
                    record.version,
                    None if record.outcome is None else json.dumps(record.outcome),
                ),
            )
        except sqlite3.OperationalError as e:  # locked beyond the timeout, disk trouble
            raise StoreUnavailable(f"sqlite: {e}") from e

    def load(self, game_id: str) -> StoredGame | None:
        conn = self._connection()
        try:
            conn.execute("BEGIN")  # one snapshot for the record and its moves
            try:
                row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                rows = conn.execute(
                    "SELECT seq, seat, move, at, hash, idempotency_key FROM moves "
                    "WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
        if row is None:
            return None
        record = GameRecord(
            id=row[0],
            ruleset=row[1],
            options=json.loads(row[2]),
            seed=row[3],
            seed_commitment=row[4],
            seed_known=bool(row[5]),
            created_at=row[6],
            token_hashes=json.loads(row[7]),
            status=row[8],
            version=row[9],
            outcome=None if row[10] is None else json.loads(row[10]),
        )
        moves = tuple(
            MoveEvent(seq, seat, json.loads(move), at, digest, key)
            for seq, seat, move, at, digest, key in rows
        )
        return StoredGame(record, moves)

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        if event.seq != expected_version + 1:
            raise ValueError("a move's seq is the expected version + 1")
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    "INSERT INTO moves VALUES (?,?,?,?,?,?,?)",
                    (
                        game_id,
                        event.seq,
                        event.seat,
                        json.dumps(event.move),
                        event.at,
                        event.hash,
                        event.idempotency_key,
                    ),
                )
                if finish is None:
                    conn.execute("UPDATE games SET version = ? WHERE id = ?", (event.seq, game_id))
                else:
                    conn.execute(
                        "UPDATE games SET version = ?, status = ?, outcome = ? WHERE id = ?",
                        (event.seq, finish.status, json.dumps(finish.outcome), game_id),
                    )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.IntegrityError as e:
            if "UNIQUE" not in str(e) and "PRIMARY KEY" not in str(e):
                raise LookupError(f"no game {game_id!r} to append to") from e
            raise VersionConflict(f"move {event.seq} of {game_id} already exists") from e
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"sqlite: {e}") from e
