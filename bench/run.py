"""`make bench`: the speed figures the issues set targets for.

    python -m bench.run                    # every figure (~17 minutes on two cores)
    python -m bench.run --only service.    # the figures whose id starts so (repeatable)
    python -m bench.run --list             # every id and its target, running nothing

Each figure is printed on stdout as it is measured, one JSON object a line (wrapped here):

    {"id": "server.workers.two_over_one", "name": "court serve POST moves/s, 2 workers / 1, ...",
     "value": 1.67, "unit": "x", "target": 1.6, "direction": ">=", "met": true,
     "detail": "1 worker 900/s; 2 workers 1,501/s; best of 3 each"}

`target`, `direction` and `met` are null for a figure no issue set a target for; the targets
are in `bench/targets.py`. When every figure is in, the same figures are printed as a table on
stderr (`--no-table` leaves it out). A benchmark, not a test: figures vary with the machine,
so a missed target fails nothing (the exit status is 0).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bench import capacity, records, rules, server, service, streams
from bench.figures import Bench, Figure, write_json_line, write_table
from bench.targets import TARGETS


def benches() -> list[Bench]:
    """Every benchmark, in the order `make bench` runs them."""
    return [
        *rules.benches(),
        *service.benches(),
        *records.benches(),
        *rules.daily_benches(),
        *server.benches(),
        *streams.benches(),
        *capacity.benches(),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--only",
        action="append",
        metavar="ID_PREFIX",
        help="run only the benchmarks that yield an id starting so, and print those figures",
    )
    parser.add_argument("--list", action="store_true", help="print every id and its target")
    parser.add_argument("--no-table", action="store_true", help="no table on stderr at the end")
    args = parser.parse_args(argv)
    chosen = benches()
    if args.only:
        chosen = [b for b in chosen if b.matches(args.only)]
        if not chosen:
            parser.error(f"no figure's id starts with {' or '.join(args.only)} (see --list)")
    if args.list:
        for bench in chosen:
            for ident in bench.ids:
                target = TARGETS.get(ident)
                wanted = f"{target.direction} {target.value:g} {target.unit}" if target else ""
                print(f"{ident}  {wanted}".rstrip())
        return 0
    done: list[Figure] = []
    try:
        for bench in chosen:
            for figure in bench.measure():
                if not args.only or any(figure.id.startswith(p) for p in args.only):
                    write_json_line(figure, TARGETS, sys.stdout)
                    done.append(figure)
    except KeyboardInterrupt:
        print("interrupted: the figures measured so far", file=sys.stderr)
        status = 130
    else:
        status = 0
    if done and not args.no_table:
        write_table(done, TARGETS, sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
