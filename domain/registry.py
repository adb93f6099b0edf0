"""Every ruleset the project offers, by id: the one list the CLI and the API read."""

from __future__ import annotations

from typing import Any

from domain.games.adaman import Adaman
from domain.games.royal_assassin import RoyalAssassin
from domain.ruleset import Ruleset

AnyRuleset = Ruleset[Any, Any]

RULESETS: dict[str, AnyRuleset] = {r.id: r for r in (RoyalAssassin(), Adaman())}


class UnknownRuleset(KeyError):
    """No ruleset has this id."""

    def __init__(self, ruleset_id: str) -> None:
        super().__init__(ruleset_id)
        self.ruleset_id = ruleset_id

    def __str__(self) -> str:
        return f"unknown ruleset {self.ruleset_id!r} (known: {', '.join(sorted(RULESETS))})"


def get_ruleset(ruleset_id: str) -> AnyRuleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise UnknownRuleset(str(ruleset_id)) from None
