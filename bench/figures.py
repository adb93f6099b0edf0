"""What a benchmark yields and how it is printed.

A `Figure` is one measured number with its unit; its target, if an issue set one, is looked
up by the figure's id in `bench.targets.TARGETS`, so whether it is met is computed, never
written by hand. A `Bench` is one measurement: the ids of the figures it yields, declared so
that `--only` can choose without running anything and a test can check that every target has
a row. Figures are printed as JSON Lines (one object each, for machines and issue notes) and
as a table for people.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Literal

Direction = Literal["<=", ">="]


@dataclass(frozen=True)
class Target:
    """What an issue asks of a figure: `value` in `unit`, the figure being `direction` it."""

    value: float
    unit: str
    direction: Direction
    issue: int
    """The issue that set it (its text says why)."""

    def met_by(self, value: float) -> bool:
        return value <= self.value if self.direction == "<=" else value >= self.value


@dataclass(frozen=True)
class Figure:
    """One measured number. `detail` says what else was seen (spread, counts, history)."""

    id: str
    name: str
    value: float
    unit: str
    detail: str = ""


@dataclass(frozen=True)
class Bench:
    """One measurement: every id it yields (declared, not discovered) and how to run it."""

    ids: tuple[str, ...]
    run: Callable[[], Iterable[Figure]]

    def measure(self) -> Iterator[Figure]:
        for figure in self.run():
            if figure.id not in self.ids:
                raise ValueError(f"{figure.id!r} is not among the ids declared: {self.ids}")
            yield figure

    def matches(self, prefixes: Sequence[str]) -> bool:
        return any(i.startswith(p) for i in self.ids for p in prefixes)


def rounded(value: float) -> float | int | None:
    """Four significant digits (whole numbers from 1,000 up), an int when whole, None for a
    value that is not a number (JSON has no NaN)."""
    if not math.isfinite(value):
        return None
    out = float(round(value)) if abs(value) >= 1000 else float(f"{value:.4g}")
    return int(out) if out.is_integer() else out


def judged(
    figure: Figure, targets: Mapping[str, Target]
) -> tuple[float | int | None, Target | None, bool | None]:
    """The value as printed, its target if an issue set one, and whether that value meets it
    (None without a target): computed from the value printed, so the two always agree."""
    value = rounded(figure.value)
    target = targets.get(figure.id)
    if target is not None and target.unit != figure.unit:
        raise ValueError(f"{figure.id}: measured in {figure.unit}, its target in {target.unit}")
    met = None if target is None or value is None else target.met_by(value)
    return value, target, met


def as_json(figure: Figure, targets: Mapping[str, Target]) -> dict[str, object]:
    """The object `make bench` prints for a figure; `target`, `direction` and `met` are null
    when no issue set a target."""
    value, target, met = judged(figure, targets)
    return {
        "id": figure.id,
        "name": figure.name,
        "value": value,
        "unit": figure.unit,
        "target": None if target is None else rounded(target.value),
        "direction": None if target is None else target.direction,
        "met": met,
        "detail": figure.detail,
    }


def write_json_line(figure: Figure, targets: Mapping[str, Target], out: IO[str]) -> None:
    out.write(json.dumps(as_json(figure, targets), ensure_ascii=False, allow_nan=False) + "\n")
    out.flush()


def number(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"


def write_table(figures: Sequence[Figure], targets: Mapping[str, Target], out: IO[str]) -> None:
    """measure, figure (value, unit and detail), target (and the issue that set it), met."""
    rows = [("measure", "figure", "target", "met")]
    for figure in figures:
        value, target, met = judged(figure, targets)
        measured = f"{number(value)} {figure.unit}"
        wanted = (
            "" if target is None else f"{target.direction} {number(target.value)} {target.unit}"
        )
        rows.append(
            (
                figure.name,
                f"{measured}; {figure.detail}" if figure.detail else measured,
                f"{wanted} (issue {target.issue})" if target else "",
                {True: "yes", False: "NO", None: ""}[met],
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for k, row in enumerate(rows):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")
        if k == 0:
            out.write("  ".join("-" * w for w in widths) + "\n")
    out.flush()


# Timing helpers shared by the benchmarks.


def timings(fn: Callable[[], object], repeat: int) -> list[float]:
    """Seconds each of `repeat` calls took."""
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def pct(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0.99: p99) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
