"""The layout's rules, checked: no import cycle in domain/, a pure domain, entry points by kind
(handlers/<kind>/, each importing only the kinds it runs), and no game named outside domain/ in
any language (handlers, infra and the web client ask the registry)."""

import ast
import re

from domain.registry import GAMES
from tests.stores import ROOT

DOMAIN = ROOT / "domain"


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """Every domain module this file imports, at module level or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def domain_graph():
    modules = {module_name(p): p for p in DOMAIN.rglob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules} for name, path in modules.items()}


def find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_in_domain():
    assert find_cycle(domain_graph()) is None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_a_package_imports_its_own_modules_as_a_cycle_would_show():
    """Sanity: the graph sees imports inside functions too (how the old cycle was hidden)."""
    graph = domain_graph()
    assert "domain.games.adaman.rules" in graph["domain.games.adaman.solver"]


def test_domain_is_pure():
    banned = re.compile(r"^(flask|boto3|botocore|werkzeug|marshmallow|sqlite3|socket|requests)\b")
    for path in DOMAIN.rglob("*.py"):
        for name in imports_of(path):
            assert not banned.match(name), f"{path.relative_to(ROOT)} imports {name}"
        text = path.read_text(encoding="utf-8")
        for clock in ("datetime.now", "time.time(", "date.today", "perf_counter", "monotonic"):
            assert clock not in text, f"{path.relative_to(ROOT)} reads the clock ({clock})"


ENTRY_KINDS = {
    "handlers.http": (),
    "handlers.serve": ("handlers.http",),
    "handlers.aws": ("handlers.http",),
    "handlers.cli": ("handlers.http", "handlers.serve"),
}
"""Each kind of entry point (handlers/<kind>/) and the kinds it may import: `court serve` and
the Lambda entries run the HTTP app, and the CLI starts `court serve`; the app runs anywhere."""


def test_entry_points_by_kind():
    """Every handler module is in the folder of its kind (config.py, which they all share,
    aside), and a kind imports only the kinds it runs: nothing reaches back into another."""
    handlers = ROOT / "handlers"
    assert sorted(p.name for p in handlers.glob("*.py")) == ["__init__.py", "config.py"]
    assert {p.name for p in handlers.iterdir() if p.is_dir() and p.name != "__pycache__"} == {
        kind.rpartition(".")[2] for kind in ENTRY_KINDS
    }
    for kind, allowed in ENTRY_KINDS.items():
        for path in sorted((ROOT / kind.replace(".", "/")).rglob("*.py")):
            for name in imports_of(path):
                of = [k for k in ENTRY_KINDS if name == k or name.startswith(k + ".")]
                assert set(of) <= {kind, *allowed}, f"{path.relative_to(ROOT)} imports {name}"


def _game_names():
    """Every way code could name a game: its id, its module's name, its title's words."""
    names = set()
    for game_id, entry in GAMES.items():
        title = entry.ruleset.title.split(" (")[0]
        names |= {game_id, game_id.replace("-", "_"), title, title.replace(" ", "")}
    return re.compile("|".join(re.escape(n) for n in sorted(names)), re.IGNORECASE)


def _docstring_lines(source):
    """The line numbers of a Python file's docstrings, which are prose like comments."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        value = node.value if isinstance(node, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            lines.update(range(node.lineno, node.end_lineno + 1))  # a docstring, or an attribute's
    return lines


def _code_lines(path):
    """(number, code) for each line of a source file with its comments (and Python's
    docstrings, JavaScript's /* */ blocks) blanked out."""
    source = path.read_text(encoding="utf-8")
    if path.suffix in (".js", ".ts"):
        source = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), source, flags=re.S)
    prose = _docstring_lines(source) if path.suffix == ".py" else set()
    marker = {".py": "#", ".js": "//", ".ts": "//"}.get(path.suffix)
    for number, line in enumerate(source.splitlines(), 1):
        if number not in prose:
            yield number, line.split(marker, 1)[0] if marker else line


GENERATED_TYPES = ROOT / "web" / "src" / "openapi.gen.ts"
"""The API's types, generated from openapi.yaml (`make web`): the spec names every game (its
ruleset ids, each game's view and moves), so they do too. Only types: none reaches the bundle."""


def test_no_game_is_named_outside_domain():
    """Handlers, stores and the web client ask the registry (over the API, for the client):
    a new game touches none of them. Comments may name games; code, strings and data not, in
    Python, the client's TypeScript sources, the bundle built from them, HTML and CSS."""
    pattern = _game_names()
    checked = []
    for folder in ("handlers", "infra", "web"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js", ".ts", ".html", ".css") or path == GENERATED_TYPES:
                continue
            checked.append(path)
            for number, code in _code_lines(path):
                assert not pattern.search(code), f"{path.relative_to(ROOT)}:{number}: {code}"
    assert len(checked) > 30  # the web client's files are among them
    web = ROOT / "web"
    assert web / "app.js" in checked and web / "src" / "game.ts" in checked
    # The one file left out is the generated one, and it is left out for its names alone.
    generated = GENERATED_TYPES.read_text(encoding="utf-8")
    assert generated.startswith("/**\n * This file was auto-generated")
    assert any(pattern.search(code) for _, code in _code_lines(GENERATED_TYPES))


def test_the_name_finder_finds_names():
    pattern = _game_names()
    for game_id, entry in GAMES.items():
        assert pattern.search(f'renderBoard("{game_id}")')
        assert pattern.search(entry.ruleset.title.upper())
    assert not pattern.search('renderBoard("generic")')


def test_json_is_one_alias():
    """`Json` is defined once, in domain/errors.py, and imported everywhere else."""
    alias = re.compile(r"^(type\s+)?Json\b\s*(:[^=\n]*)?=", re.MULTILINE)
    defined = [
        str(path.relative_to(ROOT))
        for folder in ("domain", "handlers", "infra", "scripts", "bench", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if alias.search(path.read_text(encoding="utf-8"))
    ]
    assert defined == ["domain/errors.py"]
