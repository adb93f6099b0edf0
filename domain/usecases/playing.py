"""A seat's move: checked against the replayed game, answered as before if it is a retry,
refused if the seat is stale, and appended (then the bots reply)."""

from __future__ import annotations

from domain.errors import (
    DailyClosed,
    GameOver,
    IdempotencyMismatch,
    Json,
    LogFull,
    NotYourTurn,
    StaleVersion,
    StoreUnavailable,
    Unauthenticated,
    VersionConflict,
)
from domain.replay import Playthrough
from domain.stored import StoredGame
from domain.usecases.appending import append
from domain.usecases.bots import bot_due, play_bots
from domain.usecases.court import Court, Snapshot
from domain.usecases.shown import masked

MAX_EVENTS = 2000
"""The most events a player may append to one game, undo included (past that only `resign`
is taken; bots still reply). The longest of 600 bot games of each ruleset had 478 events, so
no game played to win gets near it, while a log's replay and verification stay bounded."""
RESIGN = {"type": "resign"}
MAX_APPEND_ATTEMPTS = 8
"""How often a move is re-checked and re-tried when another seat's move was appended first."""


def play(
    court: Court,
    game_id: str,
    token: str | None,
    version: int,
    move: Json,
    idempotency_key: str | None = None,
) -> Snapshot:
    """Check `move` against the replayed game and append it if the seat is up to date.

    A seat is stale only when a move since its `version` changed what it may do: the other
    seat's sealed submission in the same simultaneous step does not, and the move is then
    accepted at the latest version. A write lost to another seat's move is re-checked and
    re-tried, so two seats submitting at once are both accepted.
    """
    if token is None:
        raise Unauthenticated("a move needs the seat's token: Authorization: Bearer <token>")
    for _ in range(MAX_APPEND_ATTEMPTS):
        stored = court.load(game_id)
        seat = court.seat(stored.record, token)
        if idempotency_key is not None:
            earlier = answered(court, stored, idempotency_key, seat, version, move)
            if earlier is not None:
                return earlier
        daily = stored.record.daily
        if daily is not None and daily.date < court.today():
            raise DailyClosed(
                f"the day of this ranked attempt ({daily.date}, UTC) is over: its deal is "
                "public now, so no more moves are accepted and the attempt does not rank"
            )
        if stored.version >= MAX_EVENTS and move != RESIGN:
            raise LogFull(MAX_EVENTS)
        game = court.replay(stored, stored.version)
        if game.ruleset.is_over(game.state):
            raise GameOver()
        check_turn(game, seat, move)
        if version != stored.version and not still_current(court, stored, game, seat, version):
            raise StaleVersion(stored.version)
        before = stored.version
        try:
            stored, effects = append(court, stored, game, seat, move, idempotency_key)
        except VersionConflict:
            continue  # another seat's move came first: look again
        stored, game, bot_effects = play_bots(court, stored, game, seat)
        effects += bot_effects
        sealed = court.sealed_cards(stored)
        game_json = masked(court.game_json(stored.record, stored.version, game), sealed)
        view, effects = masked(game.view(seat), sealed), masked(effects, sealed)
        return Snapshot(game_json, view, effects, seq=before + 1)
    raise StoreUnavailable("the game is too busy: retry", retry_after=1)


def check_turn(game: Playthrough, seat: int, move: Json) -> None:
    """A seat that may not move now (other than resign) is told so, not given a 422."""
    if seat in game.ruleset.to_move(game.state):
        return
    legal = game.legal_moves(seat)
    if move not in legal:
        raise NotYourTurn("it is not your turn: wait for the other seat", legal)


def still_current(
    court: Court, stored: StoredGame, game: Playthrough, seat: int, version: int
) -> bool:
    """Whether every move since `version` was another seat's and left this seat's legal moves
    as they were (a sealed submission in a simultaneous step)."""
    if not 0 <= version < stored.version:
        return False
    if any(m.seat == seat for m in stored.moves[version:]):
        return False
    then = court.replay(stored, version)
    return then.legal_moves(seat) == game.legal_moves(seat)


def answered(
    court: Court, stored: StoredGame, idempotency_key: str, seat: int, version: int, move: Json
) -> Snapshot | None:
    """The answer already given to this seat's Idempotency-Key, or None if it is new (keys
    are the seat's own: another seat's key, however alike, is another request)."""
    for event in stored.moves:
        if event.idempotency_key == idempotency_key and event.seat == seat:
            if (event.seq, event.seat, event.move) != (version + 1, seat, move):
                raise IdempotencyMismatch(
                    "this Idempotency-Key was already used for a different move"
                )
            return as_of(court, stored, event.seq)
    return None


def as_of(court: Court, stored: StoredGame, seq: int) -> Snapshot:
    """Exactly the response the move `seq` got when it was accepted: replay is exact."""
    game = court.replay(stored, seq - 1)
    event = stored.moves[seq - 1]
    effects = game.play(event.seat, event.move)
    # ... and the bot replies that followed it in the same request.
    seats = stored.record.seat_list
    version = seq
    for later in stored.moves[seq:]:
        if not seats[later.seat].is_bot or bot_due(stored.record, game) is None:
            break
        bot_effects = game.play(later.seat, later.move)
        shown = game.ruleset.public_log(game.state, [(later.seat, later.move)], event.seat)
        effects += [{"type": "bot_move", "seat": later.seat, "move": shown[0]}, *bot_effects]
        version = later.seq
    sealed = court.sealed_cards(stored) if version == stored.version else frozenset()
    return Snapshot(
        masked(court.game_json(stored.record, version, game), sealed),
        masked(game.view(event.seat), sealed),
        masked(effects, sealed),
        seq=seq,
    )
