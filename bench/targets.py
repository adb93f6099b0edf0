"""Every target an issue set for a `make bench` figure, by the figure's id: the one table.

A figure whose id is not here has no target (`"target": null`). `Target.issue` is the issue
that set it; the comments say what it asked and what the figure was then. A test checks that
every id here is declared by some benchmark, so a renamed row cannot leave its target behind.
"""

from __future__ import annotations

from bench.figures import Target

TARGETS: dict[str, Target] = {
    # Royal Assassin's engine: >= 4,500 random games/s on one core (issue 11; it was ~2,000,
    # the target issue 2 had set); replaying a whole finished game <= 1 ms (issue 2), median.
    "rules.royal-assassin.random.games_per_s": Target(4500, "games/s", ">=", issue=11),
    "rules.royal-assassin.replay": Target(1, "ms", "<=", issue=2),
    # Adaman's engine: >= 5,000 random games/s (issue 11; it was ~2,500, issue 4 had set 2,000).
    "rules.adaman.random.games_per_s": Target(5000, "games/s", ">=", issue=11),
    # Adaman's `best` bot over 20,000 deals: >= 15 % won, >= 45 games/s per core (issue 11; it
    # was 12.2 % at 45 games/s).
    "rules.adaman.best_bot.win_rate": Target(15, "%", ">=", issue=11),
    "rules.adaman.best_bot.speed_per_core": Target(45, "games/s", ">=", issue=11),
    # Adaman's solver on `court solve --games 100` at its default budget: >= 90 % of the deals
    # decided, peak RSS <= 200 MB (issue 11; it was ~50 % and 300 MB).
    "rules.adaman.solver.decided": Target(90, "%", ">=", issue=11),
    "rules.adaman.solver.peak_rss": Target(200, "MB", "<=", issue=11),
    # Risus Royale's engine: >= 1,500 random games/s (issue 14; its spec asks >= 1,000).
    "rules.risus-royale.random.games_per_s": Target(1500, "games/s", ">=", issue=14),
    # Royal Ace-assin's bots, both seat orders: `best` wins >= 92 % against `random` and >= 55 %
    # against `greedy` (issue 12).
    "rules.royal-ace-assin.best_vs_random.win_rate": Target(92, "%", ">=", issue=12),
    "rules.royal-ace-assin.best_vs_greedy.win_rate": Target(55, "%", ">=", issue=12),
    # Royal Assassin Duel's bots: `best` >= 90 % against `random`, >= 60 % against `greedy`
    # (issue 13).
    "rules.royal-assassin-duel.best_vs_random.win_rate": Target(90, "%", ">=", issue=13),
    "rules.royal-assassin-duel.best_vs_greedy.win_rate": Target(60, "%", ">=", issue=13),
    # A POST move at 150 moves over one at 0 (SQLite, in process): <= 1.3x with the replay
    # cache warm, <= 2.5x with it off, a fresh process (issue 11; both were 3.8x).
    "service.post_150_over_0.warm": Target(1.3, "x", "<=", issue=11),
    "service.post_150_over_0.off": Target(2.5, "x", "<=", issue=11),
    # DynamoDB: exactly one read and one write per move, a finishing move included (issue 3).
    "service.dynamodb.reads_per_move": Target(1, "requests", "<=", issue=3),
    "service.dynamodb.writes_per_move": Target(1, "requests", "<=", issue=3),
    # Lambda: a fresh process to the first response <= 1.15x importing the dependencies and
    # creating the client alone (issue 11; it was 1.77x for the import alone).
    "service.lambda.first_response_over_deps": Target(1.15, "x", "<=", issue=11),
    # The costliest cheap request: a replay step or a verification of a log at the event cap,
    # no cache, <= 1 s (issue 27's "bounded work per request"; it was 6.5 s and 12.8 s).
    "records.event_cap.replay_step": Target(1, "s", "<=", issue=27),
    "records.event_cap.verify": Target(1, "s", "<=", issue=27),
    # A past step of that game, as a server with its replay cache runs: at most a few ms over
    # a read of the newest position (issue 38; it replayed from the seed, 157-250 ms).
    "records.event_cap.past_step_over_read": Target(5, "ms", "<=", issue=38),
    # `court serve --workers 2` POST throughput over 1 worker, loopback: >= 1.6x (issue 11).
    "server.workers.two_over_one": Target(1.6, "x", ">=", issue=11),
    # 64 long-polls delay neither /healthz nor a move by more than 100 ms (issue 27): p99.
    "server.long_polls.healthz": Target(100, "ms", "<=", issue=27),
    "server.long_polls.move": Target(100, "ms", "<=", issue=27),
    # 1,000 event streams open on one `court serve`: /healthz and a move still answer in under
    # 100 ms (p99), and a move reaches the other seat's stream in under 1 s, median under 50 ms
    # (issue 30; before it, a waiting seat long-polled and held a thread).
    "server.streams.healthz": Target(100, "ms", "<=", issue=30),
    "server.streams.move": Target(100, "ms", "<=", issue=30),
    "server.streams.delivery_median": Target(50, "ms", "<=", issue=30),
    "server.streams.delivery_max": Target(1000, "ms", "<=", issue=30),
    "server.streams.open": Target(2000, "streams", ">=", issue=38),
    "server.streams.idle_cpu": Target(1, "% of a core", "<=", issue=38),
    # `court serve` under load (issue 45; on 2026-11-27 it was 1.5-2.2 ms of server CPU per
    # move, and 16 clients made fewer moves a second than 4): <= 0.8 ms per move at 4 and 16
    # client processes, over every process of the server, and more clients never fewer moves.
    "server.load.cpu_per_move_4": Target(0.8, "ms", "<=", issue=45),
    "server.load.cpu_per_move_16": Target(0.8, "ms", "<=", issue=45),
    "server.load.sixteen_over_four": Target(1, "x", ">=", issue=45),
    # A fresh `court serve` to its first move answered, and the Lambda entry's import, each
    # <= 250 ms (issue 45; they were 577 ms and 400-590 ms of CPU).
    "server.cold_start.first_move": Target(250, "ms", "<=", issue=45),
    "server.cold_start.cpu": Target(250, "ms", "<=", issue=45),
    "service.lambda.import_cpu": Target(250, "ms", "<=", issue=45),
    # A player's own rank at 100,000 entries: at most 5 requests and 10 read units (issue 39;
    # it was 10 requests and 1,104 read units at rank 20,000).
    "capacity.rank.requests": Target(5, "requests", "<=", issue=39),
    "capacity.rank.read_units": Target(10, "RRU", "<=", issue=39),
    # Each named scenario within every limit at the settings serverless.yml deploys (issue 39):
    # a partition's 1,000 write and 3,000 read units a second, and a headroom of at least 1x
    # over the tightest limit (the rows print the settings to raise when it is not).
    **{
        f"capacity.{scenario}.{figure}": Target(limit, unit, "<=", issue=39)
        for scenario in ("viral_daily", "watched_game", "two_seat_games", "ten_million_moves")
        for figure, limit, unit in (
            ("hottest_write_units", 1000, "WCU/s"),
            ("hottest_read_units", 3000, "RCU/s"),
        )
    },
    **{
        f"capacity.{scenario}.headroom": Target(1, "x", ">=", issue=39)
        for scenario in ("viral_daily", "watched_game", "two_seat_games", "ten_million_moves")
    },
}
# Issue 9 asks that `court verify` of a 150-move record take "about one replay": no number,
# so `records.verify_150.over_replay` prints the ratio with no target.
