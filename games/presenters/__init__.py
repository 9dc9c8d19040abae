"""Per-game presenters: turn an engine view into what that game's templates show.

A presenter only rearranges the seat's own view (names, positions, "we/they"); it never sees
the engine state, so it cannot leak hidden cards.
"""

from collections.abc import Callable
from typing import Any

#: ``shared(key, build)``: ``build()``, made once for every viewer of one state and language
#: (the table's connections rendering one read) and kept under ``key``.
Shared = Callable[[Any, Callable[[], Any]], Any]


def build_now(key: Any, build: Callable[[], Any]) -> Any:
    """A :data:`Shared` that shares nothing (one page, such as a replay)."""
    return build()
