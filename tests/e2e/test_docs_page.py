"""Swagger UI (`/docs`) in Chromium under its Content-Security-Policy: it still renders the
API, nothing it needs is blocked, and no other site may frame it. In Debian's full `chromium`,
as a person meets it (the other browser tests run in its headless shell: tests/e2e/conftest.py)."""

import pytest

from tests.e2e.test_e2e import server

pytestmark = pytest.mark.browser


def test_swagger_ui_renders_under_its_csp_and_refuses_to_be_framed(full_chromium, tmp_path):
    browser = full_chromium
    with server("--db", str(tmp_path / "court.db"), "--workers", "1") as (base, _):
        page = browser.new_page()
        errors = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.goto(base + "/docs/")
        page.locator(".swagger-ui .info .title").filter(has_text="Royal Court").wait_for()
        page.locator(".opblock-summary-path", has_text="/v1/games/{game_id}/moves").first.wait_for()
        assert errors == []  # a blocked script, style or fetch is a console error
        # Framed by another page (here a data: URL, another origin), it is refused.
        framing = browser.new_page()
        framing.set_content(f'<iframe src="{base}/docs/"></iframe>')
        framing.wait_for_timeout(1000)
        frame = framing.frames[-1]
        assert frame.url in ("", "about:blank", "chrome-error://chromewebdata/") or (
            frame.locator(".swagger-ui").count() == 0
        )
        page.close()
        framing.close()
