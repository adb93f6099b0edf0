"""An in-memory store for service tests without Flask or a database.

It passes the same contract suite as the real stores (tests/integration/test_store_contract.py),
so a service test that passes on it says something true about the service. Game records are
kept as the fields domain/record_codec.py stores (what SQLite and DynamoDB keep) and decoded
from them whenever they changed, so a field the codec forgets fails here first, without a
database. (Decoded again only then: the secrecy properties read records tens of thousands of
times, and decoding at every read was a tenth of their time.)
"""

from __future__ import annotations

import threading
from dataclasses import replace

from domain.daily import tie_prefix
from domain.errors import AccountTaken, AttemptExists, PlayerNotFound, VersionConflict
from domain.record_codec import (
    Scalar,
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


class InMemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: dict[str, dict[str, Scalar]] = {}  # each game's stored fields
        # Each game's record as last decoded, with the stored fields it was decoded from.
        self._decoded: dict[str, tuple[tuple[Scalar, ...], GameRecord]] = {}
        self._moves: dict[str, list[MoveEvent]] = {}
        self._players: dict[str, PlayerRecord] = {}
        self._accounts: dict[str, str] = {}  # account digest -> player id
        self._used_tokens: dict[str, int] = {}  # claim_once: key -> expires_at
        self._daily: dict[tuple[str, str], DailyDeal] = {}
        self._attempts: dict[tuple[str, str, str], str] = {}
        self._board: list[LeaderboardEntry] = []

    def check(self) -> None:
        return None

    def create(self, record: GameRecord) -> None:
        with self._lock:
            if record.id in self._records:
                raise VersionConflict(f"game {record.id} exists")
            self._records[record.id] = game_fields(record)
            self._moves[record.id] = []

    def _record(self, game_id: str) -> GameRecord | None:
        fields = self._records.get(game_id)
        if fields is None:
            return None
        stored = tuple(fields.values())
        decoded = self._decoded.get(game_id)
        if decoded is None or decoded[0] != stored:
            decoded = self._decoded[game_id] = (stored, game_record(fields))
        return decoded[1]

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            record = self._record(game_id)
            if record is None:
                return None
            return StoredGame(record, tuple(self._moves[game_id]))

    def version(self, game_id: str) -> int | None:
        with self._lock:
            moves = self._moves.get(game_id)
            return None if moves is None else len(moves)

    def append(
        self, game_id: str, expected_version: int, event: MoveEvent, finish: Finish | None
    ) -> None:
        if event.seq != expected_version + 1:
            raise ValueError("a move's seq is the expected version + 1")
        with self._lock:
            if game_id not in self._records:
                raise LookupError(f"no game {game_id!r} to append to")
            moves = self._moves[game_id]
            if len(moves) != expected_version:
                raise VersionConflict(f"move {event.seq} of {game_id} already exists")
            moves.append(event)
            if finish is not None:
                self._records[game_id] |= finish_fields(finish, event.seq)
                if finish.entry is not None:
                    self._board.append(finish.entry)

    def touch(self, game_id: str, expires_at: int) -> None:
        with self._lock:
            fields = self._records.get(game_id)
            expiring = None if fields is None else fields.get("expires_at")
            if fields is not None and isinstance(expiring, int) and expiring < expires_at:
                fields["expires_at"] = expires_at

    def delete_expired(self, now: int) -> int:
        with self._lock:
            gone = [
                i
                for i, fields in self._records.items()
                if isinstance(expires := fields.get("expires_at"), int) and expires <= now
            ]
            for game_id in gone:
                del self._records[game_id], self._moves[game_id]
            for key in [k for k, at in self._used_tokens.items() if at <= now]:
                del self._used_tokens[key]
                self._decoded.pop(game_id, None)
            return len(gone)

    def join(self, game_id: str, seat: int, invite_hash: str, token_hash: str) -> None:
        with self._lock:
            tokens = check_join(self._record(game_id), seat, invite_hash, token_hash)
            self._records[game_id]["token_hashes"] = token_hashes_text(tokens)

    def create_rematch(self, game_id: str, record: GameRecord, replacing: str | None) -> None:
        with self._lock:
            fields = self._records.get(game_id)
            pointer = None if fields is None else fields.get("rematch")
            check_rematch(game_id, fields is not None, None if pointer is None else str(pointer),
                          replacing)  # fmt: skip
            assert fields is not None
            if record.id in self._records:
                raise VersionConflict(f"game {record.id} exists")
            fields["rematch"] = record.id
            self._records[record.id] = game_fields(record)
            self._moves[record.id] = []

    def list_finished(self, ruleset: str | None, limit: int, cursor: str | None) -> Page:
        with self._lock:
            records = [self._record(game_id) for game_id in self._records]
            finished = sorted(
                (r for r in records if r is not None and r.finished_at is not None),
                key=lambda r: (r.finished_at or "", r.id),
                reverse=True,
            )
        if ruleset is not None:
            finished = [r for r in finished if r.ruleset == ruleset]
        if cursor is not None:
            after = decode_cursor(cursor, ("finished_at", "id"))
            finished = [
                r for r in finished if (r.finished_at, r.id) < (after["finished_at"], after["id"])
            ]
        page = tuple(finished[:limit])
        more = len(finished) > limit
        next_cursor = (
            encode_cursor({"finished_at": page[-1].finished_at or "", "id": page[-1].id})
            if more
            else None
        )
        return Page(page, next_cursor)

    # ---- daily challenges -------------------------------------------------------------------

    def create_player(self, player: PlayerRecord) -> None:
        with self._lock:
            if player.account is not None:
                if player.account in self._accounts:
                    raise AccountTaken("the account has a player already")
                self._accounts[player.account] = player.id
            self._players[player.id] = player

    def load_player(self, player_id: str) -> PlayerRecord | None:
        return self._players.get(player_id)

    def load_account(self, account: str) -> str | None:
        return self._accounts.get(account)

    def attach_account(self, player_id: str, account: str) -> None:
        with self._lock:
            player = self._players.get(player_id)
            if player is None or player.account is not None or account in self._accounts:
                raise AccountTaken("the account has a player, or the player an account")
            self._accounts[account] = player_id
            self._players[player_id] = replace(player, account=account, token_hash="")

    def save_sessions(
        self, player_id: str, before: tuple[str, ...], after: tuple[str, ...]
    ) -> bool:
        with self._lock:
            player = self._players.get(player_id)
            if player is None or player.sessions != before:
                return False
            self._players[player_id] = replace(player, sessions=after)
            return True

    def rename_player(self, player_id: str, name: str) -> None:
        with self._lock:
            player = self._players.get(player_id)
            if player is None:
                raise PlayerNotFound(f"no player {player_id!r}")
            self._players[player_id] = replace(player, name=name)

    def claim_once(self, key: str, expires_at: int) -> bool:
        with self._lock:
            if key in self._used_tokens:
                return False
            self._used_tokens[key] = expires_at
            return True

    def load_daily(self, date: str, ruleset: str) -> DailyDeal | None:
        return self._daily.get((date, ruleset))

    def save_daily(self, deal: DailyDeal) -> DailyDeal:
        with self._lock:
            return self._daily.setdefault((deal.date, deal.ruleset), replace(deal, players=0))

    def create_attempt(self, date: str, player_id: str, record: GameRecord) -> None:
        with self._lock:
            key = (date, record.ruleset, player_id)
            if key in self._attempts:
                raise AttemptExists(self._attempts[key])
            self._attempts[key] = record.id
            deal = self._daily.get((date, record.ruleset))
            if deal is not None:
                self._daily[(date, record.ruleset)] = replace(deal, players=deal.players + 1)
            self._records[record.id] = game_fields(record)
            self._moves[record.id] = []

    def load_attempt(self, date: str, ruleset: str, player_id: str) -> Attempt | None:
        with self._lock:
            game_id = self._attempts.get((date, ruleset, player_id))
            if game_id is None:
                return None
            entry = next((e for e in self._board if e.game_id == game_id), None)
        return Attempt(game_id, entry)

    def attempts_of(self, player_id: str, since: str) -> list[tuple[str, str, Attempt]]:
        with self._lock:
            mine = [(d, r, g) for (d, r, p), g in self._attempts.items()
                    if p == player_id and d >= since]  # fmt: skip
        return [(d, r, self.load_attempt(d, r, player_id) or Attempt(g)) for d, r, g in mine]

    def leaderboard(
        self, date: str, ruleset: str, limit: int, after: str | None
    ) -> list[LeaderboardEntry]:
        with self._lock:
            board = sorted(
                (e for e in self._board if (e.date, e.ruleset) == (date, ruleset)),
                key=lambda e: e.key,
            )
        return [e for e in board if after is None or e.key > after][:limit]

    def leaderboard_rank(self, date: str, ruleset: str, key: str) -> int:
        with self._lock:
            return 1 + sum(
                1
                for e in self._board
                if (e.date, e.ruleset) == (date, ruleset) and e.key < tie_prefix(key)
            )
