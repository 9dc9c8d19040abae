"""The surface every game's rules engine offers (``shared/rules/engine-api.md``).

An engine is a module, and a module matches a :class:`~typing.Protocol` by its names alone: the
``belote`` and ``grabush`` modules satisfy :class:`Engine` without inheriting anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar, runtime_checkable

from . import cards


class GameState(Protocol):
    """A position. Never changed once made; the engine's functions read and replace it."""

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is; None once the game is over."""
        ...


StateT = TypeVar("StateT", bound=GameState)
ViewT = TypeVar("ViewT", bound=Mapping[str, object], covariant=True)


@runtime_checkable
class Engine(Protocol[StateT, ViewT]):
    """One game's rules: a module with these names, pure (no Django, no I/O, seeded randomness)."""

    @property
    def IllegalAction(self) -> type[cards.IllegalAction]:
        """What :meth:`apply` raises for an action the rules refuse (a ``ValueError``)."""
        ...

    @property
    def new_game(self) -> Callable[..., StateT]:
        """``new_game(seed, **options)``: a new game; each game has its own options."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> list[str]:
        """Return what ``seat`` may do now ([] if nothing)."""
        ...

    def apply(self, state: StateT, seat: int, action: str) -> StateT:
        """Return the state after ``seat`` does ``action``; raise ``IllegalAction`` if refused."""
        ...

    def view(self, state: StateT, seat: int | None) -> ViewT:
        """Return what ``seat`` may see, JSON-safe; ``seat`` None: a spectator."""
        ...

    def dumps(self, state: StateT) -> str:
        """Return ``state`` as JSON text."""
        ...

    def loads(self, text: str) -> StateT:
        """Return the state :meth:`dumps` wrote, exactly."""
        ...
