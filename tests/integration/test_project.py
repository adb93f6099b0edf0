"""The newcomer's first minutes: an install without deprecation banners, a README that works."""

import subprocess
import tomllib

from tests.stores import ROOT


def test_license_is_an_spdx_string():
    """A `license = {text = ...}` table makes setuptools print a deprecation banner."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    build = project["build-system"]["requires"]
    assert any(r.startswith("setuptools>=77") for r in build)  # the first to read SPDX strings


def test_make_run_takes_host_and_port():
    result = subprocess.run(
        ["make", "-n", "run", "PORT=8123", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "court serve --host 0.0.0.0 --port 8123" in result.stdout


def test_readme_says_where_court_lives():
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/court" in readme and "source .venv/bin/activate" in readme
