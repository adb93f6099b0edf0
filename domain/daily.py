"""Daily challenges: one deal per UTC day and solitaire, the same for every player, rated.

The day's seed is candidate k = 0, 1, 2, ... of `hex(HMAC-SHA256(secret, "daily:" + date + ":"
+ ruleset + ":" + k))`, the first that the ruleset's solver proves winnable within its node
budget (a ruleset without a solver takes k = 0). The selection is deterministic (a node
budget, never a time budget), so every server with the secret picks the same deal; it is kept
in the store so that the solver runs once per day and ruleset. Without the secret nobody can
know a future day's deal.

The difficulty comes from bot playouts on the deal: the game's `rating_playouts` (200; Risus
Royale's long games 100) of its greedy bot, each of its moves replaced by a random one a fifth
of the time (a playout's randomness from its own stream), and the share won mapped to 1-5
stars.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import date as Date
from typing import Any

from domain.bots import Policy, random_policy
from domain.capabilities import GameEntry
from domain.deal import DealRandom, seed_commitment
from domain.errors import DailyNotFound, InvalidRequest, Json
from domain.fast_paths import fast_paths
from domain.stored import DailyAttempt, DailyDeal, GameRecord, LeaderboardEntry

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only: not \d
FIRST_DAY = "2026-11-01"
"""The first day of daily challenges: no day before it has a deal (a deployment may set its
own; nothing is chosen or stored for a day outside first day .. today)."""
SOLVER_BUDGET = 20_000  # nodes per candidate: a first request of the day stays within seconds
MAX_CANDIDATES = 10  # past these, candidate 0 is taken, rated as it is (solver: unknown)
NOISE = 5  # one move in NOISE is a random one
STARS = ((0.5, 1), (0.25, 2), (0.1, 3), (0.02, 4))  # (bot win share at least, stars); else 5


def candidate_seed(secret: bytes, date: str, ruleset_id: str, k: int) -> str:
    """Candidate k of the day's deal of `ruleset_id`: 64 hex characters.

    >>> candidate_seed(b"secret", "2026-11-22", "royal-assassin", 0)[:16]
    'da9f809494c34e12'
    """
    message = f"daily:{date}:{ruleset_id}:{k}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def stars(wins: int, games: int) -> int:
    share = wins / games if games else 0.0
    return next((n for floor, n in STARS if share >= floor), 5)


def _noisy(greedy: Policy, rng: DealRandom) -> Policy:
    noise = random_policy(rng)

    def choose(ruleset: Any, state: Any, seat: int, legal: list[Json]) -> Json:
        return (
            noise(ruleset, state, seat, legal)
            if rng.uniform(NOISE) == 0
            else greedy(ruleset, state, seat, legal)
        )

    return choose


def bot_wins(game: GameEntry, seed: str, games: int | None = None) -> int:
    """How many of `games` (the game's `rating_playouts`) noisy greedy playouts of this deal
    win. Each plays on its own state, by the game's fast path (domain/fast_paths.py: in place,
    with no copy and no effects, if it opts in), the policy shown the state before each move."""
    ruleset = game.ruleset
    fast = fast_paths(ruleset)
    wins = 0
    for i in range(game.rating_playouts if games is None else games):
        rng = DealRandom(seed, f"rate-{i}")
        choose = _noisy(game.policies["greedy"](rng), rng)
        state = ruleset.start(seed)
        while not ruleset.is_over(state):
            seat = ruleset.to_move(state)[0]
            move = choose(ruleset, state, seat, ruleset.legal_moves(state, seat))
            state = fast.advance(state, seat, move)
        outcome = ruleset.outcome(state)
        wins += outcome is not None and outcome["result"] == "won"
    return wins


def select(game: GameEntry, secret: bytes, date: str) -> DailyDeal:
    """The day's deal of `game`, chosen and rated (what the store then keeps)."""
    chosen, verdict = 0, {"winnable": None, "complete": False, "nodes": 0}
    if game.solver is not None:
        for k in range(MAX_CANDIDATES):
            solution = game.solver(candidate_seed(secret, date, game.id, k), None, SOLVER_BUDGET)
            if solution.complete and solution.winnable:
                chosen = k
                verdict = {"winnable": True, "complete": True, "nodes": solution.nodes}
                break
    seed = candidate_seed(secret, date, game.id, chosen)
    wins = bot_wins(game, seed)
    return DailyDeal(
        date=date,
        ruleset=game.id,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        candidate=chosen,
        difficulty=stars(wins, game.rating_playouts),
        bot_wins=wins,
        bot_games=game.rating_playouts,
        solver=verdict,
    )


def check_date(date: str, today: str, first_day: str = FIRST_DAY) -> str:
    """A day of the service, as YYYY-MM-DD (UTC); `today` stands for the current one.

    Only a real calendar date from `first_day` to `today` has a challenge: anything else is
    refused before any deal is chosen or stored, so no string can cost a selection.

    >>> check_date("2026-11-22", "2026-11-24")
    '2026-11-22'
    >>> check_date("2026-02-30", "2026-11-24")
    Traceback (most recent call last):
    ...
    domain.errors.InvalidRequest: 2026-02-30 is not a date: a date is YYYY-MM-DD (UTC) or `today`
    """
    if date == "today":
        return today
    if DATE.fullmatch(date) is None:
        raise InvalidRequest("date", "a date is YYYY-MM-DD (UTC) or `today`")
    try:
        Date.fromisoformat(date)
    except ValueError:
        raise InvalidRequest(
            "date", f"{date} is not a date: a date is YYYY-MM-DD (UTC) or `today`"
        ) from None
    if date > today:
        raise DailyNotFound(f"no daily challenge for {date} yet (today is {today}, UTC)")
    if date < first_day:
        raise DailyNotFound(f"no daily challenge for {date}: the first day was {first_day}")
    return date


def leaderboard_key(result: str, score: int, moves: int, finished_at: str, game_id: str) -> str:
    """Sorts best first: wins, then higher score, fewer moves, earlier finish.

    >>> leaderboard_key("won", 251, 30, "2026-11-22T10:00:00.000Z", "g1") < leaderboard_key(
    ...     "lost", 300, 10, "2026-11-22T09:00:00.000Z", "g2")
    True
    """
    won = 0 if result == "won" else 1
    inverted = 10**9 - max(0, min(score, 10**9 - 1))
    return f"{won}|{inverted:010d}|{min(moves, 999_999):06d}|{finished_at}|{game_id}"


def board_entry(
    daily: DailyAttempt, ruleset: str, game_id: str, outcome: Json, moves: int, at: str
) -> LeaderboardEntry:
    """A ranked attempt's place on its day's board, once its `moves`-th move ended it `at`."""
    result, score = outcome["result"], outcome["score"]
    key = leaderboard_key(result, score, moves, at, game_id)
    return LeaderboardEntry(
        daily.date, ruleset, key, game_id, daily.player_id, daily.name, result, score, moves, at
    )


def ranked_entry(record: GameRecord) -> LeaderboardEntry | None:
    """The board entry of a finished ranked attempt, from its record (None for a game that is
    not one, or not finished)."""
    if record.daily is None or record.finished_at is None or record.outcome is None:
        return None
    return board_entry(
        record.daily, record.ruleset, record.id, record.outcome, record.version, record.finished_at
    )


def tie_prefix(key: str) -> str:
    """What ranks in a board key: its result, score and moves (`won|inverted|moves|`). Entries
    equal in it are tied and share a rank (1, 2, 2, 4); the finish time only orders them, so
    that a rank is counted from the entries strictly better, never from the tied ones before.

    >>> tie_prefix("0|0000999749|000030|2026-11-22T10:00:00.000Z|g1")
    '0|0000999749|000030|'
    """
    fields = key.split("|", 3)
    return "|".join(fields[:3]) + "|" if len(fields) == 4 else key  # a cursor's may be forged
