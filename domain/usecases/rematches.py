"""A rematch: a finished game dealt again with the same seats and a new deal, once per game.

A seat of the finished game asks for it with its token. The first to ask deals it: the same
ruleset and options, a fresh secret seed (its own commitment, like any new game), the same
bots, the caller in its own seat with a fresh token, and every other human seat open, its
invite carried over: the invite hash of that seat is the finished game's token hash of it
(or, for a seat nobody joined, its old invite's), so its player takes it by the join use case
with the token (or invite) they already hold. The new game and the finished game's pointer to
it are written in one conditional step (`GamePort.create_rematch`): two seats asking at once
deal one rematch, and the second is seated in it as if it had joined with its old token.

Any casual game may have one, a solitaire too (a new deal of the same game); a ranked daily
attempt may not, nor a game still being played. A finished game gets one rematch, so asking
costs at most one new game per finished game; one that expired unplayed is replaced.
"""

from __future__ import annotations

from domain.errors import (
    GameNotFound,
    NoRematch,
    RematchExists,
    SeatTaken,
    StoreUnavailable,
    Unauthenticated,
)
from domain.registry import get_ruleset
from domain.stored import GameRecord, Seat, StoredGame
from domain.usecases.bots import play_bots
from domain.usecases.court import Court, Snapshot
from domain.usecases.games import deal, expiring, join

MAX_ATTEMPTS = 3
"""How often a rematch is looked for again after another request dealt or replaced it."""


def rematch(court: Court, game_id: str, token: str | None) -> Snapshot:
    """The caller's seat in the finished game's rematch, with its new token (given once):
    dealt now if the game has none, else taken in the one it has."""
    if token is None:
        raise Unauthenticated("a rematch needs a seat's token: Authorization: Bearer <token>")
    opened = court.open(game_id, token)
    record, seat = opened.stored.record, opened.seat
    assert seat is not None  # a token's seat, or Forbidden
    if record.daily is not None:
        raise NoRematch(
            "a ranked daily attempt has no rematch: it is its player's one attempt of the day"
        )
    if not opened.game.ruleset.is_over(opened.game.state):
        raise NoRematch("the game is still being played: a rematch is dealt once it is over")
    pointer = record.rematch
    for _ in range(MAX_ATTEMPTS):
        if pointer is not None:
            try:
                return take_seat(court, pointer, seat, token)
            except GameNotFound:  # it expired unplayed: another is dealt in its place
                pass
        try:
            return deal_rematch(court, record, seat, pointer)
        except RematchExists as e:  # another request dealt it first: a seat in that one
            pointer = e.game_id
    raise StoreUnavailable("the rematch is contended: retry", retry_after=1)


def take_seat(court: Court, rematch_id: str, seat: int, token: str) -> Snapshot:
    """The caller's seat in the rematch dealt already: joined with the old token as its
    invite, or SeatTaken if it has a token (the dealer's own seat, or joined before)."""
    if seat in court.load(rematch_id).record.token_hashes:
        raise SeatTaken(
            f"your seat ({seat}) in this game's rematch, game {rematch_id}, has been taken "
            "already: its token is given once"
        )
    return join(court, rematch_id, seat, token)


def deal_rematch(court: Court, old: GameRecord, seat: int, replacing: str | None) -> Snapshot:
    """Deal the rematch of `old`, the caller in `seat`, and store it with `old`'s pointer to
    it (in place of `replacing`); RematchExists if another request came first."""
    ruleset = get_ruleset(old.ruleset)
    options = ruleset.validate_options(old.options)
    seats = tuple(carried(old, index, seat) for index in range(len(old.seats)))
    new, game, token, invites = deal(
        court, ruleset, options, court.new_secret(), False, seats, creator=seat
    )
    new = expiring(court, new)
    court.games.create_rematch(old.id, new, replacing)
    stored, game, effects = play_bots(court, StoredGame(new), game, seat)
    return Snapshot(
        court.game_json(stored.record, stored.version, game),
        game.view(seat),
        effects or None,
        token,
        seat,
        invites,
    )


def carried(old: GameRecord, index: int, caller: int) -> Seat:
    """Seat `index` of `old`'s rematch: a bot the same bot, the caller's seat its own (a
    token, no invite), any other human seat open with its invite carried over: the hash of
    its token in `old`, or of its invite if nobody joined it."""
    seat = old.seats[index]
    if seat.is_bot:
        return seat
    if index == caller:
        return Seat()
    return Seat(invite_hash=old.token_hashes.get(index, seat.invite_hash))
