"""Players' names as the daily boards show them: checked so that every name reads as what it
is — one person's chosen name and its tag — and no name passes for another's.

A name is NFKC-normalised, limited in length and width, free of invisible and stacked
characters, and never reads as a tag (`#` and eight hex characters) of its own: the server adds
the real one (`display_name`), so that two players who chose the same name still differ.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from domain.errors import InvalidRequest

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
