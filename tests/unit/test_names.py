"""Player names (domain/daily.py `display_name`): a suffix too long to match by trial, and no
name that renders blank. Stored names made under older rules still show as they were."""

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.daily import NAME_LENGTH, display_name
from domain.deal import seed_commitment
from domain.errors import InvalidRequest
from domain.service import GameService, token_digest
from domain.stored import DailyDeal, PlayerRecord
from tests.api_helpers import counting_secrets, fixed_clock
from tests.fakes import InMemoryStore

SUFFIX = re.compile(r"#[0-9a-f]{8}")

BLANK = [
    "\u3164",  # HANGUL FILLER
    "\u115f",  # HANGUL CHOSEONG FILLER
    "\u1160",  # HANGUL JUNGSEONG FILLER
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u2800" * 24,  # BRAILLE PATTERN BLANK
    "\U0001d159",  # MUSICAL SYMBOL NULL NOTEHEAD
    "\u3164\u115f\u1160\uffa0\u2800",
    "\u0301",  # COMBINING ACUTE ACCENT: marks only
    "\u0301\u0308\u20dd\ufe0f",
    "\u034f\u17b4\u17b5",  # COMBINING GRAPHEME JOINER, KHMER VOWEL INHERENT AQ/AA
    "\u3164 \u3164",
    "\u00a0",  # NO-BREAK SPACE
    "\u3000\u2003\u2007\u202f\u205f\u1680",  # spaces of every width
    " \t ",
]
INVISIBLE_OR_CONTROL = [
    "a\u200bb",  # ZERO WIDTH SPACE
    "a\u200db",  # ZERO WIDTH JOINER
    "a\u2060b",  # WORD JOINER
    "a\ufeffb",  # ZERO WIDTH NO-BREAK SPACE
    "a\u180eb",  # MONGOLIAN VOWEL SEPARATOR
    "a\u00adb",  # SOFT HYPHEN
    "a\u202eb",  # RIGHT-TO-LEFT OVERRIDE
    "a\U000e0020b",  # TAG SPACE
    "a\u0007b",  # BELL
    "a\u2028b",  # LINE SEPARATOR
    "a\u00a0b",  # NO-BREAK SPACE inside
    "a\ue000b",  # private use
]
SHOWN = ["Anne", "Königin ♛", "é", "e\u0301", "\u3164Anne", "Anne\u2800", "7", "!", "ㅎ", "李"]


@pytest.mark.parametrize("name", BLANK)
def test_names_that_render_blank_are_refused(name):
    with pytest.raises(InvalidRequest) as e:
        display_name(name, "p1")
    assert e.value.field == "name"


@pytest.mark.parametrize("name", INVISIBLE_OR_CONTROL)
def test_control_and_format_characters_are_still_refused(name):
    with pytest.raises(InvalidRequest):
        display_name(name, "p1")


@pytest.mark.parametrize("name", SHOWN)
def test_a_visible_character_is_enough(name):
    shown = display_name(f" {name} ", "p1")
    assert shown[:-9] == name and SUFFIX.fullmatch(shown[-9:])


def test_the_suffix_is_32_bits_of_the_player_id():
    names = {display_name("Alice", f"player{i}") for i in range(2000)}
    assert len(names) == 2000  # 16 bits would already collide here about 3 times in 100
    assert all(SUFFIX.fullmatch(n[len("Alice") :]) for n in names)
    assert display_name("Alice", "p1") == display_name("Alice", "p1")


@given(st.text(max_size=NAME_LENGTH + 4))
def test_a_name_is_accepted_exactly_when_something_in_it_is_seen(name):
    trimmed = name.strip()
    ok = (
        1 <= len(trimmed) <= NAME_LENGTH
        and "#" not in trimmed
        and all(unicodedata.category(c)[0] in "LMNPS" or c == " " for c in trimmed)
        and any(
            unicodedata.category(c)[0] in "LNPS" and c not in "\u115f\u1160\u3164\uffa0\u2800"
            and c != "\U0001d159" for c in trimmed
        )
    )  # fmt: skip
    try:
        shown = display_name(name, "p1")
    except InvalidRequest:
        assert not ok
    else:
        assert ok and shown == f"{trimmed}#" + shown[-8:] and SUFFIX.fullmatch(shown[-9:])


@given(st.text(st.sampled_from("\u3164\u115f\u1160\uffa0\u2800 \u3000\u0301\u20dd"), max_size=24))
def test_fillers_marks_and_spaces_alone_never_pass(name):
    with pytest.raises(InvalidRequest):
        display_name(name, "p1")


def test_a_stored_name_of_the_old_rules_still_loads_and_shows():
    store = InMemoryStore()
    service = GameService(store, fixed_clock, counting_secrets(), b"test-daily-secret")
    store.create_player(PlayerRecord("p1", "Anne#1a2b", token_digest("s"), fixed_clock()))
    seed = "royal"  # a kept deal: no solver run needed for this test
    store.save_daily(DailyDeal("2026-11-22", "royal-assassin", seed, seed_commitment(seed), 0, 1,
                               100, 200, {"winnable": None}))  # fmt: skip
    snap = service.start_daily("today", "royal-assassin", "p1.s")
    assert snap.game["daily"]["name"] == "Anne#1a2b"
    board = service.leaderboard("today", "royal-assassin", 10, None, "p1.s")
    assert board["you"]["name"] == "Anne#1a2b"
