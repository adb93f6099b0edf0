"""A player's daily statistics (docs/accounts.md): per ruleset, the ranked attempts played,
won and lost, the best score, the current and the best streak of days, and the badges the
streaks earn, as a solitaire collection's daily challenges keep them.

A day counts towards a streak when the player finished its ranked attempt that day (won or
lost: the daily is one attempt, so finishing it is what a day asks). The current streak is
the run of such days ending today, or yesterday while today's is not finished yet: a day
ends a streak only once it is over. Pure: the attempts come from the store, the day from
the court's clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from domain.errors import Json
from domain.stored import Attempt

STREAK_BADGES = (3, 7, 30, 100, 365)
"""Days in a row that earn a badge (`streak-7`: a week of one ruleset's dailies)."""
WINDOW_DAYS = 366
"""How far back the statistics reach: a year of days (and today), one page of the player's
partition on DynamoDB, whatever the player's age."""


def since(today: str) -> str:
    """The first day the statistics count.

    >>> since("2026-11-28")
    '2025-11-28'
    """
    return (date.fromisoformat(today) - timedelta(days=WINDOW_DAYS - 1)).isoformat()


def daily_statistics(
    rulesets: Iterable[str], attempts: Iterable[tuple[str, str, Attempt]], today: str
) -> list[Json]:
    """One row per ruleset of `rulesets`, in their order, from the player's attempts.

    >>> from domain.stored import LeaderboardEntry
    >>> def won(day, score):
    ...     entry = LeaderboardEntry(day, "ra", "k", "g", "p", "n", "won", score, 9, day)
    ...     return (day, "ra", Attempt("g" + day, entry))
    >>> rows = daily_statistics(["ra"], [won("2026-11-26", 3), won("2026-11-27", 5)],
    ...                         "2026-11-28")
    >>> rows[0]["played"], rows[0]["won"], rows[0]["best_score"], rows[0]["current_streak"]
    (2, 2, 5, 2)
    """
    mine = list(attempts)
    rows = []
    for ruleset in rulesets:
        of_it = [a for d, r, a in mine if r == ruleset]
        finished = [a.entry for a in of_it if a.entry is not None]
        days = {d for d, r, a in mine if r == ruleset and a.entry is not None}
        current, best = _streaks(days, today)
        rows.append({
            "ruleset": ruleset,
            "played": len(of_it),
            "won": sum(1 for e in finished if e.result == "won"),
            "lost": sum(1 for e in finished if e.result != "won"),
            "best_score": max((e.score for e in finished), default=None),
            "current_streak": current,
            "best_streak": best,
            "badges": [f"streak-{n}" for n in STREAK_BADGES if best >= n],
        })  # fmt: skip
    return rows


def _streaks(days: set[str], today: str) -> tuple[int, int]:
    """(current, best) runs of consecutive days in `days`.

    >>> _streaks({"2026-11-25", "2026-11-26", "2026-11-27"}, "2026-11-28")
    (3, 3)
    >>> _streaks({"2026-11-20", "2026-11-21", "2026-11-28"}, "2026-11-28")
    (1, 2)
    >>> _streaks({"2026-11-25"}, "2026-11-28")
    (0, 1)
    """
    ordinals = sorted(date.fromisoformat(d).toordinal() for d in days)
    best, run, previous = 0, 0, None
    for day in ordinals:
        run = run + 1 if previous == day - 1 else 1
        best, previous = max(best, run), day
    last = date.fromisoformat(today).toordinal()
    current = run if previous is not None and previous >= last - 1 else 0
    return current, best
