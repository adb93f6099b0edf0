"""The web client's gestures and live pages, in a real browser (Debian's Chromium via
Playwright) against a real `court serve`: a card dragged onto its place with a mouse and with a
finger (pointer events; a click still plays); a payment's running total as resources are
picked; the battle beside the map said in the game's own terms, never in bare suit signs; and,
in a simultaneous step, the other seat's sealed move shown as it comes while this seat is still
choosing (its selection on the board kept). Screenshots in build/screenshots/ (gesture-*.png).
"""

import json
import re

import pytest

from domain.games.adaman.decktet import BY_CODE as DECKTET
from domain.registry import GAMES
from tests.e2e import test_web_client as web
from tests.e2e.test_e2e import call
from tests.e2e.test_web_client import game_id_of, keyed, legal_now, new_page, seat_token, shown
from tests.e2e.test_web_words import join_two

# The web client's fixtures, for a server of this module's own.
live = web.live
base = web.base
console = web.console

pytestmark = pytest.mark.browser


def deal_seeded(page, base, ruleset, seed):
    page.goto(base + "/")
    page.locator(f"[data-ruleset='{ruleset}'] input[name='seed']").fill(seed)
    page.locator(f"[data-ruleset='{ruleset}'] button[type=submit]").click()
    page.locator("[data-status]").wait_for()
    return game_id_of(page)


def centre(locator):
    box = locator.bounding_box()
    assert box, locator
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def last_move(base, game_id):
    _, _, log = call(base, "GET", f"/v1/games/{game_id}/moves")
    return log["moves"][-1]["move"]


def test_a_card_is_dragged_onto_its_place_with_a_mouse(browser, base, console, screenshots):
    """The current card picked up and dropped on a column attacks it: its places light up as it
    lifts, a copy follows the pointer, and a drop where nothing goes puts it back (the board
    as it was: here the card, the one place to start from, is selected from the start)."""
    page = new_page(browser, console)
    game_id = deal_seeded(page, base, "royal-assassin", "drag")
    legal, _ = legal_now(base, page)
    attacks = [m for m in legal if m["type"] == "attack"]
    assert attacks, legal
    source, target = keyed(page, "current"), keyed(page, f"column:{attacks[0]['column']}")
    assert "draggable" in source.get_attribute("class")
    selected = "selected" in source.get_attribute("class")
    # Dropped where nothing goes: nothing is played, the selection is as it was.
    x, y = centre(source)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 10, steps=4)
    page.locator(".drag-ghost").wait_for()
    assert "target" in target.get_attribute("class")  # lit while it is carried
    page.mouse.move(2, 2, steps=4)
    page.mouse.up()
    assert page.locator(".drag-ghost").count() == 0
    assert shown(page) == ("playing", 0)
    assert ("selected" in source.get_attribute("class")) == selected
    # Dropped on the column: the attack is played.
    x, y = centre(source)
    tx, ty = centre(target)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + tx) / 2, (y + ty) / 2, steps=5)
    page.mouse.move(tx, ty, steps=5)
    assert "drop-over" in target.get_attribute("class")
    page.screenshot(path=str(screenshots / "gesture-drag-mouse.png"))
    page.mouse.up()
    page.locator("[data-status][data-version='1']").wait_for()
    assert last_move(base, game_id) == attacks[0]
    assert page.locator(".drag-ghost").count() == 0
    # A click still plays as before: pick up, then the lit place.
    legal, _ = legal_now(base, page)
    sources = [m for m in legal if m["type"] in ("attack", "reserve")]
    if sources:
        if "selected" not in keyed(page, "current").get_attribute("class"):
            keyed(page, "current").click()
        place = "reserve" if sources[0]["type"] == "reserve" else f"column:{sources[0]['column']}"
        keyed(page, place).click()
        page.locator("[data-status][data-version='2']").wait_for()
        assert last_move(base, game_id) == sources[0]


def test_a_card_is_dragged_with_a_finger(browser, base, console):
    """On a touch screen (375 px) a finger carries the card: touch events become pointer
    events, and the page does not scroll away under it."""
    context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True,
                                  is_mobile=True)  # fmt: skip
    page = console.watch(context.new_page())
    game_id = deal_seeded(page, base, "royal-assassin", "drag")
    legal, _ = legal_now(base, page)
    move = next(m for m in legal if m["type"] == "reserve")
    source, target = keyed(page, "current"), keyed(page, "reserve")
    source.scroll_into_view_if_needed()
    assert (
        page.evaluate(
            "k => getComputedStyle(document.querySelector(`[data-key~='${k}']`)).touchAction",
            "current",
        )
        == "none"
    )
    cdp = context.new_cdp_session(page)
    (x, y), (tx, ty) = centre(source), centre(target)
    scrolled = page.evaluate("scrollY")

    def touch(kind, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x, "y": y}])
    for i in range(1, 9):
        touch("touchMove", [{"x": x + (tx - x) * i / 8, "y": y + (ty - y) * i / 8}])
    touch("touchEnd", [])
    page.locator("[data-status][data-version='1']").wait_for()
    assert last_move(base, game_id) == move
    assert page.evaluate("scrollY") == scrolled
    context.close()


def test_a_payment_shows_its_running_total(browser, base, console, screenshots):
    """Picking resources adds up their ranks as they are picked, beside the card they are for;
    the total goes when the payment is played."""
    page = new_page(browser, console)
    game_id = deal_seeded(page, base, "adaman", "royal")
    legal, body = legal_now(base, page)
    payments = [m for m in legal if m["type"] == "control"]
    target = payments[0]["target"]
    way = max((m["with"] for m in payments if m["target"] == target), key=len)
    assert len(way) > 1, payments
    total = page.locator("#running-total")
    assert not total.is_visible()
    # The card first: its worth, nothing picked yet.
    keyed(page, f"card:{target}").click()
    target_name = keyed(page, f"card:{target}").get_attribute("aria-label").split(",")[0]
    total.wait_for()
    assert total.inner_text().startswith("Total 0"), total.inner_text()
    assert target_name in total.inner_text()
    # Then each resource: the sum so far, each card with its rank.
    running = 0
    for i, code in enumerate(way):
        keyed(page, f"card:{code}").click()
        running += DECKTET[code].rank
        text = total.inner_text()
        assert text.startswith(f"Total {running} = "), text
        assert text.count(" + ") == i, text
        assert text.endswith(f": {DECKTET[target].rank}"), text
    shot = page.locator(".board .tray")
    shot.screenshot(path=str(screenshots / "gesture-running-total.png"))
    # Resources alone (no card chosen yet): their total, without a target.
    page.get_by_role("button", name="Cancel").click()
    assert not total.is_visible()
    keyed(page, f"card:{way[0]}").click()
    assert total.inner_text() == total.inner_text().split(" · ")[0]
    assert re.fullmatch(r"Total \d+ = .+ \d+", total.inner_text()), total.inner_text()
    keyed(page, f"card:{way[1]}").click()
    for code in way[2:]:
        keyed(page, f"card:{code}").click()
    keyed(page, f"card:{target}").click()
    page.locator("[data-status][data-version='1']").wait_for()
    assert last_move(base, game_id)["target"] == target
    assert not page.locator("#running-total").is_visible()
    assert body["view"]["resources"]  # the board had resources to pick


def reach_a_battle(base):
    """A Risus Royale game played through the API until a battle is on: (id, token, view)."""
    _, _, created = call(base, "POST", "/v1/games", {"ruleset": "risus-royale", "seed": "battle"})
    game_id, token = created["game"]["id"], created["token"]
    for _ in range(60):
        _, _, body = call(base, "GET", f"/v1/games/{game_id}", token=token)
        if body["view"]["battle"]:
            return game_id, token, body["view"]
        move = next(m for m in body["view"]["legal_moves"] if m["type"] not in ("resign", "undo"))
        status, _, _ = call(base, "POST", f"/v1/games/{game_id}/moves",
                            {"version": body["game"]["version"], "move": move}, token)  # fmt: skip
        assert status == 201
    pytest.fail("no battle came")


def test_the_battle_is_said_in_the_games_terms(browser, base, console, screenshots):
    """Each side's dice in the battle beside the map are counted per cliché by the game's own
    name for it (its words' vocabulary), not by a bare suit sign."""
    game_id, token, view = reach_a_battle(base)
    page = new_page(browser, console)
    page.goto(f"{base}/play/{game_id}#token={token}&seat=0")
    zone = page.locator(".board section.zone[aria-label='Battle']")
    zone.wait_for()
    cliches = GAMES["risus-royale"].ruleset.words.terms["cliche"]
    for field, css in (("foe_dice", ".foe-dice"), ("player_dice", ".your-dice")):
        text = zone.locator(css).inner_text()
        expected = " · ".join(f"{cliches[k]}: {v}" for k, v in view["battle"][field].items())
        assert text == expected, (field, text)
        assert not re.search(r"(^|· )[♠♣♦♥] \d", text), text  # no bare sign before a count
    zone.screenshot(path=str(screenshots / "gesture-battle.png"))


def test_a_sealed_move_of_the_other_seat_shows_while_choosing(browser, base, console, screenshots):
    """In a simultaneous step (Royal Ace-assin's placing), the seat still choosing sees the other
    seat's sealed move as it comes, in its move list and its panels, without moving again; what
    it has put on the board so far stays there, and its own move is then played as usual."""
    alice, bob = join_two(browser, console, base, "royal-ace-assin")
    game_id = game_id_of(alice)
    pages = {0: alice, 1: bob}
    # Each seat chooses its suit (one after the other), on the tray.
    for _ in range(2):
        _, _, body = call(base, "GET", f"/v1/games/{game_id}")
        seat = body["view"]["to_move"][0]
        page = pages[seat]
        version = body["game"]["version"]
        page.locator(f"[data-status][data-version='{version}']").wait_for()
        page.locator(".tray [data-move*='choose_suit']").first.click()
        page.locator(f"[data-status]:not([data-version='{version}'])").wait_for()
    _, _, body = call(base, "GET", f"/v1/games/{game_id}")
    assert body["view"]["phase"] == "place" and body["view"]["to_move"] == [0, 1]
    for page in pages.values():
        page.locator("[data-status][data-version='2']").wait_for()
    # Bob starts to place: one hand card put under one of his figureheads, not confirmed.
    bob_token = seat_token(bob, game_id)
    _, _, mine = call(base, "GET", f"/v1/games/{game_id}", token=bob_token)
    place = next(m for m in mine["view"]["legal_moves"] if m["type"] == "place")
    keyed(bob, f"card:{place['cards']['king']}").click()
    keyed(bob, "figurehead:1:king").click()
    bob.locator(".board .tentative").first.wait_for()
    assert "Opponent: to play" in bob.locator(".words-panels").inner_text()
    # Alice places all three and confirms, on her board.
    _, _, hers = call(base, "GET", f"/v1/games/{game_id}", token=seat_token(alice, game_id))
    placed = next(m for m in hers["view"]["legal_moves"] if m["type"] == "place")
    for name, card in placed["cards"].items():
        keyed(alice, f"card:{card}").click()
        keyed(alice, f"figurehead:0:{name}").click()
    alice.locator(".tray button.confirm[data-move]").click()
    alice.locator("[data-status][data-version='3']").wait_for()
    # Bob's page says it at once, from his side, though he has not moved since.
    entry = bob.locator("#effects > li[data-seq='3'] .event-move")
    entry.wait_for(timeout=5000)
    said = entry.inner_text()
    assert said.startswith("Opponent places three supporters face down"), said
    bob.locator(".words-panels", has_text="Opponent: done").wait_for(timeout=5000)
    assert bob.locator("#announce").inner_text().startswith("Opponent places")
    # His board is as he left it: the card he put down is still there, the version he plays at too.
    assert bob.locator(".board .tentative").count() == 1
    assert shown(bob) == ("playing", 2)
    assert "Your turn" in bob.locator("#game-status").inner_text()
    bob.screenshot(path=str(screenshots / "gesture-sealed-move-seen.png"), full_page=True)
    # He finishes his own placing; the step ends and both pages go on.
    keyed(bob, f"card:{place['cards']['queen']}").click()
    keyed(bob, "figurehead:1:queen").click()
    keyed(bob, f"card:{place['cards']['jack']}").click()
    keyed(bob, "figurehead:1:jack").click()
    bob.locator(".tray button.confirm[data-move]").click()
    bob.locator("[data-status][data-version='4']").wait_for()
    _, _, log = call(base, "GET", f"/v1/games/{game_id}/moves", token=bob_token)
    assert [m["seat"] for m in log["moves"][-2:]] == [0, 1]
    assert json.dumps(log["moves"][-1]["move"], sort_keys=True) == json.dumps(place, sort_keys=True)
    alice.locator("[data-status][data-version='4']").wait_for()
