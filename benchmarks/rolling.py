"""``manage.py loadtest --rolling-restart``: a rolling restart of the servers under load.

N Belote tables of four websocket clients play through nginx (the repository's site file,
:mod:`benchmarks.proxy`) in front of the servers, one move per table every ``pace`` seconds, as
in :mod:`benchmarks.load`. A while into the window each server in turn is stopped with SIGTERM
(as systemd stops one), started again on its port and waited for, like ``systemctl restart
cardroom-web@PORT`` one port after the other. The clients reconnect through the proxy as the
page does. A move sent on a socket the restart closed is either applied (every client sees it
after reconnecting) or was dropped unread (the sender's fresh view shows the old version: the
table moves on, as a player would click again). At the end every table's moves in the database
are compared with what its clients saw: none lost, none applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.core.management import call_command
from django.db.models import Count
from django.test import override_settings

from cardroom.nginx import Proxy
from games.models import Match, Move

from . import load
from .stats import percentile

#: Seconds of play before the first server is stopped, and after the last is back.
SETTLE_SECONDS = 10.0
#: Seconds between one server answering again and the next one's stop: more than the site's
#: fail_timeout, for which nginx leaves out a server that refused connections while it stopped.
RESTART_GAP = 6.0
#: The page's reconnection delays (the htmx ws extension's "full jitter": the n-th attempt
#: waits a random time up to this many seconds times 2**n, n capped at 6).
RECONNECT_SECONDS, RECONNECT_MOST_DOUBLINGS = 1.0, 6
#: Attempts at each socket's first connection.
CONNECT_ATTEMPTS = 30
#: Sockets connecting at once before play: each handshake reads the session and renders the
#: table, and a server that takes longer than its handshake timeout refuses it.
CONNECT_CONCURRENCY = 10
TOKEN_RE = re.compile(r'id="page-token" hidden data-token="([^"]*)"')
#: The share of their pace's moves the tables must send over the restarts.
KEPT_MOVING = 0.75
#: nginx's connections: each client socket holds one to the client and one to a server.
PROXY_CONNECTIONS = 16_384


@dataclass
class Tally:
    """What the clients saw over the window."""

    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)
    sent: int = 0
    dropped: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closes: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    #: Seconds from each socket's close to the first frame on its new socket.
    back: list[float] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Player:
    """One page's socket to a table: reconnects through the proxy after a close, as the page."""

    def __init__(self, table: RollingTable, index: int, url: str, cookie: str) -> None:
        self.table = table
        self.index = index
        self.url = url
        self.cookie = cookie
        self.socket: Any = None
        self.version = -1
        self.actions: list[str] = []
        #: Set after a reconnect until the server's first (full) view arrives.
        self.fresh = False
        #: Whether the socket is open (the page sends nothing while it reconnects).
        self.connected = False
        self.closed_at = 0.0
        self.token = ""
        self.task: asyncio.Task | None = None

    async def open(self) -> None:
        # As the page does (static/js/reconnect.js): the socket names what the page shows.
        url = f"{self.url}?token={quote(self.token)}" if self.token else self.url
        self.socket = await load.open_socket(url, self.cookie)
        self.connected = True

    async def read(self) -> None:
        """Take frames; after a close, reconnect (growing delays) and take frames again."""
        while not self.table.closing:
            code = None
            try:
                async for frame in self.socket:
                    self.table.on_frame(self, frame)
                code = self.socket.close_code
            except Exception:
                code = getattr(self.socket, "close_code", None)
            self.connected = False
            self.closed_at = time.perf_counter()
            if self.table.closing:
                return
            key = str(code)
            self.table.tally.closes[key] = self.table.tally.closes.get(key, 0) + 1
            self.table.on_lost(self)
            attempt = 0
            while not self.table.closing:
                longest = RECONNECT_SECONDS * 2 ** min(attempt, RECONNECT_MOST_DOUBLINGS)
                await asyncio.sleep(self.table.rng.random() * longest)
                attempt += 1
                try:
                    await self.open()
                except Exception as error:
                    # Why, in short: nginx's 502, a timeout, a refused connection.
                    reason = f"{type(error).__name__}: {str(error)[:60]}"
                    self.table.tally.error(f"reconnect refused ({reason})")
                    continue
                self.fresh = True
                self.table.tally.reconnects += 1
                break


class RollingTable:
    """Four players; one move every ``pace`` seconds; each move's fate is known."""

    def __init__(self, code: str, tally: Tally, rng: random.Random) -> None:
        self.code = code
        self.tally = tally
        self.rng = rng
        self.players: list[Player] = []
        self.closing = False
        #: The move in flight: (version it leads to, when it was sent, its sender, who has it).
        self.pending: tuple[int, float, Player, set[int]] | None = None
        self.changed = asyncio.Event()
        #: Moves whose update every player saw; moves sent; moves a restart dropped unread.
        self.applied = 0
        self.sent = 0
        self.dropped = 0

    def on_frame(self, player: Player, frame: str) -> None:
        found = load.VERSION_RE.search(frame)
        if found:
            player.version = int(found.group(1))
        token = TOKEN_RE.search(frame)
        if token:
            player.token = token.group(1)
        if 'id="my-area"' in frame:
            player.actions = load.ACTION_RE.findall(frame)
        flash = load.FLASH_RE.search(frame)
        if flash:
            self.tally.error(f"refused: {flash.group(1).strip()[:60]}")
        full = 'id="connection"' in frame
        if full and player.fresh:
            self.tally.back.append(time.perf_counter() - player.closed_at)
        if self.pending is not None:
            target, sent, sender, have = self.pending
            if player.version >= target:
                have.add(player.index)
                if len(have) == len(self.players):
                    self.tally.latencies.append((sent, time.perf_counter() - sent))
                    self.applied += 1
                    self.pending = None
            elif player is sender and player.fresh and full:
                # Its socket closed before the move was read: the restart dropped it unread.
                self.tally.dropped += 1
                self.dropped += 1
                self.pending = None
            elif player is sender and flash:
                self.pending = None
        if full:
            player.fresh = False
        self.changed.set()

    def on_lost(self, player: Player) -> None:
        self.changed.set()

    def settled(self) -> bool:
        """No move in flight, and every player shows the same version on an open socket (a
        page whose first frame has not come shows none)."""
        versions = {p.version for p in self.players}
        return (
            self.pending is None
            and len(versions) == 1
            and -1 not in versions
            and all(p.connected and not p.fresh for p in self.players)
        )

    async def until_settled(self, limit: float) -> bool:
        deadline = time.monotonic() + limit
        while not self.settled():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def mover(self) -> Player | None:
        """The player whose page offers moves (waiting a while for its frame)."""
        deadline = time.monotonic() + load.MOVE_TIMEOUT
        while True:
            self.changed.clear()
            found = next((p for p in self.players if p.actions), None)
            left = deadline - time.monotonic()
            if found is not None or left <= 0:
                return found
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def run(self, start: float, end: float, pace: float) -> None:
        loop = asyncio.get_running_loop()
        due = start
        while True:
            await asyncio.sleep(max(0.0, due - loop.time()))
            if loop.time() >= end:
                return
            if not await self.until_settled(load.MOVE_TIMEOUT):
                self.tally.error("timeout")
                self.pending = None
                continue
            if loop.time() >= end:
                return
            mover = await self.mover()
            if mover is None:
                self.tally.error("no move offered")
                return
            action = self.rng.choice(mover.actions)
            text = json.dumps({"op": "play", "action": action, "version": str(mover.version)})
            self.pending = (mover.version + 1, time.perf_counter(), mover, set())
            self.tally.sent += 1
            self.sent += 1
            try:
                await mover.socket.send(text)
            except Exception:  # closing under it: its fresh view will tell
                mover.fresh = True
            due = max(due + pace, loop.time())


@dataclass
class Restart:
    """One server's restart: seconds from SIGTERM to its exit, and until it answered again."""

    port: int
    stop_s: float
    back_s: float
    exit_code: int | None


@dataclass
class RollingReport:
    tables: int
    pace: float
    duration: float
    servers: int
    sent: int
    applied: int
    dropped_unread: int
    lost: int
    doubled: int
    unsettled_tables: int
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    restart_p95_ms: float | None
    restart_max_ms: float | None
    #: p50 and p95 of the moves sent before the first stop (ms): the load without restarts.
    before_ms: tuple[float | None, float | None]
    restart_moves: int
    #: The moves the tables would have sent over the restarts at their pace.
    restart_pace_moves: int
    #: Seconds from a socket's close to its page's fresh frame: p50, p95, max.
    back_s: tuple[float | None, float | None, float | None]
    restarts: list[Restart]
    reconnects: int
    closes: dict[str, int]
    errors: dict[str, int]

    @property
    def holds(self) -> bool:
        return (
            not self.lost
            and not self.doubled
            and not self.unsettled_tables
            and self.restart_p95_ms is not None
            and self.restart_p95_ms < 1000
            # Every table kept moving: none waited a whole move timeout for its players.
            and not self.errors.get("timeout")
            and self.restart_moves >= KEPT_MOVING * self.restart_pace_moves
            and all(r.exit_code == 0 for r in self.restarts)
        )

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "holds": self.holds}


def format_report(report: RollingReport) -> str:
    lines = [
        f"{report.tables} tables of four, a move every {report.pace:g} s for "
        f"{report.duration:g} s, through nginx in front of {report.servers} servers, each "
        "restarted in turn (SIGTERM, started again)",
        f"moves sent {report.sent}, seen applied by all four {report.applied}, dropped unread "
        "by a restart "
        f"{report.dropped_unread} (made again); lost {report.lost}, applied twice "
        f"{report.doubled}, tables whose players disagree with the database "
        f"{report.unsettled_tables}",
        f"latency over the window: p50 {report.p50_ms} ms, p95 {report.p95_ms} ms, "
        f"p99 {report.p99_ms} ms, max {report.max_ms} ms",
        f"before the restarts: p50 {report.before_ms[0]} ms, p95 {report.before_ms[1]} ms",
        f"moves sent during the restarts: {report.restart_moves} (at the tables' pace "
        f"{report.restart_pace_moves}), p95 {report.restart_p95_ms} ms, max "
        f"{report.restart_max_ms} ms",
        "a page back after its socket closed: p50 {}, p95 {}, max {} s".format(
            *(None if x is None else round(x, 2) for x in report.back_s)
        ),
        f"reconnects {report.reconnects}, close codes {report.closes}",
    ]
    for r in report.restarts:
        lines.append(
            f"server :{r.port}: exited {r.stop_s:.2f} s after SIGTERM (code {r.exit_code}), "
            f"answering again {r.back_s:.2f} s after it"
        )
    if report.errors:
        lines.append(f"errors: {report.errors}")
    lines.append("holds" if report.holds else "does not hold")
    return "\n".join(lines)


async def restart_in_turn(
    servers: list[subprocess.Popen], ports: list[int], database_url: str
) -> list[Restart]:
    """Stop each server with SIGTERM, start it again on its port, wait for it, then the next."""
    done = []
    for index, port in enumerate(ports):
        began = time.monotonic()
        servers[index].terminate()
        code = await asyncio.to_thread(servers[index].wait, 60)
        stopped = time.monotonic() - began
        servers[index] = await asyncio.to_thread(load.start_server, database_url, port)
        done.append(Restart(port, stopped, time.monotonic() - began, code))
        await asyncio.sleep(RESTART_GAP)
    return done


async def play(
    seatings: list[load.Seating],
    base: str,
    servers: list[subprocess.Popen],
    ports: list[int],
    pace: float,
    duration: float,
    seed: int,
    database_url: str,
    say: Any,
) -> tuple[list[RollingTable], Tally, list[Restart], tuple[float, float]]:
    tally = Tally()
    rng = random.Random(seed)
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    tables = []
    for seated in seatings:
        table = RollingTable(seated.code, tally, rng)
        table.players = [
            Player(table, i, f"{base}/ws/table/{seated.code}/", cookie)
            for i, cookie in enumerate(seated.cookies)
        ]
        tables.append(table)

    async def connect(player: Player) -> None:
        for attempt in range(CONNECT_ATTEMPTS):
            async with gate:
                try:
                    await player.open()
                    break
                except Exception:
                    if attempt == CONNECT_ATTEMPTS - 1:
                        raise
            await asyncio.sleep(rng.random())  # the connect storm: nginx may answer 502
        player.task = asyncio.get_running_loop().create_task(player.read())

    await asyncio.gather(*(connect(p) for t in tables for p in t.players))
    await asyncio.gather(*(t.until_settled(60) for t in tables))
    tally.errors.clear()
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.05
    end = start + duration
    say(f"playing for {duration:g} s; the restarts begin after {SETTLE_SECONDS:g} s")
    playing = asyncio.gather(*(t.run(start + rng.random() * pace, end, pace) for t in tables))
    await asyncio.sleep(SETTLE_SECONDS)
    window_start = time.perf_counter()
    restarts = await restart_in_turn(servers, ports, database_url)
    window = (window_start, time.perf_counter())
    say("restarted: " + ", ".join(f":{r.port} in {r.back_s:.1f} s" for r in restarts))
    await playing
    await asyncio.gather(*(t.until_settled(load.MOVE_TIMEOUT) for t in tables))
    for table in tables:
        table.closing = True
    closings = [p.socket.close() for t in tables for p in t.players if p.socket is not None]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*closings, return_exceptions=True), 10)
    for player in (p for t in tables for p in t.players):
        if player.task is not None:
            player.task.cancel()
    return tables, tally, restarts, window


def players_moves(seatings: list[load.Seating]) -> dict[str, int]:
    """The players' moves in the database, by table."""
    rows = (
        Move.objects.filter(match__table__code__in=[s.code for s in seatings], user__isnull=False)
        .values("match__table__code")
        .annotate(count=Count("pk"))
    )
    return {row["match__table__code"]: row["count"] for row in rows}


def run(
    tables: int, *, pace: float, duration: float, servers: int, seed: int, say: Any
) -> RollingReport:
    """Seat the tables, start the servers and nginx, play through the restarts, compare."""
    if duration < 2 * SETTLE_SECONDS + servers * 10:
        raise ValueError(f"--duration must leave room for {servers} restarts")
    database_url = os.environ["DATABASE_URL"]
    say(f"creating {4 * tables} users and seating {tables} tables")
    cookies = load.make_players(4 * tables)
    seatings = load.seat_tables(cookies, tables)
    before = players_moves(seatings)
    started: list[subprocess.Popen] = []
    proxy: Proxy | None = None
    with tempfile.TemporaryDirectory(prefix="cardroom-static-") as static:
        with override_settings(STATIC_ROOT=static):
            call_command("collectstatic", interactive=False, verbosity=0)
        try:
            ports = [load.free_port() for _ in range(servers)]
            for port in ports:
                started.append(load.start_server(database_url, port, TRUSTED_PROXIES="1"))
            proxy = Proxy(ports, Path(static), connections=PROXY_CONNECTIONS)
            proxy.start()
            say(f"nginx at {proxy.url} in front of {', '.join(map(str, ports))}")
            base = f"ws://127.0.0.1:{proxy.port}"
            played, tally, restarts, window = asyncio.run(
                play(seatings, base, started, ports, pace, duration, seed, database_url, say)
            )
        finally:
            if proxy is not None:
                proxy.close()
            for server in started:
                load.stop_server(server)
    after = players_moves(seatings)
    codes = [t.code for t in played]
    shown = dict(Match.objects.filter(table__code__in=codes).values_list("table__code", "version"))
    lost = doubled = unsettled = 0
    for table in played:
        made = after.get(table.code, 0) - before.get(table.code, 0)
        # More moves than were sent and not dropped: one applied twice. Fewer than every
        # player saw: one lost (a move that timed out may have been applied or not).
        doubled += max(0, made - (table.sent - table.dropped))
        lost += max(0, table.applied - made)
        versions = {p.version for p in table.players}
        if versions != {shown[table.code]}:
            unsettled += 1
    latencies = [latency for _, latency in tally.latencies]
    during = [latency for sent, latency in tally.latencies if window[0] <= sent <= window[1]]
    before = [latency for sent, latency in tally.latencies if sent < window[0]]
    load.close_seatings(seatings)
    return RollingReport(
        tables=tables,
        pace=pace,
        duration=duration,
        servers=servers,
        sent=tally.sent,
        applied=sum(t.applied for t in played),
        dropped_unread=tally.dropped,
        lost=lost,
        doubled=doubled,
        unsettled_tables=unsettled,
        p50_ms=load.ms(percentile(latencies, 0.50)),
        p95_ms=load.ms(percentile(latencies, 0.95)),
        p99_ms=load.ms(percentile(latencies, 0.99)),
        max_ms=load.ms(max(latencies, default=None)),
        restart_p95_ms=load.ms(percentile(during, 0.95)),
        restart_max_ms=load.ms(max(during, default=None)),
        before_ms=(load.ms(percentile(before, 0.50)), load.ms(percentile(before, 0.95))),
        restart_moves=len(during),
        restart_pace_moves=int(tables * (window[1] - window[0]) / pace),
        back_s=(
            percentile(tally.back, 0.50),
            percentile(tally.back, 0.95),
            max(tally.back, default=None),
        ),
        restarts=restarts,
        reconnects=tally.reconnects,
        closes=tally.closes,
        errors=tally.errors,
    )
