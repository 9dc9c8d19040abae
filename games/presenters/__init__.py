"""Per-game presenters: turn an engine view into what that game's templates show.

A presenter only rearranges the seat's own view (names, positions, "we/they"); it never sees
the engine state, so it cannot leak hidden cards.
"""

from collections.abc import Callable
from typing import Any, Protocol

#: ``shared(key, build)``: ``build()``, made once for every viewer of one state and language
#: (the table's connections rendering one read) and kept under ``key``.
Shared = Callable[[Any, Callable[[], Any]], Any]


def build_now(key: Any, build: Callable[[], Any]) -> Any:
    """A :data:`Shared` that shares nothing (one page, such as a replay)."""
    return build()


class Presenter(Protocol):
    """What the site asks of a game's presenter (a module or a class with these names)."""

    #: The parts of the game's board a live frame sends again only when they change.
    REGIONS: tuple[Any, ...]

    def describe(self, action: str) -> str:
        """Return an action in words ("plays the Jack of hearts")."""
        ...

    def board_context(
        self,
        view: Any,
        seats: list[dict[str, Any]],
        viewer: int | None,
        selected: str = "",
        shared: Shared = build_now,
    ) -> dict[str, Any]:
        """Return the board template's context for ``viewer``'s ``view``."""
        ...
