"""Dealing a game (its seats, invites and deal), joining it, and reading it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from domain.capabilities import AnyRuleset
from domain.deal import check_seed, seed_commitment
from domain.errors import Forbidden, GameNotFound, GameOver, InvalidRequest, Json
from domain.registry import GAMES, RULESETS, get_game
from domain.replay import Playthrough
from domain.stored import ONE_HUMAN_SEAT, DailyAttempt, GameRecord, Seat, StoredGame
from domain.usecases.appending import renewed_expiry
from domain.usecases.bots import bot_due, play_bots
from domain.usecases.court import GAME_ID, Court, Snapshot, epoch, token_digest
from domain.usecases.seats import creator_seat, seats_asked, with_seat_count


def rulesets() -> list[Json]:
    """Each ruleset's description, with the bot policies a seat may name (multi-seat games: a
    solitaire has no seat to give a bot)."""
    return [
        {**r.describe(), "policies": list(GAMES[r.id].policies) if r.max_seats > 1 else []}
        for r in RULESETS.values()
    ]


def read_game(court: Court, game_id: str, token: str | None) -> Snapshot:
    return watch_game(court, game_id, token)[1]


def watch_game(court: Court, game_id: str, token: str | None) -> tuple[int | None, Snapshot]:
    """`read_game`, and the seat the token is a token of (None: a spectator): what a pushed
    stream keeps instead of the token (handlers/aws/push.py), whose later events are then
    read with `read_game_as`."""
    opened = court.open(game_id, token)
    stored, game = opened.stored, opened.game
    if bot_due(stored.record, game):  # a bot's reply left unplayed (a crash)
        stored, game, _ = play_bots(court, stored, game, opened.seat)
    return opened.seat, Snapshot(*court.shown(stored, game, opened.seat))


def read_game_as(
    court: Court, game_id: str, seats: Iterable[int | None]
) -> dict[int | None, Snapshot]:
    """The game as each of `seats` reads it (`read_game` for each seat's token), from one
    load and one replay: a push sends each of a game's connections its seat's view, and the
    seats were checked against their tokens when the connections were opened (`watch_game`).
    A seat the read would now refuse (a spectator of a ranked game before its day is over)
    is left out."""
    stored = court.load(game_id)
    game = court.replay(stored, stored.version)
    if bot_due(stored.record, game):
        stored, game, _ = play_bots(court, stored, game, None)
    out: dict[int | None, Snapshot] = {}
    for seat in dict.fromkeys(seats):
        try:
            court.guard_daily(stored.record, seat)
        except Forbidden:
            continue
        out[seat] = Snapshot(*court.shown(stored, game, seat))
    return out


def game_version(court: Court, game_id: str) -> int:
    """The number of moves in the game's log, from one small read: what a long-poll checks
    while it waits (it has read the game, with its seat's checks, already)."""
    if GAME_ID.fullmatch(game_id) is None:
        raise GameNotFound(f"no game {game_id[:80]!r}")
    version = court.games.version(game_id)
    if version is None:
        raise GameNotFound(f"no game {game_id!r}")
    return version


def create_game(
    court: Court,
    ruleset_id: str,
    options: Mapping[str, Any] | None,
    seed: str | None,
    from_game: str | None = None,
    seats: object = None,
) -> Snapshot:
    """Deal a new game; seed_known is true when the seed is public from the start: chosen by
    the client, or taken from a finished game (`from_game`, a shared deal).

    The creator takes the first human seat; every other human seat gets a one-time invite,
    and bot seats play as soon as they have a move to make.
    """
    entry = get_game(ruleset_id)
    ruleset = entry.ruleset
    said = (options or {}).get("seats") if ruleset.min_seats < ruleset.max_seats else None
    if seats is None and type(said) is int and said > 0:  # every seat human, as many as said
        seats = [{"player": "human"} for _ in range(min(said, ruleset.max_seats + 1))]
    seat_list = seats_asked(entry, seats)
    options = with_seat_count(ruleset, options, len(seat_list))
    if not ruleset.deals_may_be_chosen and (seed is not None or from_game is not None):
        field = "seed" if seed is not None else "from_game"
        raise InvalidRequest(
            field,
            f"{ruleset.id} deals only secret deals: a seed one seat knows would show it the "
            "other seat's cards (the seed is revealed when the game ends)",
        )
    if from_game is not None:
        options, seed = shared_deal(court, ruleset, from_game, options, seed)
    full_options = ruleset.validate_options(options)
    seed_known = seed is not None
    game_seed = check_seed(seed) if seed is not None else court.new_secret()
    record, game, token, invites = deal(
        court, ruleset, full_options, game_seed, seed_known, seat_list, from_game=from_game
    )
    record = expiring(court, record)
    court.games.create(record)
    creator = creator_seat(record)
    stored, game, effects = play_bots(court, StoredGame(record), game, creator)
    return Snapshot(
        court.game_json(stored.record, stored.version, game),
        game.view(creator),
        effects or None,
        token,
        creator,
        invites,
    )


def deal(
    court: Court,
    ruleset: AnyRuleset,
    options: Mapping[str, Any],
    seed: str,
    seed_known: bool,
    seats: tuple[Seat, ...] = (),
    from_game: str | None = None,
    daily: DailyAttempt | None = None,
    creator: int | None = None,
) -> tuple[GameRecord, Playthrough, str, list[Json]]:
    """A new game's record (not yet stored), its dealt position, the creator's token and the
    invites of the other human seats (only their hashes are kept). No seats: one human seat,
    stored as none (a solitaire's record, as before seats). The creator takes `creator`
    (default: the first human seat); a seat dealt with an invite hash keeps it (a rematch's
    invites, carried over) and gets no new invite."""
    game = Playthrough(ruleset, seed, options)
    created_at = court.clock()
    # A deal can be over before any move (an Adaman deal lost at once): finished at its deal.
    finished_at = created_at if ruleset.is_over(game.state) else None
    game_id = court.new_secret()
    token = court.new_secret()
    seat_list = list(seats or ONE_HUMAN_SEAT)
    if creator is None:
        creator = next(i for i, s in enumerate(seat_list) if not s.is_bot)
    invites: list[Json] = []
    for index, seat in enumerate(seat_list):
        if not seat.is_bot and index != creator and seat.invite_hash is None:
            invite = court.new_secret()
            seat_list[index] = replace(seat, invite_hash=token_digest(invite))
            invites.append({"seat": index, "invite": invite})
    record = GameRecord(
        id=game_id,
        ruleset=ruleset.id,
        options=dict(game.options),
        seed=seed,
        seed_commitment=seed_commitment(seed),
        seed_known=seed_known,
        chain_key=court.new_secret(),  # the salts' secret: whoever chose the seed
        created_at=created_at,
        finished_at=finished_at,
        token_hashes={creator: token_digest(token)},
        status=ruleset.status(game.state),
        outcome=ruleset.outcome(game.state),
        seats=tuple(seat_list) if seats else (),
        from_game=from_game,
        daily=daily,
    )
    return record, game, token, invites


def expiring(court: Court, record: GameRecord) -> GameRecord:
    """A new casual game's record with its expiry, if games expire: deleted unless played."""
    if court.game_ttl is None or record.finished_at is not None:
        return record
    return replace(record, expires_at=epoch(record.created_at) + court.game_ttl)


def join(court: Court, game_id: str, seat: int, invite: str | None) -> Snapshot:
    """Take a seat with its invite: the seat's token, once (only its hash is stored). Not in
    a finished game: its seat would have nothing to play, and its rematch (domain/usecases/
    rematches.py) was dealt, or will be, with the invite as it stood."""
    if not isinstance(invite, str) or not invite:
        raise InvalidRequest("invite", "the invite of this seat is required")
    stored = court.load(game_id)
    played = court.replay(stored, stored.version)
    if played.ruleset.is_over(played.state):
        raise GameOver("the game is over: its seats can no longer be taken")
    token = court.new_secret()
    court.games.join(game_id, seat, token_digest(invite), token_digest(token))
    stored = court.load(game_id)
    game = court.replay(stored, stored.version)
    return Snapshot(
        court.game_json(stored.record, stored.version, game), game.view(seat), None, token, seat
    )


def shared_deal(
    court: Court,
    ruleset: AnyRuleset,
    source_id: str,
    options: Mapping[str, Any] | None,
    seed: str | None,
) -> tuple[Mapping[str, Any], str]:
    """The options and seed of a finished game, to deal it again. A link to a deal is kept
    working: each deal of it pushes its game's expiry back (`renewed_expiry`)."""
    if seed is not None or options:
        raise InvalidRequest("from_game", "a shared deal takes its seed and options from its game")
    try:
        source = court.load(source_id)
    except GameNotFound:
        raise InvalidRequest("from_game", f"no game {source_id[:80]!r}") from None
    if source.record.ruleset != ruleset.id:
        raise InvalidRequest("from_game", f"that game is {source.record.ruleset}, not {ruleset.id}")
    game = court.replay(source, source.version)
    if not court.seed_public(source.record, ruleset.is_over(game.state)):
        raise InvalidRequest(
            "from_game", "that game is still being played: its deal is secret until it ends"
        )
    if (renewed := renewed_expiry(court, source.record, court.clock())) is not None:
        court.games.touch(source.record.id, renewed)
    return source.record.options, source.record.seed


def delete_expired(court: Court) -> int:
    """Delete the unfinished casual games whose time is up (docs/api.md, "Limits"): run on a
    schedule by `court serve`; on DynamoDB the table's TTL does it instead (0 here)."""
    return court.games.delete_expired(epoch(court.clock()))
