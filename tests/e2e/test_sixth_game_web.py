"""The sixth game in a browser: Tally (tests/games/tally), offered by a real `court serve`
beside the production games, is dealt from the start page against two bots, played to the end
by clicking, and its deal verified in the page, although no line of the web client names it:
the page learns its layout (`generic`) and its deal plan from the API."""

import random

import pytest

from domain.registry import get_ruleset
from tests.e2e.test_e2e import call, server
from tests.e2e.test_web_client import (
    MAX_CLICKS,
    Console,
    chain_line,
    check_secret_deal_end,
    click_one,
    deal,
    game_id_of,
    new_page,
    passed_checks,
    shoot,
    shown,
)
from tests.games import offered

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sixth")
    env = {"ROYAL_DB": str(folder / "court.db"), "ROYAL_DAILY_SECRET": "sixth-game-tests"}
    with server(env=env, module="tests.games.serve") as (url, _):
        yield url


@pytest.fixture
def console():
    watcher = Console()
    yield watcher
    assert watcher.errors == [], watcher.errors


def test_tally_against_two_bots_in_the_browser(browser, base, console, screenshots):
    page = new_page(browser, console)
    page.goto(base + "/")
    page.locator("[data-ruleset='tally']").wait_for()
    # Three or four players: the fourth seat may stay empty, and does by default.
    assert "3 to 4 players" in page.locator("[data-ruleset='tally']").inner_text()
    game_id = deal(page, base, "tally", {1: "bot:greedy", 2: "bot:random"})
    rng = random.Random(11)
    for _ in range(MAX_CLICKS):
        if shown(page)[0] != "playing":
            break
        click_one(page, rng)
    else:
        pytest.fail("the game did not end")
    status, version = shown(page)
    assert status == "finished" and version == 9  # each seat's last card is a forced move
    # The generic board drew the whole view: the piles and their totals are on the page.
    assert page.locator(".board.board-generic").count() == 1
    shoot(page, screenshots, "tally-over")
    check_secret_deal_end(page, base, game_id_of(page))
    page.locator("#verify-deal").click()
    result = page.locator("#verify-result")
    result.wait_for()
    assert result.get_attribute("data-verified") == "true", result.inner_text()
    assert "The 12 cards derived here are the deck that was played" in result.inner_text()
    assert chain_line(version) in passed_checks(result)
    _, _, body = call(base, "GET", f"/v1/games/{game_id}/replay?at=0")
    with offered():
        assert body["deck"] == get_ruleset("tally").deck(_seed(base, game_id))


def _seed(base, game_id):
    return call(base, "GET", f"/v1/games/{game_id}")[2]["game"]["seed"]


def test_a_production_server_does_not_offer_it(tmp_path):
    with server(env={"ROYAL_DB": str(tmp_path / "court.db")}) as (url, _):
        _, _, body = call(url, "GET", "/v1/rulesets")
    assert "tally" not in {r["id"] for r in body["rulesets"]}
