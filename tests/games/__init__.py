"""Games that exist only for the tests: each is added by following docs/architecture.md's
checklist, without touching handlers/ or infra/, to prove the checklist true. They are never
registered in production; a test offers them beside the real games with `offered()`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from domain.capabilities import GameEntry
from domain.registry import GAMES, registered


def _test_games() -> dict[str, GameEntry]:
    from tests.games.tally import GAME as TALLY

    return {TALLY.id: TALLY}


TEST_GAMES = _test_games()
EVERY_GAME: dict[str, GameEntry] = {**GAMES, **TEST_GAMES}
"""The production games and the test-only ones: what the conformance suite and the golden
playthroughs run over."""


@contextlib.contextmanager
def offered() -> Iterator[dict[str, GameEntry]]:
    """Every test game registered beside the production games while the block runs."""
    with contextlib.ExitStack() as stack:
        for entry in TEST_GAMES.values():
            stack.enter_context(registered(entry))
        yield TEST_GAMES
