"""Pure rules engines, one module per game, and the registry that names them.

Engines import nothing from Django and do no I/O; their public surface is described in
``shared/rules/engine-api.md`` (``new_game``, ``legal_actions``, ``apply``, ``view``,
``dumps``/``loads``, ``IllegalAction``, ``state.to_act``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .cards import IllegalAction

#: Game name -> engine module path. Adding a game means adding a line here.
ENGINES: dict[str, str] = {
    "belote": "games.engines.belote",
    "grabush": "games.engines.grabush",
}

__all__ = ["ENGINES", "IllegalAction", "get_engine"]


def get_engine(game: str) -> ModuleType:
    """Return the engine module for ``game`` ("belote", "grabush")."""
    try:
        path = ENGINES[game]
    except KeyError:
        raise LookupError(f"unknown game {game!r}") from None
    return importlib.import_module(path)
