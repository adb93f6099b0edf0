"""One event onto a game's log: the move played on a copy, hashed into the chain with its
salt, and written by one conditional append, with the game's end (and its leaderboard place)
in the same write, or its expiry pushed back first."""

from __future__ import annotations

from dataclasses import replace

from domain.daily import board_entry
from domain.errors import Json
from domain.record import move_hash, move_salt
from domain.replay import Playthrough
from domain.stored import Finish, GameRecord, MoveEvent, StoredGame
from domain.usecases.court import Court, epoch


def append(
    court: Court,
    stored: StoredGame,
    game: Playthrough,
    seat: int,
    move: object,
    idempotency_key: str | None = None,
) -> tuple[StoredGame, list[Json]]:
    """Play `move` on `game` (in place) and append it as the log's next event: one
    conditional write (VersionConflict if another came first; `game` is then stale, and
    every caller loads the game again).

    The move is played heard (`Playthrough.play`: `Ruleset.apply`, which replaces the state
    rather than mutating it, so a replay cache's copy of the position stays as it was)."""
    version = stored.version
    effects = game.play(seat, move)  # IllegalMove: `game` as it was, nothing is appended
    assert isinstance(move, dict)
    seq = version + 1
    previous = stored.hash_at(version)
    at = court.clock()
    key = stored.record.chain_key
    salt = None if key is None else move_salt(key, seq)
    event = MoveEvent(
        seq, seat, move, at, move_hash(previous, seq, seat, move, salt), idempotency_key
    )
    finish = None
    ruleset = game.ruleset
    record = stored.record
    if ruleset.is_over(game.state):
        outcome = ruleset.outcome(game.state)
        assert outcome is not None
        entry = None
        if record.daily is not None:
            entry = board_entry(record.daily, ruleset.id, record.id, outcome, seq, at)
        kept_until = kept_after_finish(court, record, at)
        finish = Finish(ruleset.status(game.state), outcome, at, ruleset.id, entry, kept_until)
    elif (renewed := renewed_expiry(court, record, at)) is not None:
        # Before the move, so that a game cannot expire under an accepted one.
        court.games.touch(record.id, renewed)
        record = replace(record, expires_at=renewed)
    court.games.append(record.id, version, event, finish)
    if finish is not None:
        record = replace(
            record,
            status=finish.status,
            outcome=finish.outcome,
            finished_at=finish.at,
            version=seq,
            expires_at=finish.expires_at,  # the finished game's retention, set by the same write
        )
    return StoredGame(record, (*stored.moves, event)), effects


def kept_after_finish(court: Court, record: GameRecord, at: str) -> int | None:
    """When a game finishing at `at` may be deleted: a ranked daily attempt never (its day's
    board links it), a casual game `finished_ttl` later (docs/api.md, "Casual games expire")."""
    if record.daily is not None or court.finished_ttl is None:
        return None
    return epoch(at) + court.finished_ttl


def renewed_expiry(court: Court, record: GameRecord, at: str) -> int | None:
    """A casual game's new expiry if a move at `at` (or, once it is finished, a new deal of
    it: a shared link followed) is to push it back: only once less than half its time is
    left, so that most moves and deals cost no write more, however popular the link."""
    ttl = court.finished_ttl if record.finished_at is not None else court.game_ttl
    expires = record.expires_at
    if ttl is None or expires is None or expires - epoch(at) >= ttl / 2:
        return None
    return epoch(at) + ttl
