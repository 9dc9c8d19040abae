"""The games the site offers: for each, its engine, seats, options form and templates.

This is the web side of the engine registry (``games.engines``). Adding a game means an engine,
an entry here and a ``templates/games/<name>/`` folder; nothing else changes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django import forms

from .engines import get_engine
from .forms import BeloteOptionsForm, GrabushOptionsForm

#: Move-log action recording that a seated player's chat granted table-talk penalty rights.
GRANT_PENALTY = "grant_penalty:"


@dataclass(frozen=True)
class GameSpec:
    """How the web layer runs one game."""

    name: str
    options_form: type[forms.Form]

    @functools.cached_property
    def engine(self) -> ModuleType:
        return get_engine(self.name)

    @property
    def board_template(self) -> str:
        return f"games/{self.name}/board.html"

    def seat_count(self, options: dict[str, Any]) -> int:
        return int(options.get("players", 4))

    def teams(self, options: dict[str, Any]) -> list[list[int]]:
        """Seats of each side/team: seats alternate (0, 2, … against 1, 3, …)."""
        seats = range(self.seat_count(options))
        return [[s for s in seats if s % 2 == 0], [s for s in seats if s % 2 == 1]]

    def new_state(self, seed: int, options: dict[str, Any]) -> Any:
        return self.engine.new_game(seed=seed, **options)

    def apply_logged(self, state: Any, seat: int, action: str) -> Any:
        """Apply one entry of the move log when replaying a match.

        Entries are players' actions, plus, for Grabush, ``grant_penalty:<side>`` written when
        a seated player's chat gave the opponents penalty rights.
        """
        if action.startswith(GRANT_PENALTY):
            return self.engine.grant_penalty(state, int(action.removeprefix(GRANT_PENALTY)))
        return self.engine.apply(state, seat, action)

    def chat_action(self, options: dict[str, Any], seat: int) -> str | None:
        """The move-log entry a running match gets when the player at ``seat`` chats, if any."""
        if self.name == "grabush" and options.get("table_talk_penalty", True):
            return f"{GRANT_PENALTY}{seat % 2}"
        return None

    def result(self, state: Any) -> dict[str, Any]:
        """A JSON summary of a finished match for its record."""
        view = self.engine.view(state, None)
        summary = {"winner": view.get("winner")}
        if "scores" in view:
            summary["scores"] = view["scores"]
        if "stocks" in view:
            summary["stocks"] = [stock["size"] for stock in view["stocks"]]
        return summary


GAMES: dict[str, GameSpec] = {
    "belote": GameSpec("belote", BeloteOptionsForm),
    "grabush": GameSpec("grabush", GrabushOptionsForm),
}


def get_game(name: str) -> GameSpec:
    """The spec of game ``name``; ``LookupError`` when the site does not offer it."""
    try:
        return GAMES[name]
    except KeyError:
        raise LookupError(f"unknown game {name!r}") from None
