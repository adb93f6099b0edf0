"""Every relative link in the README and docs/ resolves, and so does every repository path the
docs and the code's docstrings and comments name.

A Markdown link or image whose target is relative (not http(s), not mailto) must name a file or
folder that exists, relative to the page; `page.md#anchor` (and a page's own `#anchor`) must
name a heading of that page, slugged as GitHub does. A path written in the text, such as
`domain/games/adaman/decktet.py` in inline code or `docs/record-format.md` in a docstring, must
exist too (a `*` in it must match something; fenced code blocks are examples and are not
read). Paths outside the repository (`../shared/...`,
the seed material beside it) are not checked: a clone does not have them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.stores import ROOT

PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
SOURCES = sorted(
    path
    for folder in ("domain", "handlers", "infra", "scripts", "bench", "web")
    for pattern in ("*.py", "*.js", "*.ts", "*.html", "*.css")
    for path in (ROOT / folder).rglob(pattern)
)

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# [text](target) or ![alt](target "title"); the text may hold one level of brackets and span lines.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
# A path from the repository's root, as prose names it: `domain/games/adaman/rules.py`.
TOP = "domain|handlers|infra|web|tests|docs|bench|scripts|tools"
REPO_PATH = re.compile(rf"(?<![\w./-])(?:{TOP})/[\w.*/-]*")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:, ...


def prose(text: str) -> str:
    """The page without its fenced code blocks, whose brackets and paths are examples."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped
    (hyphens and underscores kept), each space a hyphen."""
    text = LINK.sub(lambda m: re.sub(r"^!?\[|\]\(.*$", "", m.group(0), flags=re.DOTALL), heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading anchor of a page; a repeated heading gets -1, -2, ... as on GitHub."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for match in HEADING.finditer(prose(page.read_text(encoding="utf-8"))):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The target of every link, image and link reference of a page, code left out."""
    text = CODE_SPAN.sub("", prose(page.read_text(encoding="utf-8")))
    return [m.group(1) for m in LINK.finditer(text)] + REFERENCE.findall(text)


def broken_link(page: Path, target: str) -> str | None:
    """Why this target of this page leads nowhere, or None if it resolves (or is not ours)."""
    if EXTERNAL.match(target) or target.startswith("//"):
        return None
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    if not file.exists():
        return "no such file"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"no heading #{anchor} in {file.relative_to(ROOT)}"
    return None


def named_paths(text: str) -> set[str]:
    """Every repository path the text names, sentence punctuation trimmed."""
    return {m.group(0).rstrip(".,:;") for m in REPO_PATH.finditer(text)}


def exists(path: str) -> bool:
    if path.startswith("tools/node_modules"):  # installed by `make tools`, not kept in git
        return True
    if "*" in path:
        return any(ROOT.glob(path.rstrip("/")))
    if (ROOT / path).exists():
        return True
    # A Lambda handler as serverless.yml names it: `handlers/aws/api.prepare_daily`.
    module, _, function = path.rpartition(".")
    source = ROOT / f"{module}.py"
    return bool(module) and source.is_file() and f"def {function}(" in source.read_text()


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_checker_reads_links_and_headings_as_github_does():
    text = '[a](x.md) ![b](img/c.png "t") [d [e]](f.md#g) `[h](nope.md)` [i](https://j/k)'
    assert [m.group(1) for m in LINK.finditer(CODE_SPAN.sub("", text))] == [
        "x.md",
        "img/c.png",
        "f.md#g",
        "https://j/k",
    ]
    assert slug("Salts and the chain key (format 2)") == "salts-and-the-chain-key-format-2"
    assert slug("Format 1: games stored before salts") == "format-1-games-stored-before-salts"
    assert slug("What `court serve` is for") == "what-court-serve-is-for"
    assert slug("On [DynamoDB](x.md) Local") == "on-dynamodb-local"
    assert named_paths("see docs/api.md, and domain/games/<game>/ or `../docs/x.md`.") == {
        "docs/api.md",
        "domain/games/",
    }


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_every_relative_link_resolves(page):
    problems = [
        f"{target}: {why}"
        for target in links(page)
        if (why := broken_link(page, target)) is not None
    ]
    assert problems == [], f"{relative(page)} links to nothing: {problems}"


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_every_path_a_page_names_exists(page):
    named = named_paths(prose(page.read_text(encoding="utf-8")))
    missing = sorted(path for path in named if not exists(path))
    assert missing == [], f"{relative(page)} names what does not exist: {missing}"


def test_every_path_the_code_names_exists():
    missing = [
        f"{relative(source)}: {path}"
        for source in SOURCES
        for path in sorted(named_paths(source.read_text(encoding="utf-8")))
        if not exists(path)
    ]
    assert missing == [], "\n".join(missing)
