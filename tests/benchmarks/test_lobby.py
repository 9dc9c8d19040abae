"""The lobby benchmark's parts that can rot silently: its tables, the flood's pace, the report."""

from __future__ import annotations

import pytest

from benchmarks import lobby as lobby_bench
from games.live.consumers import FRAME_BURST, FRAME_RATE
from games.models import Match, Table
from games.tables import lobby


@pytest.mark.django_db
def test_the_setup_lists_the_public_tables_and_plays_a_private_one():
    setup = lobby_bench.prepare(lobby_sockets=3, table_count=5)
    assert len(setup.lobby_cookies) == 3 and len(setup.player_cookies) == 4
    listed = {table.code for table in lobby.lobby_tables()}
    assert len(listed) == 5 and setup.flood_code in listed
    assert setup.player_code not in listed
    measured = Table.objects.get(code=setup.player_code)
    assert measured.matches.get().status == Match.Status.RUNNING
    flood = Table.objects.get(code=setup.flood_code)
    assert flood.status == Table.Status.OPEN and not flood.seats.exclude(user=None).exists()
    lobby_bench.close_bench_tables()
    assert lobby.lobby_tables() == []


def test_the_flood_sends_as_fast_as_the_frame_budget_lets_it_and_no_faster():
    step = lobby_bench.FLOOD_SLACK / FRAME_RATE
    times = [lobby_bench.flood_due(10.0, number) for number in range(200)]
    assert times[:FRAME_BURST] == [10.0] * FRAME_BURST
    assert times[FRAME_BURST] == pytest.approx(10.0 + step)
    tokens, last = float(FRAME_BURST), times[0]  # the server's token bucket
    for now in times:
        tokens = min(FRAME_BURST, tokens + (now - last) * FRAME_RATE) - 1
        last = now
        assert tokens >= 0
    assert times[-1] - times[0] < 1.2 * (200 - FRAME_BURST) / FRAME_RATE


def test_the_report_gives_the_round_trip_and_the_frames_per_lobby_socket():
    assert lobby_bench.summarise_lobby([3, 5, 4]) == (4.0, 5)
    assert lobby_bench.summarise_lobby([]) == (None, None)
    result = lobby_bench.Result("sqlite3", "InMemoryChannelLayer", 15.0, 80, 50, moves=3)
    result.p50_ms, result.p95_ms = 4.0, 12.5
    result.lobby_frames_mean, result.lobby_frames_max = 30.0, 31
    text = lobby_bench.format_result(result)
    assert "p50 4.0 ms, p95 12.5 ms" in text
    assert "lobby frames per socket: mean 30.0, max 31" in text
    assert result.as_dict()["moves"] == 3
