"""What a game offers besides its rules, declared in one entry per game.

Callers (the CLI, the API, the OpenAPI generator, benchmarks) ask a game's entry what it
provides instead of naming games: its bot policies, its solver if it has one, how to draw its
view in a terminal, its move schema and an example view. A new game is a new package under
domain/games/ plus one entry in domain/registry.py; see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.algorithms.search import Solution
from domain.bots import PolicyFactory
from domain.errors import Json
from domain.moves import moves_json_schema
from domain.ruleset import Ruleset

AnyRuleset = Ruleset[Any, Any]
Solver = Callable[[str, Mapping[str, object] | None, int | None], Solution]
"""(seed, options, node budget) -> whether the deal can be won, and how."""
Renderer = Callable[[Json], str]
"""A seat's view drawn as plain text, for `court play`."""


@dataclass(frozen=True)
class GameEntry:
    """One game and its capabilities."""

    ruleset: AnyRuleset
    policies: Mapping[str, PolicyFactory]
    renderer: Renderer
    solver: Solver | None = None
    example_seed: str = "royal"
    """The seed whose deal illustrates the game in the API documentation."""
    rating_playouts: int = 200
    """How many noisy greedy playouts rate a daily deal (domain/daily.py). Fewer for a game
    whose playouts are long: a day nobody prepared is rated inside its first request, which
    must answer well within a 512 MB Lambda's 29 s."""
    group_by: Callable[[Json], str] | None = None
    """How `court simulate` breaks its win rate down (Risus Royale: by goal), read from the
    final view a spectator sees."""

    @property
    def id(self) -> str:
        return self.ruleset.id

    def move_schema(self) -> Json:
        """JSON Schema of this game's moves, from the ruleset's declared shapes."""
        return moves_json_schema(self.ruleset.moves_offered)

    def view_example(self) -> Json:
        """Seat 0's view of the example deal: documentation made by the game itself."""
        state = self.ruleset.start(self.example_seed)
        return self.ruleset.view(state, 0)
