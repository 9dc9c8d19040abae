"""The load benchmark's parts that can rot silently: reading frames, the floor, the figures."""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from websockets.exceptions import ConnectionClosedError
from websockets.frames import Close

from benchmarks import asgi, load
from benchmarks.floor import CollectConsumer, FanOutConsumer
from benchmarks.stats import percentile
from cardroom.asgi import application as site
from games.live.consumers import CLOSE_NOT_FOUND
from games.live.frames import render_frame
from games.models import Table

from ..live import close_code
from ..test_dispatch import dispatches_without_a_database_hop

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.mark.django_db
def test_a_seated_table_frame_shows_its_version_and_the_moves_of_the_player_to_act():
    cookies = load.make_players(4)
    seating = load.seat_tables(cookies, 1)[0]
    table = Table.objects.get(code=seating.code)
    users = get_user_model().objects.filter(username__startswith=load.USER_PREFIX)
    frames = [render_frame(table, user) for user in users.order_by("username")]
    versions = {load.VERSION_RE.search(frame).group(1) for frame in frames}
    assert versions == {"0"}
    movers = [frame for frame in frames if load.ACTION_RE.findall(frame)]
    assert len(movers) == 1
    assert "pass" in load.ACTION_RE.findall(movers[0])
    assert all(cookie.startswith("sessionid=") for cookie in cookies)


@pytest.mark.asyncio
async def test_the_floor_echoes_a_frame_to_every_socket_of_its_group():
    sockets = []
    for _ in range(3):
        communicator = WebsocketCommunicator(FanOutConsumer.as_asgi(), "/ws/bench/t1/")
        communicator.scope["url_route"] = {"kwargs": {"group": "t1"}}
        connected, _code = await communicator.connect()
        assert connected
        sockets.append(communicator)
    await sockets[0].send_to(text_data='{"seq": 1}')
    for communicator in sockets:
        assert await communicator.receive_from() == '{"seq": 1}'
        await communicator.disconnect()


@pytest.mark.asyncio
async def test_the_collect_socket_runs_a_collection_and_says_how_long_it_took():
    communicator = WebsocketCommunicator(CollectConsumer.as_asgi(), "/ws/bench-collect/")
    connected, _code = await communicator.connect()
    assert connected
    answer = await communicator.receive_json_from()
    assert answer["collected"] >= 0 and answer["ms"] >= 0
    assert (await communicator.receive_output())["type"] == "websocket.close"
    # Let the consumer end here: its channel receive, cancelled only when the loop closes,
    # can hold a Redis connection past the test.
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_the_floor_dispatches_without_a_database_hop(monkeypatch):
    await dispatches_without_a_database_hop(FanOutConsumer, monkeypatch)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_the_benchmark_server_serves_the_floor_beside_the_site_and_the_site_does_not():
    floor = WebsocketCommunicator(asgi.application, "/ws/bench/t1/", headers=HEADERS)
    connected, _code = await floor.connect()
    assert connected
    await floor.send_to(text_data='{"seq": 1}')
    assert await floor.receive_from() == '{"seq": 1}'
    await floor.disconnect()
    for application, path in [(asgi.application, "/ws/nowhere/"), (site, "/ws/bench/t1/")]:
        elsewhere = WebsocketCommunicator(application, path, headers=HEADERS)
        connected, _code = await elsewhere.connect()
        assert connected
        assert await close_code(elsewhere) == CLOSE_NOT_FOUND
        await elsewhere.disconnect()
    stranger = WebsocketCommunicator(asgi.application, "/ws/bench-collect/")  # no Origin
    connected, _code = await stranger.connect()
    assert not connected


class _ClosedByServer:
    """A socket the server has closed (as daphne does when a consumer fails: code 1011)."""

    async def send(self, text: str) -> None:
        raise ConnectionClosedError(Close(1011, "internal error"), None)


@pytest.mark.asyncio
async def test_a_table_whose_socket_the_server_closed_stops_and_the_run_goes_on():
    table = load.FloorTable("t1", load.Totals(), random.Random(1))
    table.clients = [load.Client(table, index, _ClosedByServer()) for index in range(4)]
    for client in table.clients:
        client.version = 0
    table.settled.set()
    now = asyncio.get_running_loop().time()
    await table.run(now, now + 60, pace=2.0)  # returns at the failed send instead of raising
    assert table.pending is None


def test_the_benchmark_server_does_not_cover_the_players_of_finished_steps():
    """Each step's players leave together; covering them must not load the next step."""
    env = load.server_env("sqlite:///bench.sqlite3")
    assert float(env["AWAY_GRACE_SECONDS"]) >= 24 * 3600
    assert "LOADTEST_FLOOR" not in env


def test_latency_percentiles_are_in_milliseconds():
    values = [i / 1000 for i in range(1, 101)]
    assert load.ms(percentile(values, 0.95)) == 95.0
    assert load.ms(None) is None


def test_only_this_machine_may_be_targeted():
    assert load.websocket_base("http://127.0.0.1:8001") == "ws://127.0.0.1:8001"
    with pytest.raises(ValueError):
        load.websocket_base("http://example.com:80")


def _step(kind: str, tables: int, moves_per_s: float, p95: float, pace: float = 2.0):
    return load.StepResult(
        kind=kind,
        tables=tables,
        pace=pace,
        duration=15.0,
        target_moves_per_s=tables / pace if pace else None,
        scheduled_moves=round(15 * tables / pace) if pace else 0,
        moves=round(15 * moves_per_s),
        moves_per_s=moves_per_s,
        p50_ms=p95 / 2,
        p95_ms=p95,
        p99_ms=p95,
        max_ms=p95,
        errors=0,
        error_kinds={},
        finished_tables=0,
        server_rss_mb=None,
        server_cpu_pct=None,
        server_cpu_ms_per_move=None,
        client_cpu_pct=0.0,
        load_avg=0.0,
    )


def test_the_report_compares_the_real_knee_with_the_floor_knee_and_its_capacity():
    report = load.Report("sqlite3", "InMemoryChannelLayer", 2.0, 15.0, [])
    report.steps = [
        _step("floor", 100, 50.0, 2.0),
        _step("real", 100, 50.0, 40.0),
        _step("floor", 200, 100.0, 3.0),
        _step("real", 200, 95.0, 400.0),  # too slow: not the knee
        _step("capacity", 25, 1000.0, 9.0, pace=0.0),
    ]
    assert report.knee("real").tables == 100 and report.knee("floor").tables == 200
    assert report.knee_share_of_floor_knee() == 0.5
    assert report.knee_share() == 0.05
    text = load.format_report(report)
    assert "real knee = 50.0% of the floor's knee" in text
    assert "real knee = 5.0% of the floor's capacity" in text
    capacity = next(line for line in text.splitlines() if line.startswith("capacity"))
    assert capacity.split()[:3] == ["capacity", "25", "-"]  # unpaced: no target rate


class _AnswersLate:
    """A socket whose server shows each move 50 ms after it was sent."""

    def __init__(self, table: load.BotTable) -> None:
        self.table = table

    async def send(self, text: str) -> None:
        client = self.table.clients[0]
        frame = f'<input name="version" value="{client.version + 1}">'
        asyncio.get_running_loop().call_later(0.05, self.table.on_frame, client, frame)


@pytest.mark.asyncio
async def test_a_move_still_on_its_way_when_the_window_closes_is_waited_for():
    table = load.BotTable("t1", load.Totals(), random.Random(1))
    client = load.Client(table, 0, _AnswersLate(table))
    table.clients = [client]
    client.version, client.actions = 3, ["pass"]
    table.settled.set()  # earlier frames showed the table settled
    now = asyncio.get_running_loop().time()
    await table.run(now, now + 0.03, pace=2.0)  # sends, and the window closes before the answer
    assert table.pending is not None
    await table.drain(1.0)
    assert table.totals.errors == {} and len(table.totals.latencies) == 1
