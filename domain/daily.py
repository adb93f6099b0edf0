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

import functools
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
TAG_LOOKALIKES = frozenset("\u266f\u2317\u22d5\u2a68\u2a69\u29fb\u2af5")
"""Symbols that pass for `#`, the mark before the suffix, and that NFKC leaves as they are
(it turns the fullwidth U+FF03 and the small U+FE5F into `#`), which TR39's confusables do not
list: the music sharp ♯, the viewdata square ⌗, equal-and-parallel ⋕, the triple bars with
strokes ⩨ ⩩ ⫵ and the triple plus ⧻. Letters that look like `#` (the CJK 井, the Tifinagh
ⵌ) stay: they write names; what would pass for a tag is refused whatever mark comes before
it (`reads_as_a_tag`)."""
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point ranges: drawn as nothing, so inside a name they tell
two names that look the same apart (the grapheme joiner U+034F, the variation selectors, the
Khmer inherent vowels U+17B4-5, the Mongolian selectors U+180B-F). Refused anywhere."""
OVERLAY = 1
"""The canonical combining class of the marks drawn through a character (a stroke, a slash,
the double vertical stroke U+20E6 that makes `=` pass for `#`): refused."""
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
    Refused: control, format, unassigned and default-ignorable characters, spaces other than
    the ASCII one, `#` and its look-alikes (the suffix's mark), overlay marks, anything that
    reads as a tag (`reads_as_a_tag`), more than NAME_MARKS combining marks on one character,
    more than NAME_WIDTH columns, and a name with nothing visible (fillers, combining marks and
    spaces only). A stored name is never checked again: names made under older rules
    (4-character suffixes) show as they were."""
    if not isinstance(name, str):
        raise InvalidRequest("name", "a name is a string")
    trimmed = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(trimmed) <= NAME_LENGTH:
        raise InvalidRequest("name", f"a name is 1 to {NAME_LENGTH} characters")
    if not trimmed.isprintable() or any(ignorable(c) for c in trimmed):
        raise InvalidRequest("name", "a name has no control or invisible characters")
    if not any(visible(c) for c in trimmed):
        raise InvalidRequest("name", "a name needs a visible letter, digit or symbol")
    if "#" in trimmed or TAG_LOOKALIKES & set(trimmed):
        # else `Alice#1a2b3c4d` would begin exactly as another's shown name
        raise InvalidRequest(
            "name", "a name has no `#` or look-alike: the server adds `#` and a suffix"
        )
    decomposed = unicodedata.normalize("NFD", trimmed)
    if any(unicodedata.combining(c) == OVERLAY for c in decomposed):
        raise InvalidRequest("name", "a name has no marks drawn through its characters")
    if reads_as_a_tag(decomposed):
        raise InvalidRequest(
            "name", f"a name has no run of {SUFFIX_HEX} hex digits or look-alikes: "
            "it would read as another player's tag"
        )  # fmt: skip
    if stacked_marks(decomposed) > NAME_MARKS:
        raise InvalidRequest("name", f"a character of a name carries at most {NAME_MARKS} marks")
    if columns(trimmed) > NAME_WIDTH:
        raise InvalidRequest(
            "name", f"a name is at most {NAME_WIDTH} columns wide (a wide character takes 2)"
        )
    return f"{trimmed}#{hashlib.sha256(player_id.encode()).hexdigest()[:SUFFIX_HEX]}"


def is_mark(char: str) -> bool:
    """Whether `char` is a combining mark (Unicode category M: nonspacing, spacing or
    enclosing), drawn on the character before it, whatever its combining class (the Thai
    U+0E31 is of class 0 and stacks like any other)."""
    return unicodedata.category(char)[0] == "M"


def ignorable(char: str) -> bool:
    """Whether `char` is default-ignorable (drawn as nothing: DEFAULT_IGNORABLE)."""
    code = ord(char)
    return any(first <= code <= last for first, last in DEFAULT_IGNORABLE)


def stacked_marks(text: str) -> int:
    """The most combining marks in a row: those drawn on one character.

    >>> stacked_marks("e\u0301"), stacked_marks("Z\u0351\u0352\u0353\u0354a")
    (1, 4)
    >>> stacked_marks("\u0e01" + "\u0e31" * 5)  # Thai MAI HAN-AKAT, of combining class 0
    5
    """
    most = run = 0
    for char in text:
        run = run + 1 if is_mark(char) else 0
        most = max(most, run)
    return most


TAG_LIKE = frozenset("0123456789abcdefABCDEFoOlI|")
"""What passes for a character of a tag: the hex digits, and the letters a 0 or a 1 is read
as (and a tag holds a 0 or a 1 two times in three)."""


def reads_as_a_tag(text: str) -> bool:
    """Whether `text` holds SUFFIX_HEX characters in a row that pass for a tag's: TAG_LIKE,
    any script's decimal digits, or letters and digits that Unicode TR39's confusables
    (confusable_homoglyphs) map to one of TAG_LIKE, as the Cyrillic a (U+0430) or komi de
    (U+0501); marks and characters drawn as nothing inside the run do not break it. Whatever
    comes before such a run, a `#` look-alike of any script (`Anne井1a2b3c4d`), it would
    pass for a tag.

    >>> reads_as_a_tag("Anne\u4e951a2b3c4d"), reads_as_a_tag("1a2b3c4\u0501")
    (True, True)
    >>> reads_as_a_tag("d63belcc"), reads_as_a_tag("\u0b66a\u07c0b\U0001d1593c4d")
    (True, True)
    >>> reads_as_a_tag("Decade"), reads_as_a_tag("2026 Bee")
    (False, False)
    """
    run = 0
    for char in text:
        if is_mark(char) or char in BLANK_FILLERS or ignorable(char):
            continue
        run = run + 1 if char in TAG_LIKE or _tag_look_alike(char) else 0
        if run >= SUFFIX_HEX:
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _tag_look_alike(char: str) -> bool:
    category = unicodedata.category(char)
    if char.isascii() or category[0] not in "LN":
        return False
    if category == "Nd":  # a digit of any script reads as one
        return True
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    found = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin", "common"])
    return any(glyph["c"] in TAG_LIKE for entry in found or () for glyph in entry["homoglyphs"])


EXTRA_WIDE = (
    (0x2E3A, 0x2E3B), (0xA9C1, 0xA9C2), (0xFDF0, 0xFDFF), (0x12000, 0x1254F),
    (0x13000, 0x1345F), (0x14400, 0x1467F), (0x16800, 0x16A3F), (0x1D800, 0x1DAAF),
)  # fmt: skip
"""Glyphs drawn several times as wide as a letter, counted 4 columns: the two- and three-em
dashes, the Javanese rerenggan ornaments, the Arabic ligatures of whole words (U+FDFD, the
basmala, is a phrase in one glyph, and NFKC keeps it), cuneiform, Egyptian and Anatolian
hieroglyphs, the Bamum supplement and SignWriting."""


def columns(text: str) -> int:
    """The columns `text` takes: two for a wide character, four for an extra-wide glyph,
    none for a combining mark, one for any other.

    >>> columns("Anne"), columns("李白"), columns("e\u0301"), columns("\ufdfd")
    (4, 4, 1, 4)
    """
    return sum(_columns(c) for c in text)


def _columns(char: str) -> int:
    if unicodedata.category(char) in ("Mn", "Me"):  # drawn on the character before it
        return 0
    code = ord(char)
    if any(first <= code <= last for first, last in EXTRA_WIDE):
        return 4
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1
