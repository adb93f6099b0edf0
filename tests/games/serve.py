"""`court` with the test games offered: `python -m tests.games.serve serve --port N` is a real
`court serve` whose registry also holds tests/games/, for the end-to-end tiers."""

import sys

from handlers.cli.court import main
from tests.games import offered

if __name__ == "__main__":
    with offered():
        sys.exit(main(sys.argv[1:]))
