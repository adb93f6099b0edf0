"""The layout's rules, checked: no import cycle in domain/, a pure domain, and no game named
outside domain/ (handlers and infra ask the registry)."""

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


def test_no_game_is_named_outside_domain():
    names = set()
    for game_id in GAMES:
        names |= {game_id, game_id.replace("-", "_")}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names)))
    for folder in ("handlers", "infra"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                assert not pattern.search(code), f"{path.relative_to(ROOT)}:{number}: {line}"


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
