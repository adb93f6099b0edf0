"""The syntax of a words template (`domain/presentation.py`): the values it says, and what is
wrong with it whatever it is said of: a clue for the game's author, checked by the conformance
suite (tests/conformance/test_words.py) before any client reads it.

>>> [(p.path, p.format, p.arg) for p in placeholders("{mover:seat} [draw|draws] <{card:card}>")]
[('mover', 'seat', ''), ('card', 'card', '')]
>>> [p.format for p in placeholders(Choice("kind", {"a": "{x:per_seat:pairs:cliche}"}))]
['text', 'per_seat']
>>> template_problems("{card:card} <{oops:nothing}")
['an unclosed <', 'unknown format nothing in {oops:nothing}']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from domain.presentation import FORMATS, NESTING, Choice, Template

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PATH = re.compile(r"^(\^?[A-Za-z_][\w]*(\.(\*|#\d?|[A-Za-z_]\w*|\d+))*|@|#\d?|mover)$")


@dataclass(frozen=True)
class Placeholder:
    path: str
    format: str
    arg: str


def _strings(template: Template) -> Iterator[str]:
    if isinstance(template, str):
        yield template
        return
    for case in template.cases.values():
        yield from _strings(case)
    if template.default is not None:
        yield from _strings(template.default)


def placeholders(template: Template) -> list[Placeholder]:
    """Every value a template says, a choice's path (as `text`) first."""
    found = [Placeholder(template.path, "text", "")] if isinstance(template, Choice) else []
    for text in _strings(template):
        for inner in _PLACEHOLDER.findall(text):
            path, _, rest = inner.partition(":")
            kind, _, arg = rest.partition(":")
            found.append(Placeholder(path, kind or "text", arg))
    return found


def format_problems(kind: str, arg: str, terms: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Why a format (with its arg) is not one a client knows, if it is not."""
    if kind in NESTING:
        inner, _, inner_arg = arg.partition(":")
        if not inner:
            return [f"{kind} needs a format"]
        return format_problems(inner, inner_arg, terms)
    if kind == "pairs" and arg and arg not in terms:
        return [f"pairs of unknown terms {arg}"]
    if kind == "stack" and not arg:
        return ["stack needs the role of its top entry"]
    if kind not in FORMATS and kind not in terms:
        return [f"unknown format {kind}"]
    return []


def template_problems(
    template: Template, terms: Mapping[str, Mapping[str, str]] | None = None
) -> list[str]:
    """What is wrong with a template's syntax and formats, whatever it is said of."""
    problems = []
    for text in _strings(template):
        depth = 0
        for char in _PLACEHOLDER.sub("", text):
            if char == "<":
                problems += ["optional parts do not nest"] if depth else []
                depth = 1
            elif char == ">":
                problems += [] if depth else ["a stray >"]
                depth = 0
        if depth:
            problems.append("an unclosed <")
        if re.search(r"\[[^\]|]*\]", _PLACEHOLDER.sub("", text)):
            problems.append("a [you form|other form] needs both forms")
    for p in placeholders(template):
        where = f"{{{p.path}:{p.format}}}" if not p.arg else f"{{{p.path}:{p.format}:{p.arg}}}"
        if not _PATH.match(p.path):
            problems.append(f"a bad path in {where}")
        problems += [f"{m} in {where}" for m in format_problems(p.format, p.arg, terms or {})]
    return problems
