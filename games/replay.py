"""Rebuilding a match from its seed and move log, through the engine (replays, audits)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .catalog import get_game
from .models import Match


def replay_states(match: Match) -> Iterator[Any]:
    """Every engine state of ``match``: the start, then one after each logged move."""
    spec = get_game(match.game)
    state = spec.new_state(match.seed, match.options)
    yield state
    for seat, action in match.moves.order_by("seq").values_list("seat", "action"):
        state = spec.apply_logged(state, seat, action)
        yield state


def final_state(match: Match) -> Any:
    """The state the move log leads to (equal to the stored state for an honest log)."""
    *_, last = replay_states(match)
    return last
