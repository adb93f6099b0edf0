"""Reading what was played: the log, the record, a replay step, and the finished games."""

from __future__ import annotations

from domain.errors import InvalidRequest, Json, Unauthenticated
from domain.record import RECORD_FORMAT, RECORD_FORMAT_V1
from domain.registry import get_ruleset
from domain.stored import GameRecord
from domain.usecases.court import MAX_PAGE, Court, epoch
from domain.usecases.shown import masked


def moves(court: Court, game_id: str, token: str | None = None) -> list[Json]:
    opened = court.open(game_id, token)
    moves = court.public_moves(opened.stored, opened.game, opened.seat)
    return list(masked(moves, court.sealed_cards(opened.stored)))


def record(court: Court, game_id: str, token: str | None) -> Json:
    """The game's record (docs/record-format.md), as much of it as the requester may see.

    While the game is played the seed is left out unless the client chose it; once it is
    over the record is complete, and anyone can verify it end to end.
    """
    opened = court.open(game_id, token)
    stored, game = opened.stored, opened.game
    r = stored.record
    out: Json = {
        "format": RECORD_FORMAT if r.chain_key is not None else RECORD_FORMAT_V1,
        "id": r.id,
        "ruleset": r.ruleset,
        "options": r.options,
        "seed_commitment": r.seed_commitment,
    }
    if court.seed_public(r, game.ruleset.is_over(game.state)):
        out["seed"] = r.seed
    out["created_at"] = r.created_at
    if r.from_game is not None:
        out["from_game"] = r.from_game
    sealed = court.sealed_cards(stored)
    out["moves"] = masked(court.public_moves(stored, game, opened.seat), sealed)
    out["status"] = game.ruleset.status(game.state)
    out["outcome"] = masked(game.ruleset.outcome(game.state), sealed)
    return out


def replay_step(court: Court, game_id: str, token: str | None, at: int) -> Json:
    """The view after `at` events (0: the deal), with the event that led there.

    A finished game's steps are public, shown to the spectator with the whole deal (its seed
    is public by then). While a game is played only a seat may step through it, in its own
    view and up to the present: nothing it has not already seen.
    """
    opened = court.open(game_id, token)
    stored, seat = opened.stored, opened.seat
    # The record's status is written in the finishing move's own transaction.
    over = court.seed_public(stored.record, stored.record.status != "playing")
    if not over and seat is None:
        raise Unauthenticated("stepping through a game in play needs a seat's token")
    if not 0 <= at <= stored.version:
        raise InvalidRequest("at", f"at must be from 0 to {stored.version}")
    viewer = None if over else seat
    move = court.public_moves(stored, opened.game, viewer, only=at - 1)[0] if at > 0 else None
    game = court.replay(stored, max(at - 1, 0))
    effects: list[Json] = []
    if at > 0:
        event = stored.moves[at - 1]
        effects = game.play(event.seat, event.move)
    sealed = court.sealed_cards(stored) if at == stored.version else frozenset()
    out: Json = {
        "at": at,
        "version": stored.version,
        "move": move,
        "effects": masked(effects, sealed),
        "view": masked(game.view(viewer), sealed),
    }
    if over:
        ruleset, options = game.ruleset, stored.record.options
        out["deck"] = ruleset.deck(stored.record.seed, options)
        out["deal_plan"] = [step.to_json() for step in ruleset.deal_plan(options)]
    return out


def list_finished(court: Court, ruleset_id: str | None, limit: int, cursor: str | None) -> Json:
    if ruleset_id is not None:
        get_ruleset(ruleset_id)  # UnknownRuleset names the known ones
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidRequest("limit", f"limit must be from 1 to {MAX_PAGE}")
    page = court.games.list_finished(ruleset_id, limit, cursor)
    # A game past its retention is gone to every route, whether or not the store has deleted
    # it yet (DynamoDB's TTL takes days): its row is left out, the page's cursor kept.
    now = epoch(court.clock())
    kept = [r for r in page.records if r.expires_at is None or r.expires_at > now]
    return {"games": [finished_json(court, r) for r in kept], "cursor": page.cursor}


def finished_json(court: Court, r: GameRecord) -> Json:
    """A finished game in the public listing: its seed only once it may be shown (a ranked
    daily game's not before its day is over, when the day's seed is public anyway), and its
    outcome with every card of the deal masked until then (see `listed_outcome`)."""
    out: Json = {
        "id": r.id,
        "ruleset": r.ruleset,
        "status": r.status,
        "outcome": listed_outcome(court, r),
        "moves": r.version,
        "created_at": r.created_at,
        "finished_at": r.finished_at,
        "seed_commitment": r.seed_commitment,
    }
    if court.seed_public(r, True):
        out["seed"] = r.seed
    return out


def listed_outcome(court: Court, r: GameRecord) -> Json | None:
    """The outcome as anyone may read it in the listing. A ranked daily game is private to its
    player until its day is over (`Court.guard_daily`): a stranger may know no card of the
    day's deal, so until then every card of the game (its deal plan's, a superset of what its
    player's own view masks) is null where the outcome names it ("ruler": the Pretender that
    took the throne, say); the result and score stay, as the leaderboard shows them."""
    if r.outcome is None or r.daily is None or court.seed_public(r, True):
        return r.outcome
    plan = get_ruleset(r.ruleset).deal_plan(r.options)
    shown: Json = masked(r.outcome, frozenset(code for step in plan for code in step.cards))
    return shown
