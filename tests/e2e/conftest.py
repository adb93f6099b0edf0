"""Browser fixtures for the web client's tests: Debian's Chromium, driven by Playwright.

Playwright's own browser download is not reachable here, so pytest-playwright's `browser`
fixture launches the system Chromium through `executable_path` (`ROYAL_CHROMIUM` overrides it;
`make test` installs it with apt when missing).
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.stores import ROOT

CHROMIUM = os.environ.get("ROYAL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / "build" / "screenshots"
AXE = ROOT / "tools" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make browser` (or set ROYAL_CHROMIUM)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        # As root in a container Chromium needs --no-sandbox; the closed network refuses the
        # background connections a fresh profile makes, so those are turned off.
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"],
    }  # fmt: skip


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
