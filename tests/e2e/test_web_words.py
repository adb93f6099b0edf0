"""The web client's words, in a real browser (Debian's Chromium via Playwright) against a real
`court serve`, beyond the games played to their end (tests/e2e/test_web_client.py reads each of
those in its own words, tests/e2e/words.py): the other seat's move announced and lit, a hidden
page called back with a chime and a notification, resign asked twice, the daily's one ranked
attempt asked for before it is dealt, said on the game's page, its leaderboard at 375 px and a
share link that works; the list read again after a reload; options and counters in words.
Screenshots at 375 and 1280 px go to build/screenshots/ (words-*.png).
"""

import json
import random
import re
import time

import pytest

from domain.usecases.daily import DEAL_FRESH_SECONDS
from tests.e2e import test_web_client as web
from tests.e2e.test_e2e import call
from tests.e2e.test_web_client import (
    FIRST_DAILY_MS,
    MAX_CLICKS,
    deal,
    game_id_of,
    new_page,
    seat_token,
    shoot,
    shown,
)
from tests.e2e.words import listed, raw_words

# The web client's fixtures, for a server of this module's own: a real `court serve` on a fresh
# store (`live`, `base`) and the watcher that fails a test on any console error.
live = web.live
base = web.base
console = web.console

pytestmark = pytest.mark.browser

OFFERED_JS = """() => [document.querySelector('[data-status]').dataset.version,
    [...document.querySelectorAll('[data-move]')].map(n => n.dataset.move)]"""
CLICKED_JS = """([index, version]) => new Promise((done, fail) => {
    document.querySelectorAll('[data-move]')[index].click();
    const moved = () => document.querySelector(`[data-status]:not([data-version='${version}'])`);
    if (moved()) return done(true);
    const watch = new MutationObserver(() => { if (moved()) { watch.disconnect(); done(true); } });
    watch.observe(document, { subtree: true, childList: true, attributes: true });
    setTimeout(() => { watch.disconnect(); fail(new Error('no next version in 30 s')); }, 30000);
})"""
"""The moves offered and the version shown, then a click and the wait for the next version,
each one round trip to the page: a long game is hundreds of them."""


def click_move(page, rng, seat_moves=None):
    """A random legal move (not resign), clicked through its control as the page offers it
    (the list for keyboards: `data-move`), then the page's next version waited for."""
    page.locator("[data-status]").wait_for()
    version, offered = page.evaluate(OFFERED_JS)
    moves = [json.loads(m) for m in offered]
    real = [i for i, m in enumerate(moves) if m["type"] not in ("resign", "undo")]
    if not real:
        return None
    index = rng.choice(real)
    page.evaluate(CLICKED_JS, [index, version])
    return moves[index]


def test_the_checks_find_raw_words():
    """The checks of the words (tests/e2e/words.py) fail on what the issue saw: not blind."""
    seen = "result win, winner 1, reason wipe, score row 1, column 109 [object Object] leader 0"
    assert len(raw_words(seen, "royal-assassin-duel")) >= 4
    assert raw_words("You step onto the pile at row 2, column 3.", "risus-royale") == []
    assert raw_words("You step onto the pile at row 2, column 3.", "adaman") != []
    assert raw_words("You won. Opponent attacks your ♣ clubs column with 7♥.", "adaman") == []


def join_two(browser, console, base, game_id, motion="reduce"):
    """Alice deals with a person in seat 2; Bob, on a phone (preferring `motion`), opens
    her invite link."""
    alice = new_page(browser, console)
    deal(alice, base, game_id, {1: "human"})
    assert "not joined yet" in alice.locator("#seats").inner_text()
    link = alice.locator(".invite-link").input_value()
    bob = new_page(browser, console, width=375, motion=motion)
    bob.goto(link)
    bob.locator("[data-status]").wait_for()
    # The host's page learns that seat 2 joined, without a move.
    alice.locator("#announce", has_text="Opponent joined the game.").wait_for()
    assert "not joined yet" not in alice.locator("#seats").inner_text()
    return alice, bob


def test_a_move_of_the_other_seat_is_announced_and_lit(browser, base, console):
    """The waiting page says the other seat's move once, in its live region, and lights the
    cards it named on the board."""
    # The waiter's page animates, as most players' do: the move arrives and its cards glow.
    alice, bob = join_two(browser, console, base, "royal-assassin-duel", "no-preference")
    mover, waiter = alice, bob  # the first seat leads the first round
    assert click_move(mover, random.Random(3)) is not None
    version = shown(mover)[1]
    waiter.locator(f"#effects > li[data-seq='{version}']").wait_for()
    announced = waiter.locator("#announce").inner_text()
    sentence = waiter.locator(f"#effects > li[data-seq='{version}'] .event-move").inner_text()
    assert announced.startswith(sentence[:-1]), (announced, sentence)
    assert waiter.locator("#announce").get_attribute("aria-live") == "polite"
    # The cards the move and its effects name, as the waiter's own replay step has them: when
    # the waiter's board shows any (not all gone face down into a reserve), some are lit.
    gid = web.game_id_of(waiter)
    token = web.seat_token(waiter, gid)
    _, _, step = call(base, "GET", f"/v1/games/{gid}/replay?at={version}", token=token)
    said = json.dumps([step["move"], step["effects"]])
    named = set(re.findall(r'"((?:[2-9TJQKA][CDHS]|X[12])[0-9]?)"', said))
    board = waiter.locator(".board .card[data-card]")
    on_board = set(board.evaluate_all("nodes => nodes.map(n => n.dataset.card)"))
    lit = waiter.locator(".board .card.recent[data-card]")
    if named & on_board:
        assert set(lit.evaluate_all("nodes => nodes.map(n => n.dataset.card)")) & named


# A browser where notifications are allowed and the page can be told it is hidden, with the
# notifications shown and the tones played counted (the page's own code runs unchanged).
CALLBACKS_JS = """
window.__notes = []; window.__tones = 0; window.__hidden = false;
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
  static get permission() { return 'granted'; }
  static requestPermission() { return Promise.resolve('granted'); }
};
Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden });
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return { frequency: {}, connect: (g) => g, start: () => { window.__tones += 1; }, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d };
  }
};
"""


def test_a_hidden_page_is_called_back(browser, base, console):
    """Off by default; once the player turns them on, its turn comes with a chime and, while
    the page is hidden, a notification."""
    alice, bob = join_two(browser, console, base, "royal-assassin-duel")
    bob.add_init_script(CALLBACKS_JS)
    bob.reload()
    bob.locator("#sound-toggle").wait_for()
    assert bob.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    bob.locator("#sound-toggle").click()
    bob.locator("#sound-toggle[aria-pressed='true']").wait_for()
    bob.locator("#notify-toggle").click()
    bob.locator("#notify-toggle[aria-pressed='true']").wait_for()
    tones = bob.evaluate("window.__tones")  # the sample played when the sound was turned on
    assert tones > 0 and bob.evaluate("window.__notes") == []
    bob.evaluate("window.__hidden = true")
    rng = random.Random(4)
    while "Your turn" not in bob.locator("#game-status").inner_text():
        assert click_move(alice, rng) is not None
        bob.locator(f"[data-status][data-version='{shown(alice)[1]}']").wait_for()
    # A function, not an expression: Playwright polls an expression with eval, which the
    # page's Content-Security-Policy refuses (seen once the notification came late).
    bob.wait_for_function("() => window.__notes.length > 0")
    title, body = bob.evaluate("window.__notes[0]")
    assert title == "Your turn · Royal Assassin Duel"
    assert body.startswith("Opponent "), body
    assert bob.evaluate("window.__tones") > tones
    assert bob.title().startswith("▶ Your turn")


def test_resign_is_asked_twice(browser, base, console):
    page = new_page(browser, console)
    deal(page, base, "royal-assassin")
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="No, play on").click()
    assert shown(page)[0] == "playing"
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator("#outcome").wait_for()
    assert page.locator("#outcome").inner_text() == "You lost."
    assert "You resign." in page.locator("#effects").inner_text()


def test_the_daily_asks_says_and_shares(browser, base, console, screenshots):
    page = new_page(browser, console, width=375)
    page.goto(base + "/daily")
    # The day's first daily request chooses its deals (a solver, bot playouts: seconds of a
    # core, a minute when the machine's cores are taken by other tests).
    page.get_by_label("Your name on the leaderboards").fill("Phone Player", timeout=FIRST_DAILY_MS)
    page.get_by_role("button", name="Save").click()
    section = page.locator("[data-daily-ruleset='royal-assassin']")
    section.locator("[data-daily]").click()
    # A step before the one ranked attempt is dealt: saying no deals nothing.
    ask = section.locator(".daily-confirm")
    assert "This is your one ranked attempt" in ask.inner_text()
    shoot(page, screenshots, "words-daily-confirm")
    section.get_by_role("button", name="Not now").click()
    assert ask.is_hidden()
    token = json.loads(page.evaluate("localStorage.getItem('royal-court:player')"))["token"]
    _, _, today = call(base, "GET", "/v1/daily/today")
    _, _, board = call(base, "GET", f"/v1/daily/{today['date']}/royal-assassin/leaderboard",
                       token=token)  # fmt: skip
    assert board["you"]["played"] is False
    section.locator("[data-daily]").click()
    section.locator("[data-daily-confirm='royal-assassin']").click()
    page.locator("[data-status]").wait_for()
    # The game's page says it is the daily.
    assert "Daily challenge of" in page.locator("#daily-tag").inner_text()
    assert "your one ranked attempt" in page.locator("#daily-tag").inner_text()
    gid = game_id_of(page)
    rng = random.Random(8)
    for _ in range(MAX_CLICKS):
        if shown(page)[0] != "playing":
            break
        click_move(page, rng)
    page.locator("#outcome").wait_for()
    # What the finished attempt still hides (the day's deal is everyone's until it closes) is
    # said plainly, with when it shows.
    hidden = page.locator("#daily-hidden").inner_text()
    assert "stays hidden until the day's challenge closes at 00:00 UTC" in hidden, hidden
    assert "come back then" in hidden
    shoot(page, screenshots, "words-daily-hidden")
    # Its share link works for anyone: the day's challenge; the game's page, private until
    # the day is over, says so to a visitor rather than failing.
    link = page.locator("#share-link").input_value()
    assert link == f"{base}/daily"
    noticed = web.Console()  # the friend's browser reports the 403 itself, and only that
    friend = new_page(browser, noticed)
    friend.goto(link)
    friend.locator("[data-daily-ruleset='royal-assassin']").wait_for()
    friend.goto(f"{base}/play/{gid}")
    friend.get_by_role("heading", name="A ranked daily attempt").wait_for()
    assert friend.get_by_role("link", name="Play today's challenges yourself").is_visible()
    assert noticed.errors and all("403" in e for e in noticed.errors), noticed.errors
    # The leaderboard reads at 375 px: whole headers, "1 player". The count is as the worker
    # answering last read it, at most DEAL_FRESH_SECONDS ago (docs/daily.md): the page is read
    # again until it says the new player, and no longer.
    deadline = time.monotonic() + DEAL_FRESH_SECONDS + 5
    while True:
        page.goto(base + "/daily")
        table = page.locator("[data-daily-ruleset='royal-assassin'] table.leaderboard")
        table.wait_for()
        card = page.locator("[data-daily-ruleset='royal-assassin']").inner_text()
        if "1 player so far" in card or time.monotonic() > deadline:
            break
        page.wait_for_timeout(1000)
    assert "Phone Player" in table.inner_text()
    assert "1 player so far" in card, card
    lines = table.locator("th").evaluate_all("""ths => ths.map(th => {
        const r = document.createRange(); r.selectNodeContents(th);
        return [th.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size];
    })""")
    assert all(n == 1 for _, n in lines), lines  # no header broken over two lines
    assert [t for t, _ in lines] == ["Rank", "Player", "Result", "Score", "Moves"]
    # The name as the player typed it; the server's tag apart, whole, never split.
    assert page.get_by_label("Your name on the leaderboards").input_value() == "Phone Player"
    assert re.fullmatch(r"Shown as Phone Player #[0-9a-f]{8}: .*",
                        page.locator("#player-shown").inner_text())  # fmt: skip
    tag = table.locator(".player-tag").first
    assert re.fullmatch(r"#[0-9a-f]{8}", tag.inner_text())
    assert (
        tag.evaluate("""n => { const r = document.createRange(); r.selectNodeContents(n);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }""")
        == 1
    )
    shoot(page, screenshots, "words-daily-leaderboard")


def test_a_reload_keeps_what_each_move_set_off(browser, base, console, screenshots):
    """The list read again on a load (the log, then each newest step's effects) says every move
    as it did before, with its cards, kills and defences; the earlier moves on request."""
    page = new_page(browser, console)
    deal(page, base, "royal-assassin")
    rng = random.Random(11)
    while shown(page)[1] < 30 and shown(page)[0] == "playing":
        click_move(page, rng)
    version = shown(page)[1]
    page.locator(f"#effects > li[data-seq='{version}']").wait_for()
    before = listed(page)
    assert sum(len(effects) for _, _, effects in before) > 0
    page.reload()
    page.locator(f"#effects > li[data-seq='{version}']").wait_for()
    for _ in range(100):  # the newest moves' effects are read after the log
        after = listed(page)
        if after[-20:] == before[-20:]:
            break
        page.wait_for_timeout(100)
    assert [seq for seq, _, _ in after] == list(range(1, version + 1))
    assert after[-20:] == before[-20:]
    if version > 20:  # the earlier moves: one click reads what they set off too
        page.locator("#more-details").click()
        page.locator("#more-details").wait_for(state="detached")
        page.locator(f"#effects > li[data-seq='{version}']").wait_for()
        assert listed(page) == before
    shoot(page, screenshots, "words-reload-details")


def test_options_and_counters_read_for_a_person(browser, base, console, screenshots):
    """The start page's options say what they do, not the API's fields; an undo counter reads
    "Undos used: 0"; the shared-deal page names the game, not its id."""
    page = new_page(browser, console, width=375)
    page.goto(base + "/")
    page.locator("[data-ruleset]").first.wait_for()
    page.locator("details.options").evaluate_all("ds => ds.forEach(d => { d.open = true; })")
    helps = page.locator("details.options small").all_inner_texts()
    assert helps
    for text in helps:
        assert raw_words(text, "royal-assassin") == [], text
        assert not re.search(r"\bseat [0-9]|\([A-Z]{2}[0-9]\)|\btype\b", text), text
    shoot(page, screenshots, "words-start-options")
    card = page.locator("[data-ruleset='royal-assassin']")
    card.locator("input[name='undo']").check()
    card.locator("button[type=submit]").click()
    page.locator("[data-status]").wait_for()
    panel = page.locator(".words-panel[aria-label='Casual play']")
    assert panel.inner_text().endswith("Undos used: 0")
    gid = game_id_of(page)
    token = seat_token(page, gid)
    call(base, "POST", f"/v1/games/{gid}/moves", {"version": shown(page)[1],
         "move": {"type": "resign"}}, token=token)  # fmt: skip
    page.goto(f"{base}/play?from_game={gid}")
    page.locator("main p", has_text="finished game").first.wait_for()  # past "Loading…"
    intro = page.locator("main p").first.inner_text()
    assert "finished game of Royal Assassin" in intro and gid not in intro, intro
