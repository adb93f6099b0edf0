"""What a person reads on the game's page, and the checks that it is the game's own words: no
field name, no seat counted from 0, no "[object Object]", no pair of numbers read as a row and
a column where there is no map. Shared by the browser tests that play games to their end
(tests/e2e/test_web_client.py) and those of the page's words (tests/e2e/test_web_words.py)."""

import re

from domain.registry import GAMES
from tests.e2e.test_e2e import call

VERDICTS = {"won": "You won.", "lost": "You lost.", "draw": "Draw."}
RAW = [
    (re.compile(r"\[object \w+\]"), "an object dumped"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a field name"),
    (re.compile(r"\b(seat|mover|leader|winner|owner|by) [0-9]\b", re.I), "a seat by number"),
    (re.compile(r"\b(undefined|null|NaN)\b"), "a missing value"),
    (re.compile(r"[{}]|\[[^\]]*\|"), "a template left unsaid"),
]
PLACE = re.compile(r"row \d+, column \d+")


def raw_words(text, game_id):
    """What in `text` is not the game's words: raw fields, numbers for seats, dumps; a pair
    of numbers read as a place only where the game has a map (its piles' places)."""
    found = [f"{why}: {m.group()!r}" for pattern, why in RAW for m in pattern.finditer(text)]
    for m in PLACE.finditer(text):
        if GAMES[game_id].ruleset.board != "map" or not text[: m.start()].endswith("pile at "):
            found.append(f"a place where there is none: {m.group()!r}")
    return found


def said(page):
    """The page's own words: the status, the announcement, the panels, the moves, the end."""
    parts = page.locator(
        "#game-status, #seats, #announce, .words-panels, #effects, #outcome, #outcome-reason, "
        "#outcome-score"
    ).all_inner_texts()
    return "\n".join(parts)


def listed(page):
    """The move list: (seq, the move's sentence, its effects' sentences)."""
    return page.locator("#effects > li").evaluate_all("""ns => ns.map(n => [
        Number(n.dataset.seq),
        n.querySelector('.event-move').textContent,
        [...n.querySelectorAll('.event-effects li')].map(x => x.textContent)])""")


def verdict_expected(body, seat):
    """What the ending must say to `seat`, from the API's outcome."""
    outcome, ruleset = body["view"]["outcome"] or body["game"]["outcome"], body["game"]["ruleset"]
    ending = GAMES[ruleset].ruleset.words.ending
    if ending.winner is not None and isinstance(outcome.get(ending.winner), int):
        return "won" if outcome[ending.winner] == seat else "lost"
    return ending.results[outcome[ending.result]]


def the_whole_list(page, version):
    """The move list once it holds every move up to `version` with what they set off (after a
    reload, the newest moves' effects are read after the log)."""
    page.locator(f"#effects > li[data-seq='{version}']").wait_for()
    for _ in range(100):
        moves = listed(page)
        if sum(len(effects) for _, _, effects in moves) > 0:
            break
        page.wait_for_timeout(100)
    assert [seq for seq, _, _ in moves] == list(range(1, version + 1))
    return moves


def check_the_end_is_said(page, base, game_id, token, seat=0):
    """A finished game read from `seat`'s page: every move in the list, in order, each a
    sentence in the game's words with what it set off; the ending from this side ("You won",
    "You lost", "Draw") with its reason in the game's terms. Returns the list."""
    page.locator("#outcome").wait_for()
    _, _, body = call(base, "GET", f"/v1/games/{game_id}", token=token)
    ruleset = body["game"]["ruleset"]
    moves = the_whole_list(page, body["game"]["version"])
    assert all(sentence.endswith(".") and len(sentence) > 5 for _, sentence, _ in moves)
    assert any(sentence.startswith("You ") for _, sentence, _ in moves), moves[:5]
    assert sum(len(effects) for _, _, effects in moves) > 0  # what the moves set off, too
    text = said(page)
    assert raw_words(text, ruleset) == [], raw_words(text, ruleset)[:5]
    verdict = verdict_expected(body, seat)
    assert page.locator("#outcome").inner_text() == VERDICTS[verdict]
    assert page.locator("#outcome").get_attribute("data-verdict") == verdict
    status = page.locator("#game-status").inner_text()
    assert status.startswith(f"Game over: {VERDICTS[verdict][:-1]}"), status
    assert page.locator("#outcome-reason").inner_text().endswith(".")
    assert "play seat" not in page.locator("main").inner_text()
    return moves
