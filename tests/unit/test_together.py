"""scripts/together.py, which `make test` runs: a failure beside the tests fails the whole."""

import subprocess
import sys

from tests.stores import ROOT

TOGETHER = [sys.executable, str(ROOT / "scripts" / "together.py")]


def run(*commands: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TOGETHER, *commands], capture_output=True, text=True, timeout=30)


def test_every_command_runs_and_says_how_it_ended():
    done = run("echo beside-one", "exit 3", "--", "echo in-front")
    assert done.returncode == 3
    assert "in-front" in done.stdout and "beside-one" in done.stdout
    assert "FAIL" in done.stdout and "exit 3" in done.stdout


def test_all_passing_is_zero_and_a_failing_foreground_fails():
    assert run("true", "--", "true").returncode == 0
    assert run("true", "--", "exit 5").returncode == 5
    assert run("true").returncode == 2  # no foreground command: how to use it
