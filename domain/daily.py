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
import unicodedata
from datetime import date as Date
from typing import Any

from domain.bots import Policy, random_policy
from domain.capabilities import GameEntry
from domain.deal import DealRandom, seed_commitment
from domain.errors import DailyNotFound, InvalidRequest, Json
from domain.fast_paths import fast_paths
from domain.stored import DailyDeal

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only: not \d
FIRST_DAY = "2026-11-01"
"""The first day of daily challenges: no day before it has a deal (a deployment may set its
own; nothing is chosen or stored for a day outside first day .. today)."""
SOLVER_BUDGET = 20_000  # nodes per candidate: a first request of the day stays within seconds
MAX_CANDIDATES = 10  # past these, candidate 0 is taken, rated as it is (solver: unknown)
NOISE = 5  # one move in NOISE is a random one
STARS = ((0.5, 1), (0.25, 2), (0.1, 3), (0.02, 4))  # (bot win share at least, stars); else 5
NAME_LENGTH = 24
SUFFIX_HEX = 8  # 32 bits: a chosen name and suffix takes ~2^32 new players to match by trial
NAME_WIDTH = 32
"""Columns a name may take: a wide character (East Asian Wide or Fullwidth) takes two, a
combining mark none; so 24 Latin letters fit, or 16 Chinese characters."""
NAME_MARKS = 3
"""Combining marks one character may carry: enough for any script's writing (Vietnamese and
Devanagari take at most two), not for marks stacked into the lines above and below."""
TAG_LOOKALIKES = frozenset("\u266f\u2317\u22d5")
"""Characters that pass for `#`, the mark before the suffix, and that NFKC leaves as they are
(it turns the fullwidth U+FF03 and the small U+FE5F into `#`): the music sharp ♯, the
viewdata square ⌗ and equal-and-parallel ⋕."""
BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")
"""Letters and symbols that render as nothing: the Hangul fillers, BRAILLE PATTERN BLANK and
MUSICAL SYMBOL NULL NOTEHEAD. (Spaces, format and control characters are refused anyway.)"""


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


def visible(char: str) -> bool:
    """Whether one character draws something by itself: a letter, number, punctuation or
    symbol, and not one of the fillers that render blank (marks only decorate another).

    >>> [visible(c) for c in "A7!♛"], [visible(c) for c in "\u3164\u2800\u0301 "]
    ([True, True, True, True], [False, False, False, False])
    """
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_FILLERS


def display_name(name: object, player_id: str) -> str:
    """The name as shown: NFKC-normalised and trimmed, checked, with a suffix of 8 hex
    characters (32 bits) so that duplicates differ and nobody can pass for another player by
    trying new ones.

    Normalised first, so that every check sees what is shown: compatibility forms become
    their plain letters (a fullwidth letter, the ligature U+FB01 `fi`), and one glyph that
    stands for a phrase (U+FDFD) becomes the phrase, held to the length like any other.
    Refused: control, format and unassigned characters, spaces other than the ASCII one, `#`
    and its look-alikes (the suffix's mark), more than NAME_MARKS combining marks on one
    character, more than NAME_WIDTH columns, and a name with nothing visible (fillers,
    combining marks and spaces only). A stored name is never checked again: names made under
    older rules (4-character suffixes) show as they were."""
    if not isinstance(name, str):
        raise InvalidRequest("name", "a name is a string")
    trimmed = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(trimmed) <= NAME_LENGTH:
        raise InvalidRequest("name", f"a name is 1 to {NAME_LENGTH} characters")
    if not trimmed.isprintable():
        raise InvalidRequest("name", "a name has no control or invisible characters")
    if not any(visible(c) for c in trimmed):
        raise InvalidRequest("name", "a name needs a visible letter, digit or symbol")
    if "#" in trimmed or TAG_LOOKALIKES & set(trimmed):
        # else `Alice#1a2b3c4d` would begin exactly as another's shown name
        raise InvalidRequest(
            "name", "a name has no `#` or look-alike: the server adds `#` and a suffix"
        )
    if stacked_marks(unicodedata.normalize("NFD", trimmed)) > NAME_MARKS:
        raise InvalidRequest("name", f"a character of a name carries at most {NAME_MARKS} marks")
    if columns(trimmed) > NAME_WIDTH:
        raise InvalidRequest(
            "name", f"a name is at most {NAME_WIDTH} columns wide (a wide character takes 2)"
        )
    return f"{trimmed}#{hashlib.sha256(player_id.encode()).hexdigest()[:SUFFIX_HEX]}"


def stacked_marks(text: str) -> int:
    """The most combining marks in a row: those drawn on one character.

    >>> stacked_marks("e\u0301"), stacked_marks("Z\u0351\u0352\u0353\u0354a")
    (1, 4)
    """
    most = run = 0
    for char in text:
        run = run + 1 if unicodedata.combining(char) or unicodedata.category(char) == "Me" else 0
        most = max(most, run)
    return most


EXTRA_WIDE = ((0xFDF0, 0xFDFF), (0x12000, 0x1254F), (0x13000, 0x1345F))
"""Glyphs drawn several times as wide as a letter, counted 4 columns: the Arabic ligatures of
whole words (U+FDFD, the basmala, is a phrase in one glyph, and NFKC keeps it), cuneiform and
Egyptian hieroglyphs."""


def columns(text: str) -> int:
    """The columns `text` takes: two for a wide character, four for an extra-wide glyph,
    none for a combining mark, one for any other.

    >>> columns("Anne"), columns("李白"), columns("e\u0301"), columns("\ufdfd")
    (4, 4, 1, 4)
    """
    return sum(_columns(c) for c in text)


def _columns(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    code = ord(char)
    if any(first <= code <= last for first, last in EXTRA_WIDE):
        return 4
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1
