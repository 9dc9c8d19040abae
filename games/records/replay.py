"""Rebuilding a match from its seed and move log, through the engine (replays, audits)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.core.cache import cache

from ..catalog import get_game
from ..engines.contract import GameState
from ..models import Match

#: How often, in moves, a replay keeps the state it reached, and for how long.
CHECKPOINT_MOVES = 32
CHECKPOINT_SECONDS = 600


def logged_moves(match: Match) -> list[tuple[int, str]]:
    """The match's move log as ``(seat, action)`` pairs, in order (one query)."""
    return list(match.moves.order_by("seq").values_list("seat", "action"))


def replay_states(
    match: Match, moves: Sequence[tuple[int, str]] | None = None
) -> Iterator[GameState]:
    """Every engine state of ``match``: the start, then one after each move of ``moves``
    (the whole log when not given)."""
    spec = get_game(match.game)
    state = spec.new_state(match.seed, match.options)
    yield state
    for seat, action in logged_moves(match) if moves is None else moves:
        state = spec.apply_logged(state, seat, action)
        yield state


def state_after(match: Match, moves: Sequence[tuple[int, str]]) -> GameState:
    """The state after ``moves`` (a prefix of the log) from the match's seed."""
    *_, last = replay_states(match, moves)
    return last


def final_state(match: Match) -> GameState:
    """The state the move log leads to (equal to the stored state for an honest log)."""
    return state_after(match, logged_moves(match))


def _checkpoint(match: Match, step: int) -> str:
    return f"replay:{match.pk}:{step}"


def step_state(match: Match, step: int) -> tuple[GameState, tuple[int, str] | None]:
    """The state of the ended ``match`` after the first ``step`` moves of its log, and the last
    of those moves (None at the start).

    Worked out from the nearest state a replay of the match kept in the cache (one every
    :data:`CHECKPOINT_MOVES` moves, so that stepping through a long match does not replay it
    from its seed at every step), else from the seed; the states it passes are kept."""
    spec = get_game(match.game)
    mark = step - step % CHECKPOINT_MOVES
    kept = cache.get(_checkpoint(match, mark)) if mark else None
    if kept is not None:
        start, state = mark, spec.engine.loads(kept)
    else:
        start, state = 0, spec.new_state(match.seed, match.options)
    first = max(0, min(start, step - 1))  # from the last move, even when the state is kept
    moves = list(match.moves.order_by("seq").values_list("seat", "action")[first:step])
    passed = {}
    for index, (seat, action) in enumerate(moves, start=first):
        if index < start:
            continue
        state = spec.apply_logged(state, seat, action)
        if (index + 1) % CHECKPOINT_MOVES == 0:
            passed[_checkpoint(match, index + 1)] = spec.engine.dumps(state)
    if passed:
        cache.set_many(passed, timeout=CHECKPOINT_SECONDS)
    return state, (moves[-1] if moves else None)
