"""The one table from errors to HTTP problems (RFC 9457), read by the API and by openapi.py.

Every kind of problem the API answers with is declared once here: its status, slug, title and
an example for the documentation. `problem_for` maps any exception to its problem; the
OpenAPI generator documents each response from the same rows, so the two cannot drift.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from flask import Response
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.errors import (
    AccountTaken,
    AttemptExists,
    DailyClosed,
    DailyNotFound,
    Forbidden,
    GameNotFound,
    GameOver,
    IdempotencyMismatch,
    IllegalMove,
    InvalidOptions,
    InvalidRequest,
    InvalidSeed,
    LogFull,
    NoRematch,
    NoSignIn,
    NotAPlayersToken,
    NotYourTurn,
    PlayerNotFound,
    SeatTaken,
    SignInRefused,
    SignInRequired,
    SignInUnavailable,
    StaleVersion,
    StoreUnavailable,
    Unauthenticated,
    UnknownRuleset,
)
from domain.registry import GAMES
from domain.stored import IDEMPOTENCY_KEY_MAX

PROBLEM_TYPE = "urn:royal-court:problem:"
log = logging.getLogger("royal_court")


@dataclass(frozen=True)
class ProblemKind:
    """One kind of problem: what it says, and an example of it for the documentation."""

    status: int
    slug: str
    title: str
    description: str
    example: dict[str, Any] = field(default_factory=dict)

    def body(self, detail: str | None = None, **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": PROBLEM_TYPE + self.slug, "title": self.title}
        out["status"] = self.status
        if detail:
            out["detail"] = detail
        out.update(extra)
        return out


IDEMPOTENCY_KEY_RULE = f"1 to {IDEMPOTENCY_KEY_MAX} printable characters"


def _kinds(*kinds: ProblemKind) -> dict[str, ProblemKind]:
    return {k.slug: k for k in kinds}


KINDS: dict[str, ProblemKind] = _kinds(
    ProblemKind(400, "malformed-json", "Malformed JSON", "The body is not JSON (or is empty).",
                {"detail": "Expecting value: line 1 column 1 (char 0)"}),
    ProblemKind(400, "malformed-request", "Bad Request", "The request is malformed."),
    ProblemKind(400, "bad-idempotency-key", "Bad Idempotency-Key",
                f"The Idempotency-Key header is not {IDEMPOTENCY_KEY_RULE}.",
                {"detail": f"an Idempotency-Key is {IDEMPOTENCY_KEY_RULE}"}),
    ProblemKind(401, "token-required", "Token required",
                "No token was sent, or the Authorization header is not `Bearer <token>`.",
                {"detail": "a move needs the seat's token"}),
    ProblemKind(401, "sign-in-refused", "Sign-in refused",
                "The ID token is not one to accept: unsigned or signed with a symmetric key, "
                "by a key its issuer does not publish, for another audience or issuer, "
                "expired, not yet valid, or used to sign in before.",
                {"detail": "the ID token has expired: sign in again"}),
    ProblemKind(403, "wrong-token", "Not a token of this game",
                "The token is not a token of a seat of this game."),
    ProblemKind(403, "not-a-players-token", "Not a player's token",
                "The token is no player's (any more): never issued, signed out, dropped by a "
                "newer sign-in past the 8 sessions an account keeps, or a guest's that became "
                "an account's. Drop it: sign in again, or make a guest.",
                {"detail": "this is not a player's token (signed out, or replaced by newer "
                 "sign-ins): sign in again, or make a guest"}),
    ProblemKind(403, "sign-in-required", "Sign in to rank",
                "Where a sign-in provider is configured, today's ranked attempt is for "
                "signed-in accounts, one per person; a guest may practise past days.",
                {"detail": "today's ranked challenge is for signed-in players"}),
    ProblemKind(404, "no-sign-in", "No sign-in here",
                "This server has no sign-in provider configured: every player is a guest."),
    ProblemKind(404, "player-not-found", "No such player", "No player has this id."),
    ProblemKind(409, "account-taken", "Account taken",
                "The account has a player already, so a guest cannot be attached to it (sign "
                "in without the guest's token), or the guest is another account's player."),
    ProblemKind(404, "game-not-found", "No such game", "No game has this id.",
                {"detail": "no game 'nope'"}),
    ProblemKind(404, "not-found", "Not Found", "No such route."),
    ProblemKind(404, "daily-not-found", "No daily challenge yet",
                "That UTC day has not begun: no challenge is dealt before its day.",
                {"detail": "no daily challenge for 2026-11-23 yet (today is 2026-11-22, UTC)"}),
    ProblemKind(409, "already-played", "Already played",
                "One ranked attempt per player, day and ruleset: `game_id` is the first.",
                {"detail": "already played today's deal: game q0Vh3lJx8u1k",
                 "game_id": "q0Vh3lJx8u1k"}),
    ProblemKind(405, "method-not-allowed", "Method Not Allowed",
                "The route does not take this method."),
    ProblemKind(409, "stale-version", "Stale version",
                "The version is stale: another move came first. Reload and retry.",
                {"detail": "the game is at version 3; reload and retry", "current_version": 3}),
    ProblemKind(409, "not-your-turn", "Not your turn",
                "The seat may not make this move now: another seat is to move, or it has "
                "already submitted this step. `legal_moves` lists what it may do (resign).",
                {"detail": "it is not your turn: wait for the other seat",
                 "legal_moves": [{"type": "resign"}]}),
    ProblemKind(409, "seat-taken", "Seat already taken",
                "The seat has been joined already: an invite works once.",
                {"detail": "seat 1 has already been joined"}),
    ProblemKind(409, "no-rematch", "No rematch for this game",
                "A rematch is dealt only for a finished casual game: not while it is played, "
                "and never for a ranked daily attempt.",
                {"detail": "the game is still being played: a rematch is dealt once it is over"}),
    ProblemKind(409, "game-finished", "The game is over", "No move is accepted once it is over.",
                {"detail": "the game is over"}),
    ProblemKind(409, "daily-closed", "The day is over",
                "A ranked attempt belongs to its UTC day: once the day is over its deal is "
                "public, so no move is accepted and the attempt does not rank.",
                {"detail": "the day of this ranked attempt (2026-11-22, UTC) is over"}),
    ProblemKind(409, "game-too-long", "The game is too long",
                "A game's log holds at most `limit` events (undo included): past that only "
                "`resign` is accepted.",
                {"detail": "this game has reached 2000 events, the most a game may have: only "
                 "resign is accepted now", "limit": 2000}),
    ProblemKind(413, "body-too-large", "Request body too large", "The body is too large."),
    ProblemKind(422, "invalid-body", "The request body is not valid",
                "Unknown or mistyped fields: `errors` names each.",
                {"detail": "see `errors` for each field",
                 "errors": {"version": ["Not a valid integer."]}}),
    ProblemKind(422, "invalid-options", "Invalid options", "Options the ruleset refuses.",
                {"detail": "setup_royals: must be at most 12",
                 "errors": {"setup_royals": "must be at most 12"}}),
    ProblemKind(422, "invalid-seed", "Invalid seed", "A seed that is not 1-128 of [A-Za-z0-9._:-].",
                {"detail": "a seed is 1 to 128 characters from A-Z a-z 0-9 . _ : -"}),
    ProblemKind(422, "unknown-ruleset", "Unknown ruleset", "No ruleset has this id.",
                {"detail": str(UnknownRuleset("chess", GAMES))}),
    ProblemKind(422, "illegal-move", "Illegal move",
                "The move is not legal now, or not a move of this game at all: `reason` says "
                "why and `legal_moves` lists what the seat may play.",
                {"detail": "there is no current card to put on the reserve",
                 "reason": "there is no current card to put on the reserve",
                 "legal_moves": [{"type": "draw"}, {"type": "resign"}]}),
    ProblemKind(422, "idempotency-key-reused", "Idempotency-Key reused",
                "The Idempotency-Key was already used for a different request.",
                {"detail": "this Idempotency-Key was already used for a different move"}),
    ProblemKind(422, "invalid-request", "Invalid request",
                "A request the service refuses as it stands: `errors` names the field.",
                {"detail": "at must be from 0 to 12", "errors": {"at": "at must be from 0 to 12"}}),
    ProblemKind(429, "too-many-requests", "Too many requests",
                "This client address has made too many requests of a kind lately, or holds "
                "as many connections as it may (`court serve`'s per-client limits: games, "
                "players, moves, costly reads, connections): retry after `Retry-After` "
                "seconds.",
                {"detail": "at most 60 games a minute from one address; retry in 1 s"}),
    ProblemKind(400, "http-error", "HTTP error", "Any other HTTP-level refusal (its own status)."),
    ProblemKind(500, "internal-error", "Internal error", "A bug: it has been logged.",
                {"detail": "the error has been logged"}),
    ProblemKind(503, "too-many-streams", "Too many streams",
                "`court serve` holds as many event streams as it takes: in all, of this "
                "client address, of this game's spectators or of this seat: retry after "
                "`Retry-After` seconds, or long-poll meanwhile.",
                {"detail": "this game has as many open streams as it takes; retry later"}),
    ProblemKind(503, "sign-in-unavailable", "Sign-in unavailable",
                "The sign-in provider's keys could not be fetched: retry after `Retry-After` "
                "seconds.", {"detail": "the sign-in provider cannot be reached; retry shortly"}),
    ProblemKind(503, "store-unavailable", "Temporarily unavailable",
                "The store is throttling or failing: retry after `Retry-After` seconds.",
                {"detail": "the game store is busy; retry shortly"}),
)  # fmt: skip

HTTP_SLUGS = {400: "malformed-request", 404: "not-found", 405: "method-not-allowed",
              413: "body-too-large"}  # fmt: skip


class Problem(Exception):
    """An error response: a kind of problem, its detail, extension members and headers."""

    def __init__(
        self,
        slug: str,
        detail: str | None = None,
        headers: dict[str, str] | None = None,
        status: int | None = None,
        **extra: Any,
    ) -> None:
        self.kind = KINDS[slug]
        super().__init__(detail or self.kind.title)
        self.detail, self.headers, self.extra = detail, headers or {}, extra
        self.status = status or self.kind.status

    def response(self) -> Response:
        body = self.kind.body(self.detail, **self.extra) | {"status": self.status}
        resp = Response(json.dumps(body), status=self.status, mimetype="application/problem+json")
        for name, value in self.headers.items():
            resp.headers[name] = value
        return resp


def problem_for(error: Exception) -> Problem:
    """The problem an exception is answered with; a bug is logged and answered 500."""
    if isinstance(error, Problem):
        return error
    if isinstance(error, ValidationError):
        messages = error.messages if isinstance(error.messages, dict) else {"_": error.messages}
        return Problem("invalid-body", "see `errors` for each field", errors=messages)
    if isinstance(error, InvalidOptions):
        return Problem("invalid-options", str(error), errors=error.errors)
    if isinstance(error, InvalidSeed):
        return Problem("invalid-seed", str(error))
    if isinstance(error, UnknownRuleset):
        return Problem("unknown-ruleset", str(error))
    if isinstance(error, IllegalMove):
        return Problem(
            "illegal-move", error.reason, reason=error.reason, legal_moves=error.legal_moves
        )
    if isinstance(error, InvalidRequest):
        return Problem("invalid-request", str(error), errors={error.field: str(error)})
    if isinstance(error, IdempotencyMismatch):
        return Problem("idempotency-key-reused", str(error))
    if isinstance(error, DailyNotFound):
        return Problem("daily-not-found", str(error))
    if isinstance(error, AttemptExists):
        return Problem("already-played", str(error), game_id=error.game_id)
    if isinstance(error, GameNotFound):
        return Problem("game-not-found", str(error))
    if isinstance(error, SignInRefused):
        return Problem(
            "sign-in-refused", str(error), {"WWW-Authenticate": 'Bearer realm="royal-court"'}
        )
    if isinstance(error, NotAPlayersToken):
        return Problem("not-a-players-token", str(error))
    if isinstance(error, SignInRequired):
        return Problem("sign-in-required", str(error))
    if isinstance(error, NoSignIn):
        return Problem("no-sign-in", str(error))
    if isinstance(error, PlayerNotFound):
        return Problem("player-not-found", str(error))
    if isinstance(error, AccountTaken):
        return Problem("account-taken", str(error))
    if isinstance(error, SignInUnavailable):
        log.warning("sign-in unavailable: %s", error)
        return Problem(
            "sign-in-unavailable",
            "the sign-in provider cannot be reached; retry shortly",
            {"Retry-After": str(error.retry_after)},
        )
    if isinstance(error, Unauthenticated):
        return Problem(
            "token-required", str(error), {"WWW-Authenticate": 'Bearer realm="royal-court"'}
        )
    if isinstance(error, Forbidden):
        return Problem("wrong-token", str(error))
    if isinstance(error, StaleVersion):
        return Problem(
            "stale-version",
            f"the game is at version {error.current_version}; reload and retry",
            current_version=error.current_version,
        )
    if isinstance(error, GameOver):
        return Problem("game-finished", str(error))
    if isinstance(error, DailyClosed):
        return Problem("daily-closed", str(error))
    if isinstance(error, LogFull):
        return Problem("game-too-long", str(error), limit=error.limit)
    if isinstance(error, NotYourTurn):
        return Problem("not-your-turn", str(error), legal_moves=error.legal_moves)
    if isinstance(error, SeatTaken):
        return Problem("seat-taken", str(error))
    if isinstance(error, NoRematch):
        return Problem("no-rematch", str(error))
    if isinstance(error, StoreUnavailable):
        # The cause (error code and message) is for the operator's log; the client is told
        # only to come back, which is all it can act on.
        log.warning("store unavailable: %s", error)
        return Problem(
            "store-unavailable",
            "the game store is busy; retry shortly",
            {"Retry-After": str(error.retry_after)},
        )
    if isinstance(error, HTTPException):
        code = error.code or 500
        headers = {k: v for k, v in error.get_headers() if k == "Allow"} if code == 405 else {}
        slug = HTTP_SLUGS.get(code, "http-error")
        return Problem(slug, error.description, headers, status=code)
    log.exception("unhandled error")
    return Problem("internal-error", "the error has been logged")
