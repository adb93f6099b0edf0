"""Browser fixtures for the web client's tests: Debian's Chromium, driven by Playwright.

Playwright's own browser download is not reachable here, so pytest-playwright's `browser`
fixture launches the system's through `executable_path` (`ROYAL_CHROMIUM` overrides it;
`make test` installs both with apt when missing): Debian's `chromium-headless-shell`, built from
the same `chromium` source package, as Playwright itself runs headless Chromium by default. The
full browser drew the same pages for half as much again of its CPU (the web client's tests
and words, measured: 186 s against 119 s), the largest single cost of `make test`. One test
(`full_chromium`, the API docs page) runs in Debian's full `chromium` too.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.stores import ROOT

CHROMIUM = (
    os.environ.get("ROYAL_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or "/usr/bin/chromium-headless-shell"
)
FULL_CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / "build" / "screenshots"
AXE = ROOT / "tools" / "node_modules" / "axe-core" / "axe.min.js"

# As root in a container Chromium needs --no-sandbox; the closed network refuses the
# background connections a fresh profile makes, so those are turned off.
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-quic"]  # fmt: skip


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make browser` (or set ROYAL_CHROMIUM)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": LAUNCH_ARGS,
    }


@pytest.fixture
def full_chromium(playwright):
    """Debian's full `chromium`, for a test that should meet the page as a person's browser
    does (every other test runs in the headless shell above)."""
    if not Path(FULL_CHROMIUM).exists():
        pytest.fail(f"no Chromium at {FULL_CHROMIUM}: run `make browser`")
    browser = playwright.chromium.launch(executable_path=FULL_CHROMIUM, args=LAUNCH_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(autouse=True)
def _pages_closed(request):
    """Every browser context a test opened is closed when it ends. A page left open keeps its
    timers, long-polls and streams running to the end of the session (a quarter of a core
    each, measured), which slowed every later test on the worker."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
