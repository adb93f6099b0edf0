"""The rules' figures: engine speed, the bots' win rates, replay, the `best` bot and the solver
on every core, two-seat pairings, and choosing a daily deal.

Games come from the registry (every one-seat game, every game of two seats); what is measured
of each, and how much, from `bench.games`.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import statistics
import time
from collections import Counter

from bench.figures import Bench, Figure, pct, timings
from bench.games import (
    DEFAULT_PAIRING_GAMES,
    PAIRING_GAMES,
    PAIRINGS,
    SOLITAIRES,
    TWO_SEAT_SPEED_GAMES,
    solitaire_plan,
)
from domain.bots import play_out
from domain.daily import select
from domain.errors import Json
from domain.registry import GAMES, get_game
from domain.replay import replay
from domain.simulate import simulate, wilson_interval

SOLVER_BUDGET = 1_000_000
"""Positions per deal: the solver's default budget, as `court solve` runs it."""


def benches() -> list[Bench]:
    """Every one-seat game (those `bench.games` lists first, in its order), then every game of
    two seats."""
    solitaires = [g for g in GAMES.values() if g.ruleset.max_seats == 1]
    order = list(SOLITAIRES)
    solitaires.sort(key=lambda g: order.index(g.id) if g.id in order else len(order))
    out: list[Bench] = []
    for entry in solitaires:
        plan = solitaire_plan(entry)
        out += [speed(entry.id, p, n, plan.speed_win_rates) for p, n in plan.speeds]
        out += [win_rate(entry.id, p, n) for p, n in plan.win_rates or ()]
        if plan.replays:
            out.append(replays(entry.id, plan.replays))
        if plan.best_bot:
            out.append(best_bot(entry.id, plan.best_bot))
        if plan.solver:
            out.append(solver(entry.id, plan.solver))
    for entry in GAMES.values():
        if entry.ruleset.max_seats >= 2:
            out.append(two_seat_speed(entry.id, TWO_SEAT_SPEED_GAMES))
            games = PAIRING_GAMES.get(entry.id, DEFAULT_PAIRING_GAMES)
            out += [pairing(entry.id, p, a, games) for p, a in PAIRINGS]
    return out


def daily_benches() -> list[Bench]:
    """Choosing and rating a day's deals, for every game that has daily challenges."""
    return [daily(g.id) for g in GAMES.values() if g.ruleset.max_seats == 1]


def _ends(outcome: Json) -> str:
    """How a game ended, in the game's own words: how it was decided, why, or its result."""
    return str(outcome.get("decided_by") or outcome.get("reason") or outcome.get("result"))


def _rate(game_id: str, policy: str, games: int) -> tuple[float, float, tuple[float, float]]:
    """Games per second (best of three runs: this host is shared and noisy) and the win rate."""
    game = get_game(game_id)
    best = float("inf")
    wins = 0
    for _ in range(3):
        started = time.perf_counter()
        wins = sum(r.policy_won for r in simulate(game, games, policy))
        best = min(best, time.perf_counter() - started)
    return games / best, wins / games, wilson_interval(wins, games)


def speed(game_id: str, policy: str, games: int, with_win_rate: bool = False) -> Bench:
    rate_id = f"rules.{game_id}.{policy}.win_rate"
    ids = (f"rules.{game_id}.{policy}.games_per_s", *([rate_id] if with_win_rate else []))

    def run() -> list[Figure]:
        per_s, rate, (low, high) = _rate(game_id, policy, games)
        out = [
            Figure(
                ids[0],
                f"{game_id} {policy} games/s (1 core)",
                per_s,
                "games/s",
                f"best of three runs of {games:,} games",
            )
        ]
        if with_win_rate:
            out.append(
                Figure(
                    rate_id,
                    f"{game_id} {policy} win rate",
                    rate * 100,
                    "%",
                    f"95% CI [{low:.2%}, {high:.2%}], {games:,} deals",
                )
            )
        return out

    return Bench(ids, run)


def win_rate(game_id: str, policy: str, games: int) -> Bench:
    """One run over `games` deals: the win rate, how the games ended and how fast they went."""
    ident = f"rules.{game_id}.{policy}.win_rate"

    def run() -> list[Figure]:
        started = time.perf_counter()
        results = list(simulate(get_game(game_id), games, policy, seed_prefix="bench"))
        elapsed = time.perf_counter() - started
        wins = sum(r.policy_won for r in results)
        low, high = wilson_interval(wins, games)
        ends = Counter(_ends(r.outcome) for r in results)
        how = ", ".join(f"{k} {v / games:.1%}" for k, v in sorted(ends.items()))
        return [
            Figure(
                ident,
                f"{game_id} {policy} win rate ({games:,} deals)",
                wins / games * 100,
                "%",
                f"95% CI [{low:.2%}, {high:.2%}]; {how}; {games / elapsed:,.0f} games/s",
            )
        ]

    return Bench((ident,), run)


def replays(game_id: str, games: int) -> Bench:
    """Replaying each of `games` finished `greedy` games (best of five each): median and p99."""
    ident = f"rules.{game_id}.replay"

    def run() -> list[Figure]:
        game = get_game(game_id)
        ruleset = game.ruleset
        logs = []
        for i in range(games):
            seed = f"replay-{i}"
            _, log = play_out(ruleset, seed, None, game.policies["greedy"])
            logs.append((seed, log))
        per_game = [
            min(timings(lambda s=seed, g=log: replay(ruleset, s, None, g), 5))  # type: ignore[misc]
            for seed, log in logs
        ]
        moves = statistics.mean(len(log) for _, log in logs)
        return [
            Figure(
                ident,
                f"{game_id} replay of a finished game ({moves:.0f} moves avg), median",
                statistics.median(per_game) * 1e3,
                "ms",
                f"p99 {pct(per_game, 0.99) * 1e3:.3f} ms over {games} greedy games",
            )
        ]

    return Bench((ident,), run)


def _best_bot_games(game_id: str, prefix: str, games: int) -> tuple[int, float]:
    """One process's share of the `best` bot's deals: (wins, CPU seconds)."""
    game = get_game(game_id)
    started = time.process_time()
    wins = sum(r.policy_won for r in simulate(game, games, "best", seed_prefix=prefix))
    return wins, time.process_time() - started


def best_bot(game_id: str, games: int) -> Bench:
    """The `best` bot over `games` deals (bench-best0-*, bench-best1-*, ...), split over every
    core; the rate is per core: games over the CPU seconds they took."""
    ids = (f"rules.{game_id}.best_bot.win_rate", f"rules.{game_id}.best_bot.speed_per_core")

    def run() -> list[Figure]:
        cores = os.cpu_count() or 1
        shares = [
            (game_id, f"bench-best{k}", games // cores + (k < games % cores)) for k in range(cores)
        ]
        with multiprocessing.get_context("spawn").Pool(cores) as pool:
            results = pool.starmap(_best_bot_games, shares)
        wins = sum(w for w, _ in results)
        cpu = sum(t for _, t in results)
        low, high = wilson_interval(wins, games)
        return [
            Figure(
                ids[0],
                f"{game_id} best bot win rate ({games:,} deals)",
                wins / games * 100,
                "%",
                f"95% CI [{low:.2%}, {high:.2%}]",
            ),
            Figure(
                ids[1],
                f"{game_id} best bot games/s per core ({games:,} deals)",
                games / cpu,
                "games/s",
                f"games over the CPU seconds they took, on {cores} cores",
            ),
        ]

    return Bench(ids, run)


def _solve_one(game_id: str, seed: str) -> tuple[bool, bool, float, float]:
    """One deal at the solver's default budget, as `court solve` runs it: (complete,
    winnable, seconds, this process's peak RSS in MB so far)."""
    solve = get_game(game_id).solver
    assert solve is not None
    started = time.perf_counter()
    solution = solve(seed, None, SOLVER_BUDGET)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return solution.complete, solution.winnable, seconds, peak


def solver(game_id: str, deals: int) -> Bench:
    """The deals `court solve --games N` solves (solve-0, solve-1, ...) at its default budget,
    over every core; peak RSS is the largest of any one solving process."""
    ids = (f"rules.{game_id}.solver.decided", f"rules.{game_id}.solver.peak_rss")

    def run() -> list[Figure]:
        seeds = [(game_id, f"solve-{i}") for i in range(deals)]
        with multiprocessing.get_context("spawn").Pool(os.cpu_count() or 1) as pool:
            results = pool.starmap(_solve_one, seeds, chunksize=1)
        won = sum(c and w for c, w, _, _ in results)
        lost = sum(c and not w for c, w, _, _ in results)
        times = sorted(t for _, _, t, _ in results)
        peak = max(p for _, _, _, p in results)
        where = f"{deals} deals at the default budget ({SOLVER_BUDGET:,} positions)"
        return [
            Figure(
                ids[0],
                f"{game_id} solver: deals decided, {where}",
                (won + lost) / deals * 100,
                "%",
                f"winnable {won}, unwinnable {lost}, unknown {deals - won - lost}; "
                f"median {statistics.median(times):.2f} s, p99 {pct(times, 0.99):.2f} s",
            ),
            Figure(
                ids[1],
                f"{game_id} solver: peak RSS of a solving process, {where}",
                peak,
                "MB",
            ),
        ]

    return Bench(ids, run)


def two_seat_speed(game_id: str, games: int) -> Bench:
    """A two-seat engine's speed: `games` random games, one run."""
    ident = f"rules.{game_id}.random.games_per_s"

    def run() -> list[Figure]:
        started = time.perf_counter()
        played = sum(1 for _ in simulate(get_game(game_id), games, "random"))
        per_s = played / (time.perf_counter() - started)
        name = f"{game_id} random games/s (1 core)"
        return [Figure(ident, name, per_s, "games/s", f"one run of {games:,} games")]

    return Bench((ident,), run)


def pairing(game_id: str, policy: str, against: str, games: int) -> Bench:
    """`policy` against `against` over both seat orders (simulate alternates them), with
    seat 0's share of the wins and how the games ended."""
    ident = f"rules.{game_id}.{policy}_vs_{against}.win_rate"

    def run() -> list[Figure]:
        results = list(simulate(get_game(game_id), games, policy, None, "bench", against))
        wins = sum(r.policy_won for r in results)
        low, high = wilson_interval(wins, games)
        seat0 = sum(r.outcome.get("winner") == 0 for r in results) / games
        ends = Counter(_ends(r.outcome) for r in results)
        how = ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=str))
        return [
            Figure(
                ident,
                f"{game_id} {policy} vs {against}, {games:,} games, both seat orders",
                wins / games * 100,
                "%",
                f"95% CI [{low:.1%}, {high:.1%}]; seat 0 wins {seat0:.1%}; {how}",
            )
        ]

    return Bench((ident,), run)


def daily(game_id: str, days: int = 7) -> Bench:
    """Choosing and rating a day's deal: what the day's first daily request pays."""
    ident = f"daily.{game_id}.select"

    def run() -> list[Figure]:
        game = get_game(game_id)
        times, candidates = [], []
        for day in range(1, days + 1):
            started = time.perf_counter()
            deal = select(game, b"bench-secret", f"2026-11-{day:02d}")
            times.append(time.perf_counter() - started)
            candidates.append(deal.candidate)
        return [
            Figure(
                ident,
                f"daily deal of {game_id}: select and rate ({days} days), median",
                statistics.median(times),
                "s",
                f"max {max(times):.2f} s; candidates tried {sum(candidates) + len(candidates)}",
            )
        ]

    return Bench((ident,), run)
