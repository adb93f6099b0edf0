"""The `court` command: deal, replay, simulate and play any ruleset from a terminal."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import IO, Any

from domain.capabilities import AnyRuleset, GameEntry
from domain.deal import DealRandom
from domain.errors import (
    GameNotFound,
    GameOver,
    IllegalMove,
    InvalidOptions,
    InvalidSeed,
    Json,
    ReplayError,
    UnknownRuleset,
)
from domain.options import parse_option_text
from domain.registry import GAMES, get_game, get_ruleset
from domain.replay import Playthrough, replay
from domain.simulate import simulate, wilson_interval
from domain.verify import verify
from handlers.cli.record_io import Unreadable, fetch, parse, read_record
from handlers.cli.terminal import describe_effect, describe_move
from handlers.http import limits

EXIT_ILLEGAL = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad arguments or input: printed on stderr, exit status 2."""


def _options(pairs: Sequence[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = parse_option_text(value)
    return options


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None


LOGGED_FIELDS = frozenset({"seq", "seat", "move", "at", "hash", "salt"})


def _seated(item: object) -> tuple[int | None, object]:
    """A logged move is a move object (played by the seat to move), `{"seat": n, "move":
    {...}}` when seats are named, or an entry of the API's move log (`seq`, `seat`, `move`,
    `at`, `hash`, and `salt` in record format 2) as is."""
    if (
        isinstance(item, dict)
        and {"seat", "move"} <= set(item) <= LOGGED_FIELDS
        and isinstance(item["seat"], int)
        and not isinstance(item["seat"], bool)
    ):
        return item["seat"], item["move"]
    return None, item


def replay_moves(ruleset: AnyRuleset, seed: Any, options: Any, moves: object) -> Playthrough:
    """The game after `moves`; ReplayError names the first move that is not legal.

    `moves` is a JSON array, or the API's `{"moves": [...]}` log saved as it came.
    """
    if isinstance(moves, dict) and set(moves) == {"moves"}:
        moves = moves["moves"]
    if not isinstance(moves, list):
        raise UsageError('moves must be a JSON array (or {"moves": [...]} as GET .../moves gives)')
    return replay(ruleset, seed, options, [_seated(item) for item in moves])


def cmd_deal(args: argparse.Namespace) -> int:
    ruleset = get_ruleset(args.ruleset)
    print(" ".join(ruleset.deck(args.seed, _options(args.option))))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.source)
    except Unreadable as e:
        print(f"court: {e}", file=sys.stderr)
        return EXIT_USAGE
    verdict = verify(record)
    print(json.dumps(verdict.to_json()) if args.json else verdict.summary())
    return 0 if verdict.valid else EXIT_ILLEGAL


def cmd_record(args: argparse.Namespace) -> int:
    """Print a game's record: from a running server (`--url`) or straight from a store."""
    if args.url:
        url = f"{args.url.rstrip('/')}/v1/games/{args.game_id}/record"
        try:
            record = parse(fetch(url, args.token), url)
        except Unreadable as e:
            raise UsageError(str(e)) from None
    else:
        from handlers.config import Settings, build_service

        env = Settings.from_env()
        settings = Settings(store=args.store or env.store, db=args.db or env.db,
                            table=args.table or env.table, endpoint_url=args.endpoint_url
                            or env.endpoint_url, region=env.region,
                            game_ttl_days=env.game_ttl_days,
                            finished_ttl_days=env.finished_ttl_days)  # fmt: skip
        try:
            record = build_service(settings).record(args.game_id, args.token)
        except GameNotFound as e:
            raise UsageError(str(e)) from None
    print(json.dumps(record, indent=1, ensure_ascii=False))
    return 0


def cmd_replay_record(args: argparse.Namespace) -> int:
    """The views of a record, step by step (JSON Lines), or the one at `--at`."""
    try:
        record = read_record(args.record)
    except Unreadable as e:
        raise UsageError(str(e)) from None
    if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
        raise UsageError("not a record: see docs/record-format.md")
    if record.get("seed") is None:
        raise UsageError("the record has no seed yet: only its game's seats can replay it")
    ruleset = get_ruleset(record.get("ruleset"))
    events = [_seated(entry) for entry in record["moves"]]
    if args.at is not None and not 0 <= args.at <= len(events):
        raise UsageError(f"--at must be from 0 to {len(events)}")
    game = Playthrough(ruleset, record["seed"], record.get("options"))
    seat = None if args.spectator else args.seat
    for k in range(len(events) + 1):
        effects: list[Json] = []
        if k > 0:
            try:
                effects = game.play(*events[k - 1])
            except (IllegalMove, GameOver) as e:
                print(f"step {k}: {e}", file=sys.stderr)
                return EXIT_ILLEGAL
        if args.at is None or args.at == k:
            move = record["moves"][k - 1] if k else None
            step = {"at": k, "move": move, "effects": effects, "view": game.view(seat)}
            sys.stdout.write(json.dumps(step) + "\n")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.record is not None:
        if args.ruleset or args.seed or args.moves or args.batch:
            raise UsageError("--record takes everything from the record: no ruleset, seed or moves")
        return cmd_replay_record(args)
    if args.at is not None:
        raise UsageError("--at goes with --record")
    if args.batch is not None:
        if args.ruleset or args.seed or args.moves:
            raise UsageError("--batch takes everything from its input: no ruleset, seed or moves")
        for line in replay_batch(_lines(args.batch)):
            sys.stdout.write(line + "\n")
        return 0
    if not (args.ruleset and args.seed and args.moves):
        raise UsageError("replay needs RULESET --seed S --moves FILE (or --batch FILE)")
    ruleset = get_ruleset(args.ruleset)
    try:
        moves = json.loads(_read_text(args.moves))
    except json.JSONDecodeError as e:
        raise UsageError(f"moves are not valid JSON: {e}") from None
    except RecursionError:
        raise UsageError("moves are nested too deeply") from None
    try:
        game = replay_moves(ruleset, args.seed, _options(args.option), moves)
    except ReplayError as f:
        print(
            f"move {f.index} {json.dumps(f.move)} is illegal: {f.reason}; legal moves: "
            f"{json.dumps(f.legal_moves)}",
            file=sys.stderr,
        )
        return EXIT_ILLEGAL
    print(json.dumps(game.view(args.seat)))
    return 0


def _lines(path: str) -> Iterator[str]:
    if path == "-":
        yield from sys.stdin
        return
    try:
        with open(path, encoding="utf-8") as f:
            yield from f
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None


def replay_batch(lines: Iterable[str]) -> Iterator[str]:
    """One JSON line out per JSON line in, in order; a bad line never stops the batch."""
    for line in lines:
        if not line.strip():
            continue
        yield json.dumps(_replay_one(line), separators=(",", ":"))


def _replay_one(line: str) -> Json:
    try:
        game = json.loads(line)
        if not isinstance(game, dict):
            raise UsageError("each line must be a JSON object")
        unknown = set(game) - {"ruleset", "seed", "options", "moves", "seat"}
        if unknown:
            raise UsageError(f"unknown fields: {', '.join(sorted(unknown))}")
        ruleset = get_ruleset(game.get("ruleset"))
        played = replay_moves(ruleset, game.get("seed"), game.get("options"), game.get("moves"))
        return {"ok": True, "view": played.view(game.get("seat", 0))}
    except ReplayError as f:
        return {"ok": False, "index": f.index, "error": f.reason, "legal_moves": f.legal_moves}
    except (json.JSONDecodeError, UsageError, UnknownRuleset, InvalidOptions, InvalidSeed) as e:
        return {"ok": False, "index": None, "error": str(e), "legal_moves": []}
    except RecursionError:
        return {"ok": False, "index": None, "error": "nested too deeply", "legal_moves": []}


class ProgressBar:
    """A text bar on stderr: redrawn in place on a terminal, a line per tenth in a log."""

    def __init__(self, total: int, stream: IO[str]) -> None:
        self.total, self.stream, self.shown = total, stream, -1
        self.step = 1 if stream.isatty() else 10

    def update(self, done: int) -> None:
        percent = done * 100 // max(self.total, 1) // self.step * self.step
        if percent != self.shown:
            self.shown = percent
            bar = f"[{'#' * (percent // 4):<25}] {percent:3d}% {done}/{self.total}"
            self.stream.write("\r" + bar if self.step == 1 else bar + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.step == 1:
            self.stream.write("\n")
            self.stream.flush()


EXIT_INTERRUPTED = 130  # the shell's code for Ctrl-C


def _natural(label: str) -> tuple[str, int]:
    """`goal 2` before `goal 10`: text, then the number it ends with."""
    head, _, tail = label.rpartition(" ")
    return (head, int(tail)) if tail.isdigit() else (label, 0)


def cmd_simulate(args: argparse.Namespace) -> int:
    game = get_game(args.ruleset)
    ruleset = game.ruleset
    for name in (args.policy, args.against):
        if name is not None and name not in game.policies:
            raise UsageError(f"{ruleset.id} has no {name!r} bot (it has: "
                             f"{', '.join(sorted(game.policies))})")  # fmt: skip
    if args.against is not None and ruleset.max_seats == 1:
        raise UsageError(f"{ruleset.id} is a solitaire: --against is for games of two seats")
    options = _options(args.option)
    ruleset.validate_options(options)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    bar = ProgressBar(args.games, sys.stderr)
    done = wins = score = 0
    by_seat = {seat: [0, 0] for seat in range(ruleset.max_seats)}  # seat -> [games, wins]
    seat0_wins = 0
    by_reason: dict[str, int] = {}
    by_group: dict[str, list[int]] = {}  # group -> [games, wins]
    started = time.perf_counter()
    interrupted = False
    try:
        for result in simulate(game, args.games, args.policy, options, args.seed_prefix,
                               args.against):  # fmt: skip
            done += 1
            wins += result.policy_won
            if ruleset.max_seats == 1:
                score += result.outcome["score"]
            by_seat[result.policy_seat][0] += 1
            by_seat[result.policy_seat][1] += result.policy_won
            seat0_wins += result.outcome.get("winner") == 0
            reason = result.outcome.get("reason")
            if reason is not None:
                by_reason[reason] = by_reason.get(reason, 0) + 1
            if result.group is not None:
                counts = by_group.setdefault(result.group, [0, 0])
                counts[0] += 1
                counts[1] += result.policy_won
            bar.update(done)
    except KeyboardInterrupt:  # Ctrl-C: the games played so far still make a summary
        interrupted = True
    elapsed = time.perf_counter() - started
    bar.close()
    low, high = wilson_interval(wins, done)
    summary: Json = {"ruleset": ruleset.id, "policy": args.policy}
    if ruleset.max_seats > 1:
        summary["against"] = args.against or args.policy
    summary |= {
        "games": done,
        "wins": wins,
        "win_rate": wins / done if done else None,
        "win_rate_ci95": [round(low, 5), round(high, 5)],
    }
    if ruleset.max_seats > 1:
        summary["by_seat"] = {
            str(seat): {"games": n, "wins": w, "win_rate": w / n if n else None}
            for seat, (n, w) in by_seat.items()
        }
        summary["seat_0_win_rate"] = seat0_wins / done if done else None
    else:
        summary["avg_score"] = score / done if done else None
    if by_reason:
        summary["by_reason"] = dict(sorted(by_reason.items()))
    if by_group:
        summary["by_group"] = {
            group: {"games": n, "wins": w, "win_rate": w / n}
            for group, (n, w) in sorted(by_group.items(), key=lambda item: _natural(item[0]))
        }
    summary["games_per_s"] = round(done / elapsed, 1) if elapsed > 0 else None
    if interrupted:
        summary |= {"interrupted": True, "games_requested": args.games}
    print(json.dumps(summary))
    return EXIT_INTERRUPTED if interrupted else 0


def cmd_play(args: argparse.Namespace) -> int:
    entry = get_game(args.ruleset)
    ruleset, render = entry.ruleset, entry.renderer
    seats = _players(entry, args)
    seed = args.seed or secrets.token_hex(8)
    game = Playthrough(ruleset, seed, _options(args.option))
    bots = {
        seat: entry.policies[name](DealRandom(seed, f"bot:{seat}"))
        for seat, name in seats.items()
        if name is not None
    }
    humans = [seat for seat, name in seats.items() if name is None]
    out = sys.stdout
    again = f"court play {ruleset.id} --seed {seed}" + (
        " --hotseat" if args.hotseat else f" --against {args.against}" if args.against else ""
    )
    resume = f"Seed {seed}: `{again}` deals this game again."
    looking: int | None = humans[0]
    try:
        while not ruleset.is_over(game.state):
            seat = ruleset.to_move(game.state)[0]
            if seat in bots:
                move = bots[seat](ruleset, game.state, seat, game.legal_moves(seat))
                effects = game.play(seat, move)
                shown = ruleset.public_log(game.state, [(seat, move)], looking)[0]
                out.write(f"  > seat {seat} (bot): {describe_move(shown)}\n")
                out.write("".join(f"  > {describe_effect(e)}\n" for e in effects))
                continue
            if args.hotseat and seat != looking:
                # Two people at one terminal: hide the board before handing over.
                out.write("\033[2J\033[H")
                out.write(f"Seat {seat}'s turn: only seat {seat} should look. Press Enter.\n")
                out.flush()
                if not sys.stdin.readline():
                    out.write(f"\nLeft the game. {resume}\n")
                    return 0
                looking = seat
            view = game.view(seat)
            out.write(render(view) + "\n")
            legal = view["legal_moves"]
            for number, move in enumerate(legal, start=1):
                out.write(f"  {number:2d}) {describe_move(move)}\n")
            choice = _ask(len(legal))
            if choice is None:
                out.write(f"\nLeft the game. {resume}\n")
                return 0
            effects = game.play(seat, legal[choice - 1])
            out.write("".join(f"  > {describe_effect(e)}\n" for e in effects))
    except KeyboardInterrupt:  # Ctrl-C leaves like `q`: no traceback, and the seed to come back
        out.write(f"\nLeft the game. {resume}\n")
        return 0
    final = game.view(None if args.hotseat else humans[0])
    out.write(render(final) + "\n")
    out.write(f"Game over: {json.dumps(final['outcome'])}. Seed: {seed}\n")
    return 0


def _players(entry: GameEntry, args: argparse.Namespace) -> dict[int, str | None]:
    """Seat -> bot policy (None: a person at this terminal)."""
    ruleset = entry.ruleset
    if ruleset.max_seats == 1:
        if args.hotseat or args.against:
            raise UsageError(f"{ruleset.id} is a solitaire: no --against or --hotseat")
        return {0: None}
    if args.hotseat == bool(args.against):
        raise UsageError(f"{ruleset.id} has two seats: play --against POLICY or --hotseat")
    if args.hotseat:
        return dict.fromkeys(range(ruleset.min_seats))
    if args.against not in entry.policies:
        raise UsageError(f"{ruleset.id} has no {args.against!r} bot (it has: "
                         f"{', '.join(sorted(entry.policies))})")  # fmt: skip
    if not 0 <= args.seat < ruleset.min_seats:
        raise UsageError(f"--seat must be from 0 to {ruleset.min_seats - 1}")
    return {s: None if s == args.seat else args.against for s in range(ruleset.min_seats)}


def _ask(count: int) -> int | None:
    """A move number from stdin; None at end of input or on `q`."""
    while True:
        sys.stdout.write("Move number (q to quit): ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= count:
            return int(text)
        sys.stdout.write(f"Type a number from 1 to {count}.\n")


def cmd_serve(args: argparse.Namespace) -> int:
    import logging

    from domain.errors import StoreUnavailable
    from handlers.config import Settings, build_service
    from handlers.http.app import create_app
    from handlers.serve.server import (
        FD_RESERVE,
        MAX_CONNECTIONS_PER_ADDRESS,
        fitting_connection_limit,
        listen,
        raise_fd_limit,
        run,
    )
    from handlers.serve.stream_hub import MAX_STREAMS, MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_GAME

    env = Settings.from_env()
    settings = replace(  # the environment's settings, the command line's options over them
        env,
        store=args.store or env.store,
        db=args.db or env.db,
        table=args.table or env.table,
        endpoint_url=args.endpoint_url or env.endpoint_url,
        cors_origins=tuple(args.cors_origins.split(",")) if args.cors_origins else env.cors_origins,
        create_table=args.create_table,
        oidc_issuer=args.oidc_issuer or env.oidc_issuer,
        oidc_audience=args.oidc_audience or env.oidc_audience,
    )
    if bool(settings.oidc_issuer) != bool(settings.oidc_audience):
        raise UsageError("sign-in needs both --oidc-issuer and --oidc-audience")
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    # waitress warns "Task queue depth is N" on every request queued behind busy threads: a
    # flood under load that says nothing the access log does not.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    logging.getLogger("botocore").setLevel(logging.WARNING)  # "Found credentials in ..."
    where = settings.db if settings.store == "sqlite" else settings.table
    try:
        build_service(settings).store.check()  # creates the table if asked; checks it is usable
    except StoreUnavailable as e:
        raise UsageError(f"cannot use the {settings.store} store: {e}") from None
    workers = args.workers or os.cpu_count() or 1
    if args.streams is None:
        args.streams = MAX_STREAMS
    if args.streams_per_game is None:
        args.streams_per_game = MAX_STREAMS_PER_GAME
    if args.streams_per_address is None:
        args.streams_per_address = MAX_STREAMS_PER_ADDRESS
    if args.connections_per_address is None:
        args.connections_per_address = MAX_CONNECTIONS_PER_ADDRESS
    per_address = ("streams_per_address", "connections_per_address")
    for flag in ("threads", "connection_limit", "idle_timeout", "streams_per_game", *per_address):
        if getattr(args, flag) < 1:
            raise UsageError(f"--{flag.replace('_', '-')} must be at least 1")
    limits = (
        "games_per_minute",
        "players_per_minute",
        "moves_per_minute",
        "costly_reads_per_minute",
    )
    for flag in ("long_polls", *limits, "streams"):
        if (getattr(args, flag) or 0) < 0:
            raise UsageError(f"--{flag.replace('_', '-')} must be 0 or more")
    long_polls = max(0, args.threads - 2) if args.long_polls is None else args.long_polls
    # Each connection is an open file: raise the soft limit to the hard one (workers inherit
    # it), and keep the connection limit within it.
    connection_limit = fitting_connection_limit(args.connection_limit, raise_fd_limit())
    if connection_limit < args.connection_limit:
        print(
            f"court serve: --connection-limit {args.connection_limit} does not fit the open-file "
            f"limit (ulimit -n); using {connection_limit}",
            file=sys.stderr,
            flush=True,
        )
    # Each stream is an open file too, outside waitress's connections: streams get what the
    # connections leave.
    streams = max(0, min(args.streams, raise_fd_limit() - FD_RESERVE - connection_limit))
    if streams < args.streams:
        print(
            f"court serve: --streams {args.streams} does not fit the open-file limit (ulimit -n) "
            f"beside {connection_limit} connections; using {streams}",
            file=sys.stderr,
            flush=True,
        )
    try:
        sock = listen(args.host, args.port)
    except OSError as e:
        raise UsageError(
            f"cannot listen on {args.host}:{args.port}: {e.strerror or e} "
            "(is another server running there? choose another with --port, or PORT= for make run)"
        ) from None
    print(
        f"Royal Court API on http://{args.host}:{args.port} ({settings.store}: {where}; "
        f"{workers} worker{'s' if workers != 1 else ''}); docs at /docs",
        file=sys.stderr,
        flush=True,
    )
    print(
        f"Sign-in with {settings.oidc_issuer} (audience {settings.oidc_audience}): today's "
        "ranked dailies are for signed-in players"
        if settings.oidc_issuer
        else "No sign-in provider: every player is a guest, and guests rank. To sign players "
        "in, set --oidc-issuer and --oidc-audience (docs/accounts.md)",
        file=sys.stderr,
        flush=True,
    )
    serve_settings = replace(settings, create_table=False)

    def make_app() -> Any:
        return create_app(
            build_service(serve_settings),
            cors_origins=list(settings.cors_origins),
            long_polls=long_polls,
            games_per_minute=args.games_per_minute,
            players_per_minute=args.players_per_minute,
            moves_per_minute=args.moves_per_minute,
            costly_reads_per_minute=args.costly_reads_per_minute,
            push_url=settings.push_url,
        )

    preparing = not args.no_prepare_daily
    expiring = settings.game_ttl is not None or settings.finished_ttl is not None

    def background() -> None:  # in the background process (docs/daily.md, docs/api.md)
        from handlers.serve.background import delete_expired, prepare_daily

        if preparing:
            prepare_daily(lambda: build_service(serve_settings))
        if expiring:
            delete_expired(lambda: build_service(serve_settings))

    run(
        make_app,
        sock,
        workers,
        background=background if preparing or expiring else None,
        threads=args.threads,
        connection_limit=connection_limit,
        channel_timeout=args.idle_timeout,
        ident="royal-court",
        streams=streams,
        streams_per_game=args.streams_per_game,
        streams_per_address=args.streams_per_address,
        connections_per_address=args.connections_per_address,
    )
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    game = get_game(args.ruleset)
    ruleset, solve_deal = game.ruleset, game.solver
    if solve_deal is None:
        raise UsageError(f"no solver for {ruleset.id} (solvable: {', '.join(_solvable())})")
    options = _options(args.option)
    budget = args.budget or None
    if args.seed is not None:
        started = time.perf_counter()
        solution = solve_deal(args.seed, options, budget)
        seconds = round(time.perf_counter() - started, 3)
        print(
            json.dumps(
                {"ruleset": ruleset.id, "seed": args.seed}
                | solution.to_json()
                | {"seconds": seconds}
            )
        )
        return 0
    if not args.games or args.games < 1:
        raise UsageError("solve needs --seed S or --games N")
    bar = ProgressBar(args.games, sys.stderr)
    won = lost = 0
    times: list[float] = []
    interrupted = False
    try:
        for i in range(args.games):
            started = time.perf_counter()
            solution = solve_deal(f"{args.seed_prefix}-{i}", options, budget)
            times.append(time.perf_counter() - started)
            won += solution.complete and solution.winnable
            lost += solution.complete and not solution.winnable
            bar.update(i + 1)
    except KeyboardInterrupt:  # Ctrl-C: the deals solved so far still make a summary
        interrupted = True
    bar.close()
    times.sort()
    done = len(times)
    unknown = done - won - lost
    summary: Json = {
        "ruleset": ruleset.id,
        "games": done,
        "winnable": won,
        "unwinnable": lost,
        "unknown": unknown,
        "node_budget": budget,
        "winnable_fraction": won / done if done else None,
        "winnable_fraction_if_unknown_won": (won + unknown) / done if done else None,
        "solve_seconds_median": round(times[done // 2], 4) if done else None,
        "solve_seconds_p99": round(times[min(done - 1, int(0.99 * done))], 4) if done else None,
    }
    if interrupted:
        summary |= {"interrupted": True, "games_requested": args.games}
    print(json.dumps(summary))
    return EXIT_INTERRUPTED if interrupted else 0


def _solvable() -> list[str]:
    return sorted(game_id for game_id, game in GAMES.items() if game.solver is not None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="court", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ids = sorted(GAMES)
    policies = sorted({name for game in GAMES.values() for name in game.policies})

    def add_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--option",
            action="append",
            metavar="KEY=VALUE",
            help="a ruleset option (true/false, integers, strings); repeatable",
        )

    p = sub.add_parser("deal", help="print the shuffled deck, top card first")
    p.add_argument("ruleset", choices=ids)
    p.add_argument("--seed", required=True)
    add_options(p)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("replay", help="apply a JSON array of moves and print the final view")
    p.add_argument("ruleset", nargs="?", choices=ids)
    p.add_argument("--seed")
    p.add_argument("--moves", metavar="FILE|-")
    p.add_argument("--seat", type=int, default=0, help="whose view to print")
    p.add_argument("--batch", metavar="FILE|-", help="JSON Lines of games in, JSON Lines out")
    p.add_argument("--record", metavar="FILE|URL|-", help="step through a game record")
    p.add_argument("--at", type=int, help="with --record: only the view after this many events")
    p.add_argument("--spectator", action="store_true", help="with --record: the spectator's view")
    add_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", help="verify a game record offline: seed, chain, moves, outcome")
    p.add_argument("source", metavar="FILE|URL|-")
    p.add_argument("--json", action="store_true", help="the verdict as JSON")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("record", help="print a game's record (from a server or a store)")
    p.add_argument("game_id")
    p.add_argument("--url", help="a server, e.g. http://127.0.0.1:8000 (else the local store)")
    p.add_argument("--token", help="a seat's token: its record while the game is played")
    p.add_argument("--store", choices=["sqlite", "dynamodb"], help="default: sqlite")
    p.add_argument("--db", help="SQLite file (default ./court.db, or ROYAL_DB)")
    p.add_argument("--table", help="DynamoDB table (default royal-court, or ROYAL_TABLE)")
    p.add_argument("--endpoint-url", help="DynamoDB endpoint, e.g. DynamoDB Local")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("simulate", help="play many games with a bot")
    p.add_argument("ruleset", choices=ids)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--policy", choices=policies, default="random")
    p.add_argument("--seed-prefix", default="sim", help="games use seeds PREFIX-0, PREFIX-1, ...")
    p.add_argument(
        "--against", choices=policies, help="two seats: the other seat's bot (default: itself)"
    )
    add_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("play", help="play in the terminal")
    p.add_argument("ruleset", choices=ids)
    p.add_argument("--seed")
    p.add_argument("--against", metavar="POLICY", help="two seats: play a bot")
    p.add_argument("--seat", type=int, default=0, help="with --against: your seat")
    p.add_argument("--hotseat", action="store_true", help="two seats: two people, one terminal")
    add_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("solve", help="decide whether deals can be won, knowing the deck order")
    p.add_argument("ruleset", nargs="?", default=next(iter(_solvable()), None), choices=_solvable())
    p.add_argument("--seed", help="solve this deal and print a winning line if there is one")
    p.add_argument("--games", type=int, help="solve deals PREFIX-0 ... and print the figures")
    p.add_argument("--seed-prefix", default="solve")
    p.add_argument(
        "--budget",
        type=int,
        default=1_000_000,
        help="positions to search per deal before giving up (0: no limit)",
    )
    add_options(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("serve", help="serve the HTTP API (waitress)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--store", choices=["sqlite", "dynamodb"], help="default: sqlite")
    p.add_argument("--db", help="SQLite file (default ./court.db, or ROYAL_DB)")
    p.add_argument("--table", help="DynamoDB table (default royal-court, or ROYAL_TABLE)")
    p.add_argument("--endpoint-url", help="DynamoDB endpoint, e.g. DynamoDB Local")
    p.add_argument("--create-table", action="store_true", help="create the DynamoDB table")
    p.add_argument("--cors-origins", help="comma-separated allowed origins (default *)")
    p.add_argument(
        "--oidc-issuer",
        help="sign players in with this OpenID Connect issuer (or ROYAL_OIDC_ISSUER); with "
        "--oidc-audience. Without them every player is a guest (docs/accounts.md)",
    )
    p.add_argument(
        "--oidc-audience",
        help="the client id the issuer's ID tokens must be for (or ROYAL_OIDC_AUDIENCE)",
    )
    p.add_argument(
        "--workers",
        type=int,
        help="processes sharing the port (default: one per core; 1 serves in this process)",
    )
    p.add_argument("--threads", type=int, default=8, help="requests handled at once, per worker")
    p.add_argument(
        "--connection-limit",
        type=int,
        default=10_000,
        help="open connections per worker at most; idle ones hold no thread (default 10000, "
        "less if the open-file limit is lower)",
    )
    p.add_argument(
        "--long-polls",
        type=int,
        help="long-polls (?wait=) waiting at once per worker; the others are answered at once "
        "with Retry-After (default: threads - 2, so two threads stay free)",
    )
    p.add_argument(
        "--streams",
        type=int,
        help="event streams (GET /v1/games/{id}/events) open at once per worker, held by one "
        "thread; past it 503 with Retry-After (0: no hub, streams end like long-polls; "
        "default 2000)",
    )
    p.add_argument(
        "--streams-per-game",
        type=int,
        help="spectators' event streams of one game per worker; each seat has 4 more of its own "
        "(default 16)",
    )
    p.add_argument(
        "--streams-per-address",
        type=int,
        help="event streams one client address may hold open per worker (default 32)",
    )
    p.add_argument(
        "--connections-per-address",
        type=int,
        help="connections (streams apart) one client address may hold open per worker; past "
        "it 429 (default 256)",
    )
    p.add_argument(
        "--games-per-minute",
        type=float,
        default=limits.GAMES_PER_MINUTE,
        help="games one client address may create a minute, per worker (0: no limit; default 60)",
    )
    p.add_argument(
        "--players-per-minute",
        type=float,
        default=limits.PLAYERS_PER_MINUTE,
        help="players one client address may create a minute, per worker (0: no limit; default 10)",
    )
    p.add_argument(
        "--moves-per-minute",
        type=float,
        default=limits.MOVES_PER_MINUTE,
        help="moves one client address may make a minute, per worker (0: no limit; default 600)",
    )
    p.add_argument(
        "--costly-reads-per-minute",
        type=float,
        default=limits.COSTLY_READS_PER_MINUTE,
        help="records, replay steps, verifications and profiles one client address may ask "
        "for a minute, per worker (0: no limit; default 300)",
    )
    p.add_argument(
        "--idle-timeout",
        type=int,
        default=30,
        help="seconds before an idle or stalled connection is closed (default 30)",
    )
    p.add_argument(
        "--no-prepare-daily",
        action="store_true",
        help="do not choose today's and tomorrow's daily deals in the background (at start, "
        "then every 10 minutes); the first request of a day then chooses them (seconds)",
    )
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (UsageError, UnknownRuleset, InvalidOptions, InvalidSeed) as e:
        print(f"court: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
