"""Daily challenges (docs/daily.md): the day's deals, players, ranked attempts and their
practice games, and the leaderboards."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from domain.capabilities import GameEntry
from domain.daily import check_date, select, tie_prefix
from domain.errors import (
    DailyNotFound,
    InvalidRequest,
    Json,
    StoreUnavailable,
)
from domain.registry import GAMES, get_game
from domain.store import decode_cursor, encode_cursor
from domain.stored import DailyAttempt, DailyDeal, LeaderboardEntry, PlayerRecord
from domain.usecases.court import MAX_PAGE, Court, Snapshot, epoch
from domain.usecases.games import create_game, deal
from domain.usecases.players import player_of, require_account


def daily(court: Court, date_asked: str) -> Json:
    """The day's deal of every solitaire: commitment, difficulty, players; the seed only once
    the day is over."""
    today = court.today()
    day = check_date(date_asked, today, court.first_day)
    challenges = []
    for game in GAMES.values():
        if game.ruleset.max_seats != 1:
            continue
        try:
            kept = daily_deal(court, day, game)
        except DailyNotFound:
            continue  # a past day it was never dealt on: that ruleset had no challenge then
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
    deal was never chosen had no challenge: 404, never seconds of work for a cheap GET.

    A deal never changes once kept, and today's count of players may be a few seconds old
    (DEAL_FRESH_SECONDS): so a process reads a deal from the store once, and today's again at
    most that often (a viral day's pages would otherwise all read one partition, issue 39).
    A start in this process adds one to the count it holds, so that its player is counted."""
    now = epoch(court.clock())
    read = court.deals_read.get((day, game.id))
    if read is not None and (read[1] >= _day_over(day) or now - read[1] < DEAL_FRESH_SECONDS):
        return read[0]  # read after its day was over (its count final), or lately
    kept = court.deals.load_daily(day, game.id)
    if kept is not None:
        return _read(court, kept, now)
    if day < court.today():
        raise DailyNotFound(f"no daily challenge was dealt for {day}")
    with court.choosing:
        kept = court.deals.load_daily(day, game.id)
        if kept is None:
            secret = court.daily_secret()
            if not secret:
                raise StoreUnavailable("no daily secret is configured", retry_after=60)
            kept = court.deals.save_daily(select(game, secret, day))
    return _read(court, kept, now)


DEAL_FRESH_SECONDS = 10
KEPT_DEALS_READ = 64  # (day, ruleset) pairs remembered: a few days of every solitaire


def _day_over(day: str) -> int:
    """When `day` (UTC) is over: its count of players is final from then on."""
    return epoch(f"{date.fromisoformat(day) + timedelta(days=1)}T00:00:00.000+00:00")


def _read(court: Court, deal: DailyDeal, now: int) -> DailyDeal:
    if len(court.deals_read) >= KEPT_DEALS_READ:
        court.deals_read.clear()
    court.deals_read[(deal.date, deal.ruleset)] = (deal, now)
    return deal


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
    require_account(court, player)
    # Options fixed by the server (the defaults: no undo when ranked).
    record, played, token, _ = deal(
        court, game.ruleset, {}, kept.seed, False, (),
        daily=DailyAttempt(day, player.id, player.name),
    )  # fmt: skip
    court.deals.create_attempt(day, player.id, record)  # AttemptExists names the first
    read = court.deals_read.get((day, game.id))
    if read is not None:  # its count has one more now: this player sees itself counted
        court.deals_read[(day, game.id)] = (replace(read[0], players=read[0].players + 1), read[1])
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
    # A cursor carries the last entry's key, how many entries came before the page, and the
    # rank shown last: tied entries share a rank, and a tie may run on from the page before.
    after, position, shown = None, 0, 0
    if cursor is not None:
        at = decode_cursor(cursor, ("key", "rank", "shown"))
        after, position, shown = at["key"], _count(at["rank"]), _count(at["shown"])
        if not 1 <= shown <= position:
            raise InvalidRequest("cursor", "not a cursor this server gave")
    over = day < today
    page = court.boards.leaderboard(day, game.id, limit + 1, after)
    entries = []
    for i, entry in enumerate(page[:limit]):
        if after is None or tie_prefix(entry.key) != tie_prefix(after):
            shown = position + i + 1
        entries.append(entry_json(entry, shown))
        after = entry.key
    next_cursor = None
    if len(page) > limit:
        next_cursor = encode_cursor(
            {"key": page[limit - 1].key, "rank": str(position + limit), "shown": str(shown)}
        )
    out: Json = {"date": day, "ruleset": game.id, "over": over, "entries": entries,
                 "verified": court.identities is not None, "cursor": next_cursor}  # fmt: skip
    if player_token is not None:
        out["you"] = own_entry(court, day, game.id, player_of(court, player_token))
    return out


def own_entry(court: Court, day: str, ruleset_id: str, player: PlayerRecord) -> Json:
    attempt = court.deals.load_attempt(day, ruleset_id, player.id)
    if attempt is None:
        return {"name": player.name, "played": False}
    if attempt.entry is None:
        return {"name": player.name, "played": True, "finished": False, "game_id": attempt.game_id}
    rank = court.boards.leaderboard_rank(day, ruleset_id, attempt.entry.key)
    return entry_json(attempt.entry, rank) | {"played": True, "finished": True}


def entry_json(entry: LeaderboardEntry, rank: int) -> Json:
    return {
        "rank": rank,
        "name": entry.name,
        "player_id": entry.player_id,
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
