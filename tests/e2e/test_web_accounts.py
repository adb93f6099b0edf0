"""Signing in from the web client (docs/accounts.md), in Chromium against a real `court serve`
whose sign-in provider is an OpenID Connect issuer of the tests' own over HTTP
(tests/oidc_issuer.py): the page sends the person to the provider's sign-in, comes back with a
code, and the server gets its ID token. The person, a guest first, plays today's ranked deal as
the account's player and finds it on their profile; signing out ends the session."""

import pytest

from tests.e2e.test_e2e import server
from tests.e2e.test_web_client import Console, axe_scan, new_page, shoot
from tests.oidc_issuer import AUDIENCE, Issuer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def signing_in(tmp_path_factory):
    folder = tmp_path_factory.mktemp("accounts-web")
    issuer = Issuer()
    env = {"ROYAL_DB": str(folder / "court.db"), "ROYAL_DAILY_SECRET": "web-accounts",
           "ROYAL_OIDC_ISSUER": issuer.url, "ROYAL_OIDC_AUDIENCE": AUDIENCE}  # fmt: skip
    try:
        with server(env=env) as (base, _):
            yield base, issuer
    finally:
        issuer.close()


@pytest.fixture
def console():
    watcher = Console()
    yield watcher
    assert watcher.errors == [], watcher.errors


def test_a_guest_signs_in_ranks_todays_deal_and_finds_it_on_the_profile(
    browser, signing_in, console, screenshots
):
    base, issuer = signing_in
    issuer.person = "web-person"
    page = new_page(browser, console)
    page.goto(base + "/daily")
    page.get_by_label("Your name on the leaderboards").fill("Webby")
    page.get_by_role("button", name="Save").click()
    # A guest may not rank where the server signs players in: the page says so and offers it.
    page.get_by_text("Sign in to play.").first.wait_for()
    assert page.locator("[data-daily]").count() == 0
    page.get_by_role("button", name="Sign in").click()  # to the provider and back
    page.get_by_text("Signed in as").wait_for()
    assert page.url == base + "/daily"
    assert "Webby" in page.inner_text(".account")  # the guest became the account's player
    assert axe_scan(page) == []
    shoot(page, screenshots, "signed-in")
    page.locator("[data-daily='royal-assassin']").click()
    page.locator("[data-daily-confirm='royal-assassin']").click()
    page.wait_for_url("**/play/**")
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator("[data-status]:not([data-status='playing'])").wait_for()
    page.goto(base + "/daily")
    page.get_by_role("link", name="your profile").click()
    row = page.locator("[data-profile-ruleset='royal-assassin']")
    row.wait_for()
    assert row.locator("dd").all_inner_texts()[:3] == ["1", "0", "1"]
    assert "signed-in player" in page.inner_text("main")
    page.goto(base + "/daily")
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="Sign in").wait_for()  # the session is over here
    page.close()
