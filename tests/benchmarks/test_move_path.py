"""The move path's count: a positive figure, the same on every run (its whole promise)."""

from __future__ import annotations

import json

import pytest

from benchmarks import move_path
from games.engines import belote
from games.live.consumers import parse_frame
from tests.live import version_mark


# Its work is three fresh processes of the site on a database migrated for them, whatever the
# number of moves: a quarter of a minute on an idle machine, several on a crowded one.
@pytest.mark.timeout(600)
def test_two_runs_count_the_same_instructions_and_the_profile_adds_none():
    # The first count runs with the profiler, the second without: equal counts also show
    # that what the profiler does is not counted.
    result = move_path.run(tables=1, moves=6, spectators=1, seed=3, profile=True, top=5)
    first, second = result["instructions"]
    assert first > 0 and first == second and result["repeatable"]
    assert result["moves"] == 6
    assert result["calls_per_move"] > 0 and result["queries_per_move"] > 0
    assert len(result["profile"]["by_own"]) == 5
    text = move_path.format_result(result)
    assert "(equal)" in text and "top functions by own instructions" in text
    json.dumps(result)  # --json writes it as it is


def test_the_plan_is_legal_moves_round_robin_at_consecutive_versions():
    plan = move_path.plan_moves(table_count=3, moves=10, seed=5, first_version=7)
    assert [move.table for move in plan] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    assert plan == move_path.plan_moves(table_count=3, moves=10, seed=5, first_version=7)
    for table in range(3):
        state = belote.new_game(move_path.deal_seed(5, table), **move_path.OPTIONS)
        moves = [move for move in plan if move.table == table]
        assert [move.version for move in moves] == list(range(7, 7 + len(moves)))
        for move in moves:
            assert move.seat == state.to_act
            assert move.action in belote.legal_actions(state, move.seat)
            state = belote.apply(state, move.seat, move.action)


def test_a_move_is_the_frame_the_table_reads_and_its_mark_the_next_version():
    move = move_path.PlannedMove(table=0, seat=2, action="JH", version=12)
    message = parse_frame(move.frame())
    assert (message["op"], message["action"], message["version"]) == ("play", "JH", "12")
    assert move.mark() == version_mark(13)
