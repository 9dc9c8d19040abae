"""Pure rules engines, one module per game (``from games.engines import belote, grabush``).

Engines import nothing from Django and do no I/O; their public surface is described in
``shared/rules/engine-api.md`` (``new_game``, ``legal_actions``, ``apply``, ``view``,
``dumps``/``loads``, ``IllegalAction``, ``state.to_act``). The site offers them through
``games.catalog``.
"""

from __future__ import annotations

from .cards import IllegalAction

__all__ = ["IllegalAction"]
