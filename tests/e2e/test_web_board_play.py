"""What a player met playing every game in Chromium, held to: a card picked up for the player
stays picked when tapped (as anyone taps it before its place), and a stray tap never wipes what
is placed already; the tray's choices stay on the screen (it sticks to its bottom); a game
opens at the top of its page on a phone; the list of moves says each move in the game's own
words, distinct for distinct moves; a cliché of the character is a named button; the facing
sides fit a laptop's screen with the hand in sight. Screenshots in build/screenshots/
(board-play-*.png).
"""

import re

import pytest

from tests.e2e import test_web_client as web
from tests.e2e.test_web_client import deal, keyed, legal_now, new_page, shown
from tests.e2e.test_web_gestures import deal_seeded, last_move, reach_a_battle

# The web client's fixtures, for a server of this module's own.
live = web.live
base = web.base
console = web.console

pytestmark = pytest.mark.browser


def classes(locator):
    return locator.get_attribute("class").split()


def in_viewport(page, locator):
    box = locator.bounding_box()
    assert box, locator
    height = page.viewport_size["height"]
    return box["y"] >= 0 and box["y"] + box["height"] <= height


def test_tapping_the_card_picked_for_you_keeps_it_picked(browser, base, console):
    """The one card that can move is picked from the start; tapping it (as anyone would before
    its place) keeps it picked, and its place then plays the move."""
    page = new_page(browser, console)
    game_id = deal_seeded(page, base, "royal-assassin", "drag")
    legal, _ = legal_now(base, page)
    move = next(m for m in legal if m["type"] == "attack")
    current = keyed(page, "current")
    assert "selected" in classes(current)
    hint = page.locator(".tray .hint").inner_text()
    current.click()
    assert "selected" in classes(current)
    assert page.locator(".tray .hint").inner_text() == hint
    assert "target" in classes(keyed(page, f"column:{move['column']}"))
    # A stray tap on the board (nothing there to play) keeps it too.
    page.locator(".board .table-top .zone h2").first.click()
    assert "selected" in classes(current)
    keyed(page, f"column:{move['column']}").click()
    page.locator("[data-status][data-version='1']").wait_for()
    assert last_move(base, game_id) == move


def test_a_card_picked_by_hand_stays_picked_and_placements_survive_a_stray_tap(
    browser, base, console
):
    """In a placement of three cards, a card tapped twice stays picked; a tap on nothing puts
    it down but keeps the cards already placed."""
    page = new_page(browser, console)
    deal(page, base, "royal-ace-assin", {1: "bot:random"})
    page.locator(".tray [data-move*='choose_suit']").first.click()
    page.locator(".board.playable [data-key~='figurehead:0:king']").wait_for()
    _, body = legal_now(base, page)
    seat = body["view"]["seat"]
    hand = body["view"]["sides"][seat]["hand"]
    for card, head in ((hand[0], "king"), (hand[1], "queen")):
        keyed(page, f"card:{card}").click()
        keyed(page, f"card:{card}").click()  # tapped again: still picked
        assert "selected" in classes(keyed(page, f"card:{card}"))
        keyed(page, f"figurehead:{seat}:{head}").click()
    assert page.locator(".tentative").count() == 2
    keyed(page, f"card:{hand[2]}").click()
    page.locator(".board .side-head").first.click()  # a stray tap
    assert page.locator(".tentative").count() == 2
    assert "selected" not in classes(keyed(page, f"card:{hand[2]}"))
    assert shown(page)[0] == "playing"


def test_the_trays_choices_stay_on_a_phones_screen(browser, base, console, screenshots):
    """At 375x740, the card to control tapped first: its ready-made payments are on the screen
    (the tray sticks to the bottom of the viewport), and they play."""
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = console.watch(context.new_page())
    game_id = deal_seeded(page, base, "adaman", "royal")
    legal, _ = legal_now(base, page)
    target = next(m["target"] for m in legal if m["type"] == "control")
    page.evaluate("scrollTo(0, 0)")
    keyed(page, f"card:{target}").click()
    suggestions = page.locator(".tray button.suggestion")
    assert suggestions.count() >= 1
    assert in_viewport(page, page.locator(".tray"))
    assert in_viewport(page, suggestions.first)
    page.screenshot(path=str(screenshots / "board-play-tray-375.png"))
    move = suggestions.first.get_attribute("data-move")
    suggestions.first.click()
    page.locator("[data-status][data-version='1']").wait_for()
    assert last_move(base, game_id)["target"] == target, move
    context.close()


@pytest.mark.parametrize("ruleset", ["risus-royale", "royal-assassin"])
def test_a_game_opens_at_the_top_on_a_phone(browser, base, console, ruleset):
    """Opened from the start page (scrolled down to its form), a game's page is at its top."""
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = console.watch(context.new_page())
    deal(page, base, ruleset)
    page.locator(".board").wait_for()
    page.wait_for_timeout(300)
    assert page.evaluate("scrollY") == 0
    context.close()


@pytest.mark.parametrize(("ruleset", "seed"), [("risus-royale", "list"), ("adaman", "royal")])
def test_the_list_says_each_move_in_the_games_words(
    browser, base, console, screenshots, ruleset, seed
):
    """Each button of the list of moves reads as its move (the game's sentence), never a
    bare type, and no two read alike."""
    page = new_page(browser, console)
    deal_seeded(page, base, ruleset, seed)
    legal, _ = legal_now(base, page)
    page.locator("#move-list summary").click()
    buttons = page.locator("#move-list button[data-move]")
    texts = buttons.all_inner_texts()
    assert len(texts) == len(legal), texts
    assert len(set(texts)) == len(texts), texts
    moves = buttons.evaluate_all("ns => ns.map(n => JSON.parse(n.dataset.move))")
    for text, move in zip(texts, moves, strict=True):
        plain = move["type"].replace("_", " ")
        assert text != plain and not text.startswith(plain + " "), text
    for heading in page.locator("#move-list h3").all_inner_texts():
        assert not re.fullmatch(r"\w+ (\w+ \d+, )+\w+ \d+", heading), heading
    page.locator("#move-list").screenshot(path=str(screenshots / f"board-play-list-{ruleset}.png"))


def test_a_cliche_is_a_named_button_and_the_battles_choices_are_in_sight(
    browser, base, console, screenshots
):
    """In a battle, the character's clichés a round can be fought in are buttons named by the
    game's words; at 1280x800 the tray (and any choice on it: escape) is on the screen."""
    game_id, token, _ = reach_a_battle(base)
    page = new_page(browser, console)
    page.goto(f"{base}/play/{game_id}#token={token}&seat=0")
    page.locator(".board.playable").wait_for()
    rows = page.locator("tr.cliche.target")
    assert rows.count() >= 1
    for i in range(rows.count()):
        row = rows.nth(i)
        assert row.get_attribute("role") == "button"
        assert row.get_attribute("tabindex") == "0"
        cliche = row.locator("th").inner_text()
        named = re.compile(
            rf"^{re.escape(cliche)} \d+ dic?e \d+ wounds?$"
        )  # its name, from its content
        assert page.get_by_role("button", name=named).count() == 1, cliche
    chips = page.locator(".tray .chips button")
    assert in_viewport(page, page.locator(".tray"))
    assert all(in_viewport(page, chips.nth(i)) for i in range(chips.count()))
    page.screenshot(path=str(screenshots / "board-play-battle.png"))


def test_the_facing_sides_fit_a_laptop_screen(browser, base, console, screenshots):
    """At 1280x800, with the invite box open, the opponent's columns and your hand are both on
    the screen: a card is carried to its place without scrolling."""
    page = new_page(browser, console)
    deal(page, base, "royal-assassin-duel", {1: "human"})
    page.locator(".board.playable").wait_for()
    assert page.locator(".invites").count() == 1
    assert in_viewport(page, page.locator(".side.theirs .columns"))
    assert in_viewport(page, page.locator("[data-key~='hand']"))
    page.screenshot(path=str(screenshots / "board-play-facing-1280.png"))
