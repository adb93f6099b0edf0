"""A rematch in the web client, in a real browser (Debian's Chromium via Playwright) against a
real `court serve`: two people in two browser contexts finish a game; one click on one page
deals the rematch (`POST /v1/games/{id}/rematch`), the other page sees the finished game point
at it and offers to join it, and one click there seats the other person in it with a token of
its own. Screenshots in build/screenshots/ (rematch-*.png).
"""

import pytest

from tests.e2e import test_web_client as web
from tests.e2e.test_e2e import call
from tests.e2e.test_web_client import game_id_of, seat_token
from tests.e2e.test_web_words import join_two

# The web client's fixtures, for a server of this module's own.
live = web.live
base = web.base
console = web.console

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game_id", ["royal-assassin-duel", "royal-ace-assin"])
def test_a_rematch_is_one_click_on_each_side(browser, base, console, screenshots, game_id):
    alice, bob = join_two(browser, console, base, game_id)
    old = game_id_of(alice)
    old_tokens = [seat_token(alice, old), seat_token(bob, old)]
    # Alice resigns (asked twice): the game is over on both pages.
    alice.locator(".resign-ask").click()
    alice.get_by_role("button", name="Yes, resign").click()
    for page in (alice, bob):
        page.locator("#outcome").wait_for()
    assert alice.locator("#rematch").inner_text() == "Rematch (your opponent is invited)"
    assert bob.locator("#rematch").inner_text() == "Rematch (your opponent is invited)"
    # One click on Alice's page deals it, and takes her there.
    alice.locator("#rematch").click()
    alice.wait_for_url(lambda url: old not in url)
    alice.locator("[data-status='playing'][data-version='0']").wait_for()
    new = game_id_of(alice)
    assert new != old
    _, _, finished = call(base, "GET", f"/v1/games/{old}")
    assert finished["game"]["rematch"]["game_id"] == new
    assert "not joined yet" in alice.locator("#seats").inner_text()
    # Bob's page, still on the finished game, sees it and offers it.
    offer = bob.locator("#rematch-offer")
    offer.wait_for(timeout=10_000)
    assert bob.locator("#rematch").inner_text() == "Join the rematch"
    assert bob.locator("#rematch").get_attribute("data-rematch") == new
    bob.screenshot(path=str(screenshots / f"rematch-{game_id}-offered.png"), full_page=True)
    bob.locator("#rematch").click()
    bob.wait_for_url(f"**/play/{new}")
    bob.locator("[data-status='playing']").wait_for()
    assert "#" not in bob.url
    # Both sit in the new game, in their seats, each with a new token; Alice hears Bob join.
    tokens = [seat_token(alice, new), seat_token(bob, new)]
    assert all(tokens) and tokens[0] != tokens[1] and not set(tokens) & set(old_tokens)
    _, _, body = call(base, "GET", f"/v1/games/{new}", token=tokens[1])
    assert body["view"]["seat"] == 1
    assert [(s["player"], s["joined"]) for s in body["game"]["seats"]] == [("human", True)] * 2
    assert body["game"]["seed_commitment"] != finished["game"]["seed_commitment"]
    alice.locator("#announce", has_text="Opponent joined the game.").wait_for(timeout=10_000)
    assert "not joined yet" not in alice.locator("#seats").inner_text()
    alice.screenshot(path=str(screenshots / f"rematch-{game_id}-joined.png"), full_page=True)
    # Back on the finished game, either page now leads to the rematch.
    alice.goto(f"{base}/play/{old}")
    alice.locator("#rematch-link").wait_for()
    assert alice.locator("#rematch-link").get_attribute("href") == f"/play/{new}"
