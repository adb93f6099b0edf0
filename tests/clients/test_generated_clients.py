"""Clients generated from openapi.yaml by tools nobody here wrote play every game against a real
`court serve` (docs/clients.md).

Python: openapi-python-client (pinned in pyproject's dev extras) generates `royal_court_client`
afresh; `mypy --strict` checks it and tests/clients/play.py, which then plays. TypeScript:
openapi-typescript generates the types, tsc (strict) compiles tests/clients/play.ts against
them and openapi-fetch, and node runs it (all pinned in tools/package.json). Each script plays
every ruleset the server lists to the end (a solitaire; a game of two seats with both seats
by invite, and against a bot), reads the log, the record and a replay step, has the record
verified, signs a guest in (an ID token of the tests' own OpenID Connect issuer, which the
server checks as it would a real provider's: tests/oidc_issuer.py), reads its profile and plays
a daily challenge, ranked as the account's; it prints one JSON line per game.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain.registry import GAMES
from tests.e2e.test_e2e import server
from tests.oidc_issuer import AUDIENCE, Issuer
from tests.stores import ROOT, load_yaml, node_tools

pytestmark = pytest.mark.long  # handed out first (tests/conftest.py)

HERE = Path(__file__).resolve().parent
SPEC = ROOT / "openapi.yaml"
VENV_BIN = Path(sys.executable).parent
NODE_BIN = ROOT / "tools" / "node_modules" / ".bin"
PACKAGE = "royal_court_client"
TSC = ["--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
       "--types", "node", "--skipLibCheck"]  # fmt: skip
"""tsc's options for play.ts (docs/clients.md): strict, ES modules as node runs them."""

KNOWN_WARNING = "WARNING parsing GET /openapi.yaml within default."
"""The one warning openapi-python-client 0.29.1 gives on this spec, and harmless: it reads no
`application/yaml` (only JSON, `text/*` and octet-stream), so `openapi()` returns the bytes
unparsed (`sync_detailed(...).content`). The spec says what the server sends, the registered
YAML media type (RFC 9512); naming it otherwise would be wrong for every other tool."""


def run(command: list[str | Path], cwd: Path, **env: str) -> str:
    """Run a tool; its output (stdout and stderr together), or the test fails showing it."""
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=300,
        env={**os.environ, **env}, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command[0]} exited {done.returncode}:\n{output[-6000:]}"
    return output


def expected_plays() -> list[tuple[str, str]]:
    """What each script must have played: every ruleset, each two-seat one both ways, and a
    daily challenge."""
    plays = []
    for entry in GAMES.values():
        modes = ["solo"] if entry.ruleset.max_seats == 1 else ["invite", "bot"]
        plays += [(entry.id, mode) for mode in modes]
    return sorted([*plays, ("daily", "daily")])


def check_plays(output: str) -> list[dict[str, object]]:
    """The games a script reported: every one expected, over and verified (a ranked daily
    attempt's record stays sealed until its day is over, so it is not verified)."""
    games = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    played = sorted(("daily", "daily") if g["mode"] == "daily" else (g["ruleset"], g["mode"])
                    for g in games)  # fmt: skip
    assert played == expected_plays(), output
    for game in games:
        assert game["status"] != "playing", game
        assert game["verified"] is (None if game["mode"] == "daily" else True), game
    return games


@pytest.fixture(scope="module")
def issuer():
    running = Issuer()
    yield running
    running.close()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory, issuer):
    """One `court serve` for both clients, signing in with the tests' issuer; its log in a
    file (a pipe would fill and stall it)."""
    folder = tmp_path_factory.mktemp("clients-server")
    env = {"ROYAL_DAILY_SECRET": "generated-clients", "ROYAL_OIDC_ISSUER": issuer.url,
           "ROYAL_OIDC_AUDIENCE": AUDIENCE}  # fmt: skip
    with (
        open(folder / "server.log", "w") as log,
        server("--db", str(folder / "court.db"), "--workers", "1", env=env, stderr=log) as (
            base,
            _,
        ),
    ):
        yield base


def generate_python_client(folder: Path) -> Path:
    """openapi-python-client's package from openapi.yaml, in `folder`; its warnings checked."""
    output = run(
        [VENV_BIN / "openapi-python-client", "generate", "--path", SPEC,
         "--output-path", folder / PACKAGE, "--meta", "none"],
        folder, PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",  # its ruff hooks
    )  # fmt: skip
    warnings = [line for line in output.splitlines() if line.startswith("WARNING")]
    assert warnings == [KNOWN_WARNING], output
    for dropped in ("Unable to", "duplicate", "removal of", "Skipping", "not in PATH"):
        assert dropped not in output, output
    # Every object the spec names is a model (a union is a type, not a class).
    exported = (folder / PACKAGE / "models" / "__init__.py").read_text()
    schemas = load_yaml(SPEC.read_text())["components"]["schemas"]
    objects = [name for name, schema in schemas.items() if "properties" in schema]
    assert [name for name in objects if f'"{name}",' not in exported] == []
    return folder / PACKAGE


def test_python_client_plays_every_game(base_url, issuer, tmp_path):
    generate_python_client(tmp_path)
    run(
        [VENV_BIN / "mypy", "--config-file", HERE / "mypy.ini", "--cache-dir", tmp_path / "mypy",
         HERE / "play.py", tmp_path / PACKAGE],
        tmp_path, MYPYPATH=str(tmp_path),
    )  # fmt: skip
    play = [sys.executable, HERE / "play.py", base_url, issuer.token("pyclient")]
    output = run(play, tmp_path, PYTHONPATH=str(tmp_path))
    check_plays(output)


def test_typescript_client_plays_every_game(base_url, issuer, tmp_path):
    node_tools()
    if not (NODE_BIN / "tsc").exists():
        pytest.fail("no TypeScript tools in tools/node_modules: run `make tools`")
    (tmp_path / "node_modules").symlink_to(ROOT / "tools" / "node_modules")
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    output = run([NODE_BIN / "openapi-typescript", SPEC, "-o", tmp_path / "schema.ts"], tmp_path)
    assert not re.search(r"warn|error", output, re.IGNORECASE), output
    shutil.copy(HERE / "play.ts", tmp_path / "play.ts")
    # One strict compile that emits nothing on any error: `tsc --noEmit --strict`, then the
    # JavaScript for node. schema.ts is checked too (--skipLibCheck skips only .d.ts files).
    run([NODE_BIN / "tsc", *TSC, "--noEmitOnError", "--outDir", "out", "play.ts"], tmp_path)
    output = run(
        ["node", tmp_path / "out" / "play.js", base_url, issuer.token("tsclient")], tmp_path
    )
    check_plays(output)


def test_the_docs_quote_the_scripts_the_tests_run():
    """Every snippet docs/clients.md marks as quoted is in its script, word for word."""
    doc = (ROOT / "docs" / "clients.md").read_text()
    quotes = re.findall(r"<!-- quoted from (\S+) -->\n```\w+\n(.*?)```", doc, re.DOTALL)
    assert {path for path, _ in quotes} == {"tests/clients/play.py", "tests/clients/play.ts"}
    for path, snippet in quotes:
        assert snippet in (ROOT / path).read_text(), f"not in {path}:\n{snippet}"


def test_the_scripts_use_the_generated_clients_only():
    """No casts, no `Any`/`any`, no type-checker silencing and no HTTP of their own: what the
    scripts can do, the generated clients do (comments and strings aside)."""
    python = ast.parse((HERE / "play.py").read_text())
    names = {node.id for node in ast.walk(python) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(python) if isinstance(node, ast.Attribute)}
    names |= {alias.name for node in ast.walk(python) if isinstance(node, ast.ImportFrom)
              for alias in node.names}  # fmt: skip
    modules = {alias.name.split(".")[0] for node in ast.walk(python) if isinstance(node, ast.Import)
               for alias in node.names}  # fmt: skip
    modules |= {node.module.split(".")[0] for node in ast.walk(python)
                if isinstance(node, ast.ImportFrom) and node.module}  # fmt: skip
    assert not names & {"Any", "cast"}, names
    of_httpx = {node.attr for node in ast.walk(python) if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name) and node.value.id == "httpx"}  # fmt: skip
    assert of_httpx == {"Timeout"}, of_httpx  # a timeout for the generated client, no request
    assert modules <= {"__future__", "json", "sys", "typing", "httpx", PACKAGE}, modules
    assert "type: ignore" not in (HERE / "play.py").read_text()
    code = (HERE / "play.ts").read_text()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", code, flags=re.DOTALL)  # comments
    code = re.sub(r'"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`', '""', code)  # strings
    assert not re.search(r"\bas\b(?! const)|\bany\b|@ts-|\bfetch\(|XMLHttpRequest|!\.", code)
