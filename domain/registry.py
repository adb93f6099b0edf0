"""Every game the project offers, by id: the one list the CLI, the API and the docs read."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from domain.capabilities import AnyRuleset, GameEntry
from domain.errors import UnknownRuleset
from domain.games import adaman, risus_royale, royal_ace_assin, royal_assassin, royal_assassin_duel

GAMES: dict[str, GameEntry] = {
    g.id: g
    for g in (
        royal_assassin.GAME,
        adaman.GAME,
        royal_ace_assin.GAME,
        royal_assassin_duel.GAME,
        risus_royale.GAME,
    )
}
RULESETS: dict[str, AnyRuleset] = {g.id: g.ruleset for g in GAMES.values()}


@contextmanager
def registered(entry: GameEntry) -> Iterator[GameEntry]:
    """`entry` offered beside the production games while the block runs: how the tests add a
    game of their own (`tests/games/`) to everything that asks the registry, then take it
    away so that nothing else sees it."""
    if entry.id in GAMES:
        raise ValueError(f"a game {entry.id!r} is already registered")
    GAMES[entry.id] = entry
    RULESETS[entry.id] = entry.ruleset
    try:
        yield entry
    finally:
        del GAMES[entry.id], RULESETS[entry.id]


def get_game(ruleset_id: object) -> GameEntry:
    """The entry of this ruleset id, or UnknownRuleset listing the known ones."""
    try:
        return GAMES[ruleset_id]  # type: ignore[index]
    except (KeyError, TypeError):
        raise UnknownRuleset(str(ruleset_id), GAMES) from None


def get_ruleset(ruleset_id: object) -> AnyRuleset:
    return get_game(ruleset_id).ruleset
