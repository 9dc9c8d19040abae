"""The load benchmark's parts that can rot silently: reading frames, the floor, the figures."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from websockets.exceptions import ConnectionClosedError
from websockets.frames import Close

from benchmarks import asgi, load, soak
from benchmarks.floor import CollectConsumer, FanOutConsumer
from benchmarks.stats import percentile
from cardroom.asgi import application as site
from games.live.consumers import CLOSE_NOT_FOUND
from games.live.frames import render_frame
from games.models import Table

from ..live import close_code, live_test
from ..servers import test_database_url as the_test_database_url
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


@live_test
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


def _frame(version: int, actions: list[str], rematch: bool = False) -> str:
    """What a player's page is sent: the version, their hand's moves, maybe the rematch button."""
    buttons = "".join(f'<button ws-send name="action" value="{a}"></button>' for a in actions)
    offer = '<button ws-send name="op" value="rematch"></button>' if rematch else ""
    return (
        f'<input type="hidden" name="version" value="{version}"><div id="my-area">{buttons}</div>'
        f'<section id="table-status">{offer}</section>'
    )


class _Room:
    """A finished match's table as the server runs it: the next match once all four players
    asked for it; after that match's first move, the connection drops."""

    def __init__(self, table: soak.SoakTable) -> None:
        self.table = table
        self.asked: list[int] = []
        self.moves: list[dict] = []

    def show(self, version: int, mover: int) -> None:
        for client in self.table.clients:
            actions = ["7H"] if client.index == mover else []
            asyncio.get_running_loop().call_soon(
                self.table.on_frame, client, _frame(version, actions)
            )


class _Player:
    def __init__(self, room: _Room, index: int) -> None:
        self.room, self.index = room, index
        self.close_code: int | None = None

    async def send(self, text: str) -> None:
        message = json.loads(text)
        if message["op"] == "rematch":
            self.room.asked.append(self.index)
            if len(self.room.asked) == 4:
                self.room.show(0, mover=1)
        elif not self.room.moves:
            self.room.moves.append(message)
            self.room.show(1, mover=2)
        else:
            self.close_code = 1011
            raise ConnectionClosedError(Close(1011, "internal error"), None)


@pytest.mark.asyncio
async def test_a_soak_table_whose_match_ended_asks_for_a_rematch_and_plays_the_next_match():
    table = soak.SoakTable("t1", soak.SoakTotals(), random.Random(1))
    room = _Room(table)
    table.clients = [load.Client(table, index, _Player(room, index)) for index in range(4)]
    for client in table.clients:  # the match's last move shows, and the rematch button
        table.on_frame(client, _frame(85, [], rematch=True))
    now = asyncio.get_running_loop().time()
    await table.run(now, now + 60, pace=0.01)  # returns when the connection drops
    assert sorted(room.asked) == [0, 1, 2, 3]
    assert room.moves == [{"op": "play", "action": "7H", "version": "0"}]
    assert table.totals.rematches == 1
    assert len(table.totals.latencies) == 1 and table.totals.errors == {}


def _soaked(**figures) -> soak.SoakReport:
    sampled = [(0.0, 100.0), (60.0, 110.0), (120.0, 114.0)]
    server = soak.Process("server-1", 1, rss_mb=sampled, connections=[(0.0, 3), (60.0, 4)])
    report = soak.SoakReport(
        plan=soak.Plan(minutes=2, window_seconds=60),
        database="postgresql",
        channel_layer="RedisChannelLayer",
        workers=0,
        seconds=120.0,
        rows=[],
        processes=[server],
        windows={"moves": (40.0, 60.0), "page views": (10.0, 12.0)},
        page_views_sent=100,
        pages={},
        statuses={200: 100},
        errors={},
        rematches=0,
        playing=(250, 50),
        connection_bound=10,
    )
    for name, value in figures.items():
        setattr(report, name, value)
    return report


def test_a_soak_holds_only_while_every_criterion_does():
    holding = _soaked()
    assert [(c.name, c.holds) for c in holding.criteria()] == [
        ("moves p95", True),
        ("page views p95", True),
        ("no 5xx or errors", True),
        ("database connections", True),
        ("RSS growth", True),
    ]
    assert holding.holds and "the soak holds" in soak.format_report(holding)
    slower = _soaked(windows={"moves": (40.0, 61.0), "page views": (10.0, 12.0)})
    failing = _soaked(statuses={200: 99, 502: 1})
    lost = _soaked(errors={"moves: connection lost": 1})
    grown = [(0.0, 100.0), (60.0, 110.0), (120.0, 127.0)]
    leaking = _soaked(processes=[soak.Process("server-1", 1, grown, [(0.0, 11)])])

    def failed(report: soak.SoakReport) -> list[str]:
        return [criterion.name for criterion in report.criteria() if criterion.holds is False]

    assert failed(slower) == ["moves p95"]
    assert failed(failing) == failed(lost) == ["no 5xx or errors"]
    assert failed(leaking) == ["database connections", "RSS growth"]
    assert not slower.holds and "FAIL  moves p95" in soak.format_report(slower)


@pytest.mark.django_db(transaction=True)
def test_a_short_soak_counts_every_page_view_and_each_process_s_connections():
    postgres = connection.vendor == "postgresql"
    servers = 2 if postgres and settings.REDIS_URL else 1
    plan = soak.Plan(
        minutes=0.1,
        tables=2,
        bot_tables=1,
        servers=servers,
        page_views=10,
        pace=0.2,
        window_seconds=2,
        ramp_seconds=2,
        bot_level="normal",
    )
    report = soak.run(plan, database_url=the_test_database_url(), say=lambda text: None)
    assert [c.name for c in report.criteria()] == [
        "moves p95",
        "page views p95",
        "no 5xx or errors",
        "database connections",
        "RSS growth",
    ]
    assert len(report.rows) == 15 and sum(row.moves for row in report.rows) > 0
    # Half the rate over the 2 s ramp, then the full rate over the 6 s held.
    assert report.page_views_sent == 10 + 60
    failed = sum(n for kind, n in report.errors.items() if kind.startswith("page views"))
    assert sum(report.statuses.values()) + failed == 70
    assert set(report.statuses) == {200}  # every page of the mix is open to visitors
    assert sum(page["views"] for page in report.pages.values()) == 70
    assert [p.name for p in report.processes][:servers] == [
        f"server-{n + 1}" for n in range(servers)
    ]
    for process in report.processes:
        assert len(process.rss_mb) >= 2 and all(rss for _at, rss in process.rss_mb)
        assert len(process.connections) == len(process.rss_mb)
    held = [process.most_connections() for process in report.processes[:servers]]
    if postgres:  # each server answered page views: it holds a connection of its own
        assert report.connection_bound == soak.connection_bound()
        assert all(count >= 1 for count in held)
    else:
        assert report.connection_bound is None
        assert all(count > 10 for count in held)  # its sockets and files
