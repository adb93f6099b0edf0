"""`make bench`: the speed figures the issues set targets for, printed as a table.

A benchmark, not a test: figures vary with the machine, so nothing here fails a build.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from domain.bots import play_out
from domain.registry import get_ruleset
from domain.simulate import simulate, wilson_interval


def _rate(ruleset_id: str, policy: str, games: int) -> tuple[float, float, tuple[float, float]]:
    ruleset = get_ruleset(ruleset_id)
    started = time.perf_counter()
    wins = sum(r.outcome["result"] == "won" for r in simulate(ruleset, games, policy))
    elapsed = time.perf_counter() - started
    return games / elapsed, wins / games, wilson_interval(wins, games)


def _timings(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_rules() -> list[tuple[str, str, str]]:
    rows = []
    for policy, games in (("random", 4000), ("greedy", 2000)):
        per_s, rate, (low, high) = _rate("royal-assassin", policy, games)
        target = ">= 2,000" if policy == "random" else ""
        rows.append((f"royal-assassin {policy} games/s (1 core)", f"{per_s:,.0f}", target))
        rows.append(
            (f"royal-assassin {policy} win rate", f"{rate:.2%} [{low:.2%}, {high:.2%}]", "")
        )
    ruleset = get_ruleset("royal-assassin")
    logs = []
    for i in range(200):
        seed = f"replay-{i}"
        _, log = play_out(ruleset, seed, None, "greedy")
        logs.append((seed, log))
    per_game: list[float] = []
    for seed, log in logs:
        per_game.append(min(_timings(lambda s=seed, g=log: ruleset.replay(s, None, g), 5)))
    moves = statistics.mean(len(log) for _, log in logs)
    rows.append(
        (
            f"royal-assassin replay of a finished game ({moves:.0f} moves avg)",
            f"median {statistics.median(per_game) * 1e3:.3f} ms, "
            f"p99 {_pct(per_game, 0.99) * 1e3:.3f} ms",
            "<= 1 ms",
        )
    )
    return rows


def print_table(rows: list[tuple[str, str, str]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    header = ("measure", "figure", "target")
    widths = [max(w, len(h)) for w, h in zip(widths, header, strict=True)]
    line = "  ".join("-" * w for w in widths)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(line)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def main() -> None:
    print_table(bench_rules())


if __name__ == "__main__":
    main()
