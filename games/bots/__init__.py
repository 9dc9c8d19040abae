"""Computer players: pure functions of one seat's view (no Django, no I/O).

A bot is ``choose(view, rng, budget) -> action``: ``view`` is exactly what
``engine.view(state, seat)`` gives that seat (so a bot can never see hidden cards), ``rng`` a
``random.Random`` and ``budget`` the seconds it may think. Each game's module maps level
names to bots in ``LEVELS``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

Bot = Callable[[dict[str, Any], random.Random, float], str]

#: Game name -> module with ``LEVELS: dict[str, Bot]``.
BOT_MODULES: dict[str, str] = {
    "belote": "games.bots.belote",
    "grabush": "games.bots.grabush",
}
#: Level names, weakest first.
LEVEL_NAMES = ("easy", "normal", "hard")
#: Default thinking time of a move, in seconds.
DEFAULT_BUDGET = 0.3


def get_bot(game: str, level: str) -> Bot:
    """The bot playing ``game`` at ``level`` ("easy", "normal" or "hard")."""
    module = importlib.import_module(BOT_MODULES[game])
    try:
        return module.LEVELS[level]
    except KeyError:
        raise LookupError(f"no {level!r} bot for {game!r}") from None
