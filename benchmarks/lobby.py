"""The lobby benchmark behind ``python manage.py bench lobby`` (a measurement, never a test).

A daphne server (started as ``manage.py loadtest`` starts it) lists ``tables`` public tables to
``lobby_sockets`` lobby sockets, each reading its frames. One socket floods a public table with
the worst frames its frame budget lets through (a burst, then the budget's rate): taking a
seat, sitting on the seat it holds, leaving, in turn. Meanwhile four players play a started
Belote table, one move at a time; a move's round trip is the time from sending it to the
mover's own frame showing the next version. Traffic goes only to 127.0.0.1 and every loop is
bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.live.consumers import FRAME_BURST, FRAME_RATE
from games.models import Table
from games.tables import matches, rows, seating

from . import load
from .stats import percentile

#: Public tables listed in the lobby (the lobby shows this many at most).
LOBBY_TABLES = 50
LOBBY_SOCKETS = 80
#: The measured table never ends within a run (its match is played to a far target).
MEASURED_OPTIONS = {"target": 100_000, "declarations": "separate", "finish_with_hanging": True}
#: The flooding socket's frames, in turn: a real change, a change of nothing, a real change.
FLOOD_FRAMES = ({"op": "sit", "seat": "0"}, {"op": "sit", "seat": "0"}, {"op": "leave"})
#: The flood's spacing after its burst, as a share of the budget's (a little slower: the
#: budget is counted where the server reads the frames, not where they are sent).
FLOOD_SLACK = 1.1
#: Pause between a move reaching all four players and the next move.
MOVE_PAUSE = 0.05


@dataclass
class Setup:
    """What the server is asked to serve: the cookies and table codes of each role."""

    lobby_cookies: list[str]
    flood_cookie: str
    flood_code: str
    player_cookies: list[str]
    player_code: str


def prepare(lobby_sockets: int, table_count: int) -> Setup:
    """Create the users, the public tables (the flood's among them) and the measured table."""
    count = 5 + lobby_sockets + table_count - 1  # players, flooder, watchers, owners
    cookies = load.make_players(count)
    names = [f"{load.USER_PREFIX}{index:05d}" for index in range(count)]
    users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
    people = [users[name] for name in names]
    players, flooder, owners = people[:4], people[4], people[5 + lobby_sockets :]
    close_bench_tables()
    with transaction.atomic():
        measured = rows.create_table(players[0], "belote", MEASURED_OPTIONS, is_private=True)
        for seat, user in enumerate(players):
            seating.take_seat(measured.pk, user, seat)
        matches.start_match(measured.pk, players[0])
        for number, owner in enumerate(owners):
            table = rows.create_table(owner, "belote", MEASURED_OPTIONS, is_private=False)
            if number % 2 == 0:  # half the tables wait with nobody seated
                seating.leave_seat(table.pk, owner)
        flood = rows.create_table(flooder, "belote", MEASURED_OPTIONS, is_private=False)
        seating.leave_seat(flood.pk, flooder)  # the flood starts by sitting down
    watchers = cookies[5 : 5 + lobby_sockets]
    return Setup(watchers, cookies[4], flood.code, cookies[:4], measured.code)


def close_bench_tables() -> None:
    """Close the tables earlier runs left open (the lobby would list them too)."""
    load.abort_tables(
        Table.objects.filter(owner__username__startswith=load.USER_PREFIX).exclude(
            status__in=[Table.Status.ABORTED, Table.Status.FINISHED]
        )
    )


# -- the clients ---------------------------------------------------------------------------------


class Reader:
    """One socket's frames, counted (in the measured window too), with a wake-up per frame."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.frames = 0
        self.window: tuple[float, float] | None = None
        self.in_window = 0
        self.closed_code: int | None = None
        self.arrived = asyncio.Event()

    def on_frame(self, frame: str) -> None:
        """Hook for subclasses: read what the frame shows."""

    async def read(self) -> None:
        """Take frames until the socket closes."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self.socket:
                self.frames += 1
                now = time.monotonic()
                if self.window is not None and self.window[0] <= now <= self.window[1]:
                    self.in_window += 1
                self.on_frame(frame if isinstance(frame, str) else frame.decode())
                self.arrived.set()
        except ConnectionClosed:
            pass
        close = getattr(self.socket, "close_code", None)
        self.closed_code = close if close is not None else 1006
        self.arrived.set()

    async def wait_for(self, done: Any, timeout: float) -> bool:
        """Wait (``timeout`` seconds at most) until ``done()`` holds; whether it does."""
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0 or self.closed_code is not None:
                return done()
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)
        return True


class Player(Reader):
    """A player's socket: the version its page plays at and the moves its buttons offer."""

    def __init__(self, socket: Any) -> None:
        super().__init__(socket)
        self.version = -1
        self.actions: list[str] = []
        self.refused = 0

    def on_frame(self, frame: str) -> None:
        found = load.VERSION_RE.search(frame)
        if found:
            self.version = int(found.group(1))
        if 'id="my-area"' in frame:
            self.actions = load.ACTION_RE.findall(frame)
        if load.FLASH_RE.search(frame):
            self.refused += 1


@dataclass
class Result:
    """What one run measured."""

    database: str
    channel_layer: str
    duration: float
    lobby_sockets: int
    tables: int
    moves: int = 0
    p50_ms: float | None = None
    p95_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    move_errors: dict[str, int] = field(default_factory=dict)
    flood_frames: int = 0
    #: Times the server cut the flooding socket off (it reconnects at once).
    flood_closes: int = 0
    lobby_frames_mean: float | None = None
    lobby_frames_max: int | None = None
    lobby_closed: int = 0
    server_cpu_pct: float | None = None

    def error(self, kind: str) -> None:
        """Count a move that went wrong."""
        self.move_errors[kind] = self.move_errors.get(kind, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarise_lobby(counts: list[int]) -> tuple[float | None, int | None]:
    """Return the mean and the most frames a lobby socket received in the window."""
    if not counts:
        return None, None
    return round(sum(counts) / len(counts), 1), max(counts)


def flood_due(start: float, number: int) -> float:
    """Return when a connection's flood frame ``number`` (from 0) goes: a burst of the whole
    budget at ``start``, then one frame per token as the budget refills (FLOOD_SLACK slower)."""
    return start + max(0, number - FRAME_BURST + 1) * FLOOD_SLACK / FRAME_RATE


async def flood(base: str, setup: Setup, end: float, result: Result) -> None:
    """Send the flood's frames until ``end``, reconnecting when the server cuts it off."""
    from websockets.exceptions import ConnectionClosed

    url = f"{base}/ws/table/{setup.flood_code}/"
    sent = 0
    while time.monotonic() < end:
        reader = Reader(await load.open_socket(url, setup.flood_cookie))
        reading = asyncio.get_running_loop().create_task(reader.read())
        start = time.monotonic()
        try:
            for number in itertools.count():
                due = flood_due(start, number)
                if due >= end:
                    return
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if reader.closed_code is not None:
                    break
                await reader.socket.send(json.dumps(FLOOD_FRAMES[sent % len(FLOOD_FRAMES)]))
                sent += 1
                result.flood_frames += 1
        except ConnectionClosed:
            pass
        finally:
            await reader.socket.close()
            await reading
        result.flood_closes += 1


async def play_moves(players: list[Player], end: float, result: Result) -> list[float]:
    """Make one move at a time until ``end``; return each move's round trip to its mover."""
    latencies: list[float] = []
    rng = random.Random(1)
    while time.monotonic() < end:
        version = max(p.version for p in players)
        movers = [p for p in players if p.actions and p.version == version]
        if not movers:
            result.error("no move offered")
            return latencies
        mover, refused = movers[0], movers[0].refused
        sent = time.perf_counter()
        await mover.socket.send(
            json.dumps({"op": "play", "action": rng.choice(mover.actions), "version": str(version)})
        )
        if not await mover.wait_for(
            lambda m=mover, v=version, r=refused: m.version > v or m.refused > r,
            load.MOVE_TIMEOUT,
        ):
            result.error("timeout")
            return latencies
        if mover.version <= version:
            result.error("refused")
            continue
        latencies.append(time.perf_counter() - sent)
        for player in players:  # the next mover must know its moves
            await player.wait_for(lambda p=player, v=version: p.version > v, load.MOVE_TIMEOUT)
        await asyncio.sleep(MOVE_PAUSE)
    return latencies


async def measure(
    base: str, setup: Setup, duration: float, pids: list[int], result: Result
) -> None:
    """Connect everyone, wait for the server to settle, then measure for ``duration`` s."""
    loop = asyncio.get_running_loop()
    lobby_url = f"{base}/ws/lobby/"
    gate = asyncio.Semaphore(load.CONNECT_CONCURRENCY)

    async def opened(url: str, cookie: str) -> Any:
        async with gate:
            return await load.open_socket(url, cookie)

    lobby = [
        Reader(s)
        for s in await asyncio.gather(
            *(opened(lobby_url, cookie) for cookie in setup.lobby_cookies)
        )
    ]
    table_url = f"{base}/ws/table/{setup.player_code}/"
    players = [Player(await load.open_socket(table_url, cookie)) for cookie in setup.player_cookies]
    readers = [*lobby, *players]
    tasks = [loop.create_task(r.read()) for r in readers]
    try:
        for reader in lobby:
            await reader.wait_for(lambda r=reader: r.frames > 0, load.MOVE_TIMEOUT)
        for player in players:
            await player.wait_for(lambda p=player: p.version >= 0, load.MOVE_TIMEOUT)
        await load.wait_until_idle(pids)
        cpu_before = load.cpu_seconds(pids)
        start = time.monotonic()
        end = start + duration
        for reader in lobby:
            reader.window = (start, end)
        latencies, _ = await asyncio.gather(
            play_moves(players, end, result), flood(base, setup, end, result)
        )
        elapsed = time.monotonic() - start
        cpu_after = load.cpu_seconds(pids)
    finally:
        for reader in readers:
            await reader.socket.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    result.moves = len(latencies)
    result.p50_ms = load.ms(percentile(latencies, 0.50))
    result.p95_ms = load.ms(percentile(latencies, 0.95))
    result.p99_ms = load.ms(percentile(latencies, 0.99))
    result.max_ms = load.ms(max(latencies, default=None))
    result.lobby_frames_mean, result.lobby_frames_max = summarise_lobby(
        [reader.in_window for reader in lobby]
    )
    result.lobby_closed = sum(1 for reader in lobby if reader.closed_code not in (None, 1000))
    if cpu_before is not None and cpu_after is not None:
        result.server_cpu_pct = round(100 * (cpu_after - cpu_before) / elapsed, 1)


def run(*, duration: float, lobby_sockets: int, table_count: int, say: Any) -> Result:
    """Start a server on ``DATABASE_URL``, set the tables up, measure, stop the server."""
    database, layer = load.describe_setup()
    result = Result(database, layer, duration, lobby_sockets, table_count)
    say(f"creating {4 + lobby_sockets + table_count} users and {table_count + 1} tables")
    setup = prepare(lobby_sockets, table_count)
    port = load.free_port()
    server = load.start_server(os.environ["DATABASE_URL"], port)
    say(f"started daphne (pid {server.pid}) at 127.0.0.1:{port}; measuring for {duration:g} s")
    try:
        base = load.websocket_base(f"http://127.0.0.1:{port}")
        asyncio.run(measure(base, setup, duration, [server.pid], result))
    finally:
        load.stop_server(server)
        close_bench_tables()
    return result


def format_result(result: Result) -> str:
    """Return the plain-text report printed at the end of a run."""

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    return "\n".join(
        [
            f"database {result.database}, channel layer {result.channel_layer}, "
            f"{result.duration:g} s, {result.tables} public tables, "
            f"{result.lobby_sockets} lobby sockets",
            f"moves {result.moves}: round trip p50 {ms(result.p50_ms)} ms, "
            f"p95 {ms(result.p95_ms)} ms, p99 {ms(result.p99_ms)} ms, max {ms(result.max_ms)} ms"
            + (f", errors {result.move_errors}" if result.move_errors else ""),
            f"flood: {result.flood_frames} frames, cut off {result.flood_closes} times",
            f"lobby frames per socket: mean {result.lobby_frames_mean}, "
            f"max {result.lobby_frames_max}; closed sockets {result.lobby_closed}",
            f"server cpu {ms(result.server_cpu_pct)}%",
        ]
    )
