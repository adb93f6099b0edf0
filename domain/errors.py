"""Every error the domain raises, in one catalogue.

Each is a plain exception carrying what a caller needs to explain it (the legal moves, the
current version, the failing index). How each becomes an HTTP problem is one table in
handlers/http/problems.py, read by both the API and its OpenAPI document.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Json = dict[str, Any]


# ---- rules -------------------------------------------------------------------------------------


class IllegalMove(ValueError):
    """A move the seat may not make now: `reason` says why, `legal_moves` what it may do."""

    def __init__(self, reason: str, legal_moves: list[Json] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.legal_moves = [] if legal_moves is None else legal_moves


class GameOver(ValueError):
    """The game has ended: no seat may move any more (the rules and the service alike)."""

    def __init__(self, message: str = "the game is over") -> None:
        super().__init__(message)


class ReplayError(ValueError):
    """A logged move that could not be replayed: which one (`index`, from 0) and why."""

    def __init__(self, index: int, move: object, reason: str, legal_moves: list[Json]) -> None:
        super().__init__(f"move {index}: {reason}")
        self.index, self.move, self.reason, self.legal_moves = index, move, reason, legal_moves


class InvalidOptions(ValueError):
    """Options that a ruleset refuses; `errors` maps each bad option name to why."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{k}: {v}" for k, v in sorted(self.errors.items())))


class InvalidSeed(ValueError):
    """The seed is not 1-128 characters from [A-Za-z0-9._:-]."""


class UnknownRuleset(KeyError):
    """No ruleset has this id."""

    def __init__(self, ruleset_id: str, known: Iterable[str]) -> None:
        super().__init__(ruleset_id)
        self.ruleset_id = ruleset_id
        self.known = sorted(known)

    def __str__(self) -> str:
        return f"unknown ruleset {self.ruleset_id!r} (known: {', '.join(self.known)})"


# ---- the service -------------------------------------------------------------------------------


class GameNotFound(LookupError):
    """No game has this id."""


class Unauthenticated(PermissionError):
    """No token was sent where one is needed."""


class Forbidden(PermissionError):
    """The token sent is not a token of a seat of this game."""


class SeatTaken(Exception):
    """The seat has been joined already: an invite works once."""


class NotYourTurn(Exception):
    """The seat has no such move now: another seat is to move (or it has submitted already)."""

    def __init__(self, message: str, legal_moves: list[Json]) -> None:
        super().__init__(message)
        self.legal_moves = legal_moves


class StaleVersion(Exception):
    """The client's version is behind the log: it must reload before moving."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


class IdempotencyMismatch(ValueError):
    """An Idempotency-Key reused with a different request."""


class InvalidRequest(ValueError):
    """A request the service refuses as it stands (a bad cursor, a step out of range, a
    shared deal whose source is not over yet); `field` names what to change."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NoRematch(Exception):
    """A rematch the game cannot have: it is still being played, or it is a ranked daily
    attempt (its player's one attempt of the day)."""


class RematchExists(Exception):
    """The game has its rematch already, `game_id`: another request dealt it first (the
    stores' conditional write; the rematch use case then seats its caller there)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"this game's rematch is game {game_id}")
        self.game_id = game_id


class DailyNotFound(LookupError):
    """No daily challenge for that date yet (the day has not begun, UTC)."""


class AttemptExists(Exception):
    """The player already has a ranked attempt at this day's deal: `game_id`."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"already played today's deal: game {game_id}")
        self.game_id = game_id


class DailyClosed(Exception):
    """A ranked attempt whose UTC day is over: its deal is public now, so no move is accepted
    any more and the attempt does not rank (docs/daily.md)."""


class LogFull(Exception):
    """The game's log holds as many events as a game may (`limit`): only `resign` is taken."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"this game has reached {limit} events, the most a game may have: only resign is "
            "accepted now"
        )
        self.limit = limit


# ---- accounts (docs/accounts.md) ---------------------------------------------------------------


class SignInRefused(Unauthenticated):
    """An ID token this server does not accept: unsigned, signed by a key its issuer does not
    publish, for another audience or issuer, expired, not yet valid, or used already."""


class NotAPlayersToken(Forbidden):
    """The token is no player's (any more): never issued, signed out, dropped by a newer
    sign-in past the most sessions kept, or a guest's that became an account's."""


class SignInRequired(Forbidden):
    """Where a sign-in provider is configured, a ranked daily attempt needs a signed-in
    account: one attempt per person, not per guest token."""


class NoSignIn(LookupError):
    """This server has no sign-in provider configured: every player is a guest."""


class SignInUnavailable(Exception):
    """The sign-in provider's keys could not be fetched; retry after `retry_after` s."""

    def __init__(self, message: str, retry_after: int = 5) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class AccountTaken(Exception):
    """The account already has a player (a guest cannot be attached to it), or the guest is
    already another account's player."""


class PlayerNotFound(LookupError):
    """No player has this id (or it was deleted)."""


# ---- storage -----------------------------------------------------------------------------------


class VersionConflict(Exception):
    """Another move was appended first: the expected version is stale."""


class StoreUnavailable(Exception):
    """The store is throttling or failing; the request may be retried after `retry_after` s."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after
