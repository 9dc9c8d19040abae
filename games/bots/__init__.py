"""Computer players: pure functions of one seat's view (no Django, no I/O).

A bot is ``choose(view, rng, budget) -> action``: ``view`` is exactly what
``engine.view(state, seat)`` gives that seat (so a bot can never see hidden cards), ``rng`` a
``random.Random`` and ``budget`` the seconds it may think. Each game's module maps level
names to bots in ``LEVELS``, weakest first; its ``games.catalog`` entry offers them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol, TypeVar

#: The engine's view a bot reads (a game's own view type).
ViewT = TypeVar("ViewT", bound=Mapping[str, object], contravariant=True)


class Bot(Protocol[ViewT]):
    """``bot(view, rng, budget) -> action``: a computer player of the game whose view it reads."""

    def __call__(self, view: ViewT, rng: random.Random, budget: float, /) -> str: ...
