"""Daily challenges (docs/daily.md): the day's deals, players, ranked attempts and their
practice games, and the leaderboards."""

from __future__ import annotations

import hmac
from datetime import date, timedelta

from domain.capabilities import GameEntry
from domain.daily import check_date, display_name, leaderboard_key, select
from domain.errors import (
    DailyNotFound,
    Forbidden,
    InvalidRequest,
    Json,
    StoreUnavailable,
    Unauthenticated,
)
from domain.registry import GAMES, get_game
from domain.store import decode_cursor, encode_cursor
from domain.stored import DailyAttempt, DailyDeal, LeaderboardEntry, PlayerRecord
from domain.usecases.court import GAME_ID, MAX_PAGE, Court, Snapshot, token_digest
from domain.usecases.games import create_game, deal


def daily(court: Court, date_asked: str) -> Json:
    """The day's deal of every solitaire: commitment, difficulty, players; the seed only once
    the day is over."""
    today = court.today()
    day = check_date(date_asked, today, court.first_day)
    challenges = []
    for game in GAMES.values():
        if game.ruleset.max_seats != 1:
            continue
        if day < today and court.deals.load_daily(day, game.id) is None:
            continue  # never dealt on its day: that ruleset had no challenge then
        kept = daily_deal(court, day, game)
        entry: Json = {
            "ruleset": game.id,
            "seed_commitment": kept.seed_commitment,
            "difficulty": kept.difficulty,
            "bot_win_rate": kept.bot_wins / kept.bot_games,
            "players": kept.players,
            "ranked": day == today,
        }
        if day < today:
            entry["seed"] = kept.seed
        challenges.append(entry)
    if not challenges:
        raise DailyNotFound(f"no daily challenge was dealt for {day}")
    return {"date": day, "today": today, "over": day < today, "challenges": challenges}


def daily_deal(court: Court, day: str, game: GameEntry) -> DailyDeal:
    """The day's deal of `game`: as kept, or chosen now and kept (the first writer wins).

    Deals are chosen ahead of time (`prepare_daily`, on a schedule); choosing one costs
    seconds, so a request does it only for today, the fallback when the schedule did not run,
    and one at a time in a process (the others wait, then read what it kept). A past day whose
    deal was never chosen had no challenge: 404, never seconds of work for a cheap GET."""
    kept = court.deals.load_daily(day, game.id)
    if kept is not None:
        return kept
    if day < court.today():
        raise DailyNotFound(f"no daily challenge was dealt for {day}")
    with court.choosing:
        kept = court.deals.load_daily(day, game.id)
        if kept is None:
            secret = court.daily_secret()
            if not secret:
                raise StoreUnavailable("no daily secret is configured", retry_after=60)
            kept = court.deals.save_daily(select(game, secret, day))
    return kept


def prepare_daily(court: Court, days: int = 2) -> list[str]:
    """Choose and keep the deals of today and the `days - 1` days after it (UTC), so that no
    player's first request of a day waits for the solver (that lazy path stays, as the
    fallback). Run on a schedule (docs/daily.md); what is kept already costs one read.

    Keeping tomorrow's deal early shows nothing: every endpoint refuses a day that has not
    begun (404) before it reads a deal. Returns "date/ruleset" of each deal chosen by this
    call (an empty list when all were there)."""
    first = date.fromisoformat(court.today())
    chosen: list[str] = []
    for offset in range(days):
        day = (first + timedelta(days=offset)).isoformat()
        for game in GAMES.values():
            if game.ruleset.max_seats == 1 and court.deals.load_daily(day, game.id) is None:
                daily_deal(court, day, game)
                chosen.append(f"{day}/{game.id}")
    return chosen


def create_player(court: Court, name: object) -> Json:
    player_id = court.new_secret()[:16]
    shown = display_name(name, player_id)
    secret = court.new_secret()
    court.players.create_player(PlayerRecord(player_id, shown, token_digest(secret), court.clock()))
    return {"player_id": player_id, "name": shown, "token": f"{player_id}.{secret}"}


def player_of(court: Court, token: str | None) -> PlayerRecord:
    if token is None:
        raise Unauthenticated("a daily challenge needs a player's token (POST /v1/players)")
    player_id, _, secret = token.partition(".")
    player = court.players.load_player(player_id) if GAME_ID.fullmatch(player_id) else None
    if player is None or not hmac.compare_digest(token_digest(secret), player.token_hash):
        raise Forbidden("this is not a player's token")
    return player


def start_daily(
    court: Court, date_asked: str, ruleset_id: str, player_token: str | None
) -> Snapshot:
    """Today: the player's one ranked attempt. A past day: a practice game on its deal."""
    game = get_game(ruleset_id)
    if game.ruleset.max_seats != 1:
        raise InvalidRequest("ruleset", "daily challenges are for solitaires")
    today = court.today()
    day = check_date(date_asked, today, court.first_day)
    kept = daily_deal(court, day, game)
    if day < today:  # practice: unranked, and the seed is public by now
        if player_token is not None:
            player_of(court, player_token)
        return create_game(court, game.id, None, kept.seed)
    player = player_of(court, player_token)
    # Options fixed by the server (the defaults: no undo when ranked).
    record, played, token, _ = deal(
        court, game.ruleset, {}, kept.seed, False, (),
        daily=DailyAttempt(day, player.id, player.name),
    )  # fmt: skip
    court.deals.create_attempt(day, player.id, record)  # AttemptExists names the first
    return Snapshot(court.game_json(record, 0, played), played.view(0), None, token)


def leaderboard(
    court: Court,
    date_asked: str,
    ruleset_id: str,
    limit: int,
    cursor: str | None,
    player_token: str | None = None,
) -> Json:
    game = get_game(ruleset_id)
    today = court.today()
    day = check_date(date_asked, today, court.first_day)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidRequest("limit", f"limit must be from 1 to {MAX_PAGE}")
    after, rank = None, 0
    if cursor is not None:
        position = decode_cursor(cursor, ("key", "rank"))
        after, rank = position["key"], _count(position["rank"])
    over = day < today
    page = court.boards.leaderboard(day, game.id, limit + 1, after)
    entries = [entry_json(e, rank + i + 1) for i, e in enumerate(page[:limit])]
    next_cursor = None
    if len(page) > limit:
        next_cursor = encode_cursor({"key": page[limit - 1].key, "rank": str(rank + limit)})
    out: Json = {"date": day, "ruleset": game.id, "over": over, "entries": entries,
                 "cursor": next_cursor}  # fmt: skip
    if player_token is not None:
        out["you"] = own_entry(court, day, game.id, player_of(court, player_token))
    return out


def own_entry(court: Court, day: str, ruleset_id: str, player: PlayerRecord) -> Json:
    game_id = court.deals.load_attempt(day, ruleset_id, player.id)
    if game_id is None:
        return {"name": player.name, "played": False}
    record = court.load(game_id).record
    if record.finished_at is None or record.outcome is None:
        return {"name": player.name, "played": True, "finished": False, "game_id": game_id}
    key = leaderboard_key(
        record.outcome["result"], record.outcome["score"], record.version,
        record.finished_at, game_id,
    )  # fmt: skip
    rank = court.boards.leaderboard_rank(day, ruleset_id, key)
    entry = LeaderboardEntry(day, ruleset_id, key, game_id, player.id, player.name,
                             record.outcome["result"], record.outcome["score"],
                             record.version, record.finished_at)  # fmt: skip
    return entry_json(entry, rank) | {"played": True, "finished": True}


def entry_json(entry: LeaderboardEntry, rank: int) -> Json:
    return {
        "rank": rank,
        "name": entry.name,
        "result": entry.result,
        "score": entry.score,
        "moves": entry.moves,
        "finished_at": entry.finished_at,
        "game_id": entry.game_id,
    }


def _count(text: str) -> int:
    """A count carried in a cursor, which a client may have forged."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise InvalidRequest("cursor", "not a cursor this server gave")
    return int(text)
