"""Rebuilding a match from its seed and move log, through the engine (replays, audits)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..catalog import get_game
from ..models import Match


def logged_moves(match: Match) -> list[tuple[int, str]]:
    """The match's move log as ``(seat, action)`` pairs, in order (one query)."""
    return list(match.moves.order_by("seq").values_list("seat", "action"))


def replay_states(match: Match, moves: Sequence[tuple[int, str]] | None = None) -> Iterator[Any]:
    """Every engine state of ``match``: the start, then one after each move of ``moves``
    (the whole log when not given)."""
    spec = get_game(match.game)
    state = spec.new_state(match.seed, match.options)
    yield state
    for seat, action in logged_moves(match) if moves is None else moves:
        state = spec.apply_logged(state, seat, action)
        yield state


def state_after(match: Match, moves: Sequence[tuple[int, str]]) -> Any:
    """The state after ``moves`` (a prefix of the log) from the match's seed."""
    *_, last = replay_states(match, moves)
    return last


def final_state(match: Match) -> Any:
    """The state the move log leads to (equal to the stored state for an honest log)."""
    return state_after(match, logged_moves(match))
