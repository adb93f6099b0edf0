"""The values one move's play is made of, whatever the game: the state it is played on, the
typed move, the effects it sets off and the `Transition` that carries the new state and them.

`UNHEARD` is the effects list of the fast paths (domain/fast_paths.py): a list that keeps
nothing, so that replaying a log or playing out a game costs no effect at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, NamedTuple, Protocol, Self, TypeVar

from domain.errors import Json

Effect = dict[str, Any]


class _Unheard(list[Effect]):
    """The effects list of the fast paths (replaying a log, playouts): nothing is kept.

    Rules append effects as they go; given this list, the appends cost nothing more than a
    call, and a game may skip building an effect that takes work with
    `if effects is not UNHEARD`.
    """

    __slots__ = ()

    def append(self, effect: Effect) -> None:
        pass

    def extend(self, effects: Iterable[Effect]) -> None:
        pass

    def __iadd__(self, effects: Iterable[Effect]) -> Self:  # type: ignore[override,misc]
        return self


UNHEARD: list[Effect] = _Unheard()


class MoveValue(Protocol):
    """What a game's typed move offers the engine."""

    @property
    def is_resign(self) -> bool: ...

    def to_json(self) -> Json: ...


class StateValue(Protocol):
    """Game states are mutated only inside `apply`, on a fresh copy; callers never see that."""

    def copy(self) -> Self: ...


S = TypeVar("S", bound=StateValue)
M = TypeVar("M", bound=MoveValue)


class Transition(NamedTuple, Generic[S]):
    """The state after a move and what the move set off, in order, for clients to animate."""

    state: S
    effects: list[Effect]
