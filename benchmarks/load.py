"""The load benchmark behind ``python manage.py loadtest`` (a measurement, never a timed test).

N Belote tables, each with four real websocket clients logged in like a browser (a session
cookie and an ``Origin`` header), are driven at a fixed pace: every table makes one move every
``pace`` seconds, sent by whichever client's frame offers playable actions. A move's latency is
the time from sending it to all four clients having a frame with the next version. The same
paced load against a bare group fan-out (:mod:`benchmarks.floor`) on the same server is
the floor. Before each measured window, once the server is idle after the step's sockets
connected, each server runs a full garbage collection (its pause is reported as "gc ms"), so
the window measures play at that load and not, in some runs, the connect storm's collection.
Traffic goes only to 127.0.0.1 and every loop is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Table
from games.tables import matches, rows, seating

from .move_path import session_cookie
from .stats import percentile

#: The sweep of table counts run when ``--tables`` is not given.
DEFAULT_SWEEP = (25, 50, 100, 200, 400)
#: The floor's capacity: this many floor tables driven unpaced (each table's next move is sent
#: as soon as all four sockets have the last one), reported as moves/s.
CAPACITY_TABLES = 25
#: The benchmark's server never covers a player who left within this many seconds (a day).
AWAY_GRACE_SECONDS = 86_400
#: p95 latency (ms) under which a load counts as sustained, for the knee.
KNEE_P95_MS = 100.0
#: Share of the paced rate a step must achieve to count for the knee.
KNEE_RATE_SHARE = 0.9
BELOTE_OPTIONS = {"target": 151, "declarations": "separate", "finish_with_hanging": True}
#: A move whose update hasn't reached all four clients after this long is an error.
MOVE_TIMEOUT = 10.0
#: How the bot worker is started (README: on a machine shared with servers, a bot worker takes
#: only the CPU they leave: Linux's idle scheduling class, not a niceness, which still takes turns).
BOT_WORKER_PRIORITY = ["chrt", "--idle", "0"]
CONNECT_TIMEOUT = 30.0
#: Connections opened at once while a step connects its clients.
CONNECT_CONCURRENCY = 40
#: How often the human at a table of computer players looks whether it is their turn.
BOT_TABLE_POLL = 0.02
#: Seconds the tables of computers play before a step measures: seated at one instant, their
#: computers' first round all comes at once, as no site's tables ever do.
BOT_WARM_UP = 10.0
USER_PREFIX = "load-"

VERSION_RE = re.compile(r'name="version" value="(\d+)"')
ACTION_RE = re.compile(r'ws-send name="action" value="([^"]+)"')
FLASH_RE = re.compile(r'class="flash flash-visible"[^>]*>([^<]*)<')


# -- setting up users and tables (sync, through Django) ----------------------------------------


@dataclass
class Seating:
    """One table ready to play: its invite code and its four players' cookies."""

    code: str
    cookies: list[str]


def make_players(count: int) -> list[str]:
    """Session cookies for ``count`` load-test users (created once, reused by every step)."""
    model = get_user_model()
    names = [f"{USER_PREFIX}{index:05d}" for index in range(count)]
    existing = set(model.objects.filter(username__in=names).values_list("username", flat=True))
    fresh = []
    for name in names:
        if name not in existing:
            user = model(username=name)
            user.set_unusable_password()
            fresh.append(user)
    with transaction.atomic():
        model.objects.bulk_create(fresh)
        users = {user.username: user for user in model.objects.filter(username__in=names)}
        return [session_cookie(users[name]) for name in names]


def seat_tables(cookies: list[str], count: int) -> list[Seating]:
    """Open ``count`` Belote tables, seat four load-test users at each and start the match."""
    model = get_user_model()
    names = [f"{USER_PREFIX}{index:05d}" for index in range(4 * count)]
    users = {user.username: user for user in model.objects.filter(username__in=names)}
    seatings = []
    with transaction.atomic():
        for number in range(count):
            players = [users[names[4 * number + seat]] for seat in range(4)]
            table = rows.create_table(players[0], "belote", BELOTE_OPTIONS, is_private=True)
            for seat, user in enumerate(players):
                seating.take_seat(table.pk, user, seat)
            matches.start_match(table.pk, players[0])
            seatings.append(Seating(table.code, cookies[4 * number : 4 * number + 4]))
    return seatings


def seat_bot_tables(cookies: list[str], count: int, level: str) -> list[Seating]:
    """Open ``count`` Belote tables of one load-test user and three computer players of
    ``level`` (the users after the four-player tables'), and start their matches."""
    model = get_user_model()
    names = [f"{USER_PREFIX}{index:05d}" for index in range(len(cookies) - count, len(cookies))]
    users = {user.username: user for user in model.objects.filter(username__in=names)}
    seatings = []
    with transaction.atomic():
        for number, name in enumerate(names):
            table = rows.create_table(users[name], "belote", BELOTE_OPTIONS, is_private=True)
            table.seats.exclude(index=0).update(bot_level=level)
            matches.start_match(table.pk, users[name])
            seatings.append(Seating(table.code, [cookies[len(cookies) - count + number]]))
    return seatings


def abort_tables(tables_: Any) -> None:
    """Close the tables of a queryset, as a moderator would (their live views are told)."""
    for table_id in tables_.values_list("pk", flat=True):
        rows.abort_table(table_id)


def close_seatings(seatings: list[Seating]) -> None:
    """Close a step's tables once it is measured: otherwise, with their players gone, covering
    computer players would play their matches out and load the server during the next step."""
    abort_tables(Table.objects.filter(code__in=[s.code for s in seatings]))


# -- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of the server the benchmark starts: production mode (``extra``: more
    variables, e.g. ``PGAPPNAME`` to tell its database connections apart)."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        # The command signs the session cookies it makes: the server must share its key.
        SECRET_KEY=settings.SECRET_KEY,
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # A step's players all leave when it ends, and the tables are closed from this process,
        # which a server on the in-memory layer never hears of: once the usual grace ran out,
        # every table's driver would wake to cover its absent players (a bot decision and a
        # read each, all at once) inside the next step's window.
        AWAY_GRACE_SECONDS=str(AWAY_GRACE_SECONDS),
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="cardroom.settings",
        **extra,
    )
    return env


def start_worker(database_url: str, **env: str) -> subprocess.Popen:
    """Start a bot worker (``manage.py runworker bot-moves``) for the servers started here
    (``env``: more environment variables), at a lower priority as README advises: computers
    think with what the people's moves leave."""
    command = [*BOT_WORKER_PRIORITY, sys.executable, "manage.py", "runworker", "bot-moves"]
    return subprocess.Popen(command, cwd=settings.BASE_DIR, env=server_env(database_url, **env))


def start_server(database_url: str, port: int, **env: str) -> subprocess.Popen:
    """Start daphne on 127.0.0.1:``port`` with the site and the floor (``benchmarks.asgi``) and
    wait (30 s at most) until it accepts connections (``env``: more environment variables)."""
    # daphne as production runs it (cardroom.server: a SIGTERM closes sockets as a restart).
    command = [sys.executable, "-m", "cardroom.server", "-v", "0", "-b", "127.0.0.1"]
    command += ["--application-close-timeout", "60", "--websocket_connect_timeout", "30"]
    command += ["-p", str(port)]
    command.append("benchmarks.asgi:application")
    environment = server_env(database_url, **env)
    server = subprocess.Popen(command, cwd=settings.BASE_DIR, env=environment)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with code {server.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return server
        time.sleep(0.2)
    stop_server(server)
    raise RuntimeError("daphne did not start within 30 s")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server this benchmark started."""
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(5)


def _summed(pids: list[int], measure: Any) -> float | None:
    """``measure(pid)`` summed over the server processes ``pids`` (None when unknown)."""
    try:
        return sum(measure(pid) for pid in pids) if pids else None
    except (OSError, ValueError, IndexError):  # gone, or /proc unreadable
        return None


def _rss_mb(pid: int) -> float:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return next((int(x.split()[1]) / 1024 for x in lines if x.startswith("VmRSS:")), 0.0)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pids: list[int]) -> float | None:
    """Resident memory of the server processes ``pids``, summed, in MiB (None when unknown)."""
    return _summed(pids, _rss_mb)


def cpu_seconds(pids: list[int]) -> float | None:
    """CPU time (user + system) the server processes ``pids`` have used so far, summed."""
    return _summed(pids, _cpu_seconds)


def browser_headers(url: str) -> dict[str, str]:
    """The ``Origin`` a browser on the site's own page sends with a socket to ``url``."""
    return {"Origin": "http://" + urlsplit(url).netloc}


async def collect_garbage(bases: list[str]) -> float | None:
    """Have each server run a full garbage collection (``/ws/bench-collect/``); the longest
    pause in milliseconds, or None if a server did not answer."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    pauses = []
    for base in bases:
        url = base + "/ws/bench-collect/"
        try:
            async with connect(url, additional_headers=browser_headers(url)) as socket:
                pauses.append(json.loads(await asyncio.wait_for(socket.recv(), 60))["ms"])
        except (OSError, TimeoutError, ValueError, KeyError, WebSocketException):
            return None
    return round(max(pauses), 1) if pauses else None


async def wait_until_idle(pids: list[int], limit: float = 30.0) -> None:
    """Wait until the servers spend under 10% of a core (they have drained earlier work)."""
    if not pids:
        await asyncio.sleep(2)
        return
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = cpu_seconds(pids) or 0.0
        await asyncio.sleep(0.5)
        if (cpu_seconds(pids) or 0.0) - before < 0.05:
            return


async def warm_up(tables: list[BotTable], pace: float, seconds: float = BOT_WARM_UP) -> None:
    """Let the tables of computers play for ``seconds``."""
    start = asyncio.get_running_loop().time()
    await asyncio.gather(*(t.run(start, start + seconds, pace) for t in tables))


# -- clients -------------------------------------------------------------------------------------


@dataclass
class Totals:
    """What one step observed."""

    latencies: list[float] = field(default_factory=list)
    #: Moves the pace asked for in the measured window (the ideal count).
    scheduled: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    #: Moves the computer players made in the window (tables of one human and three computers).
    computer_moves: int = 0

    def record(self, latency: float) -> None:
        """A move reached every client of its table ``latency`` seconds after it was sent."""
        self.latencies.append(latency)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Client:
    """One websocket of a table: what its last frame showed."""

    def __init__(self, table: PacedTable, index: int, socket: Any) -> None:
        self.table = table
        self.index = index
        self.socket = socket
        self.version = -1
        self.actions: list[str] = []

    async def read(self) -> None:
        """Take frames until the socket closes."""
        try:
            async for frame in self.socket:
                self.table.on_frame(self, frame)
        except Exception:  # a dropped connection is an error of the step, not of the run
            if not self.table.closing:
                self.table.totals.error("connection lost")
        else:
            if not self.table.closing:
                self.table.totals.error("closed by server")


class PacedTable:
    """Four clients of one table, one move every ``pace`` seconds, latency to all four."""

    path = ""

    def __init__(self, name: str, totals: Totals, rng: random.Random) -> None:
        self.name = name
        self.totals = totals
        self.rng = rng
        self.clients: list[Client] = []
        self.version = 0
        #: The move in flight: (version it leads to, when it was sent, clients that have it).
        self.pending: tuple[int, float, set[int]] | None = None
        self.settled = asyncio.Event()
        self.closing = False
        self.over = False
        #: Each player's notice socket, open beside the table's (``--notice-sockets``).
        self.notice_sockets: list[Any] = []

    # What each kind of table sends and how it reads frames.
    def parse(self, client: Client, frame: str) -> None:
        raise NotImplementedError

    def next_move(self) -> tuple[Client, str] | None:
        raise NotImplementedError

    def on_frame(self, client: Client, frame: str) -> None:
        """Note what ``client`` now shows; a move is complete once all four show its version."""
        self.parse(client, frame)
        if self.pending is not None:
            target, sent, have = self.pending
            if client.version >= target:
                have.add(client.index)
            if len(have) == len(self.clients):
                self.totals.record(time.perf_counter() - sent)
                self.pending = None
        if self.pending is None and all(c.version == client.version for c in self.clients):
            self.version = client.version
            self.settled.set()

    def fail_pending(self, kind: str) -> None:
        """The move in flight was refused or lost: count it and carry on from what we see."""
        self.totals.error(kind)
        self.pending = None
        versions = {c.version for c in self.clients}
        if len(versions) == 1:
            self.version = versions.pop()
            self.settled.set()

    async def run(self, start: float, end: float, pace: float) -> None:
        """Send one move per ``pace`` seconds from ``start`` until ``end`` (loop-clock times)."""
        from websockets.exceptions import ConnectionClosed

        loop = asyncio.get_running_loop()
        due = start
        if pace:  # unpaced (0): nothing is scheduled, the table goes as fast as it can
            self.totals.scheduled += max(0, math.ceil((end - start) / pace))
        while not self.over:
            await asyncio.sleep(max(0.0, due - loop.time()))
            if loop.time() >= end:
                return
            try:
                await asyncio.wait_for(self.settled.wait(), MOVE_TIMEOUT)
            except TimeoutError:
                self.fail_pending("timeout")
                if not self.settled.is_set():
                    return
            if loop.time() >= end:
                return
            move = self.next_move()
            if move is None:
                self.over = True
                self.totals.finished += 1
                return
            client, text = move
            self.settled.clear()
            self.pending = (self.version + 1, time.perf_counter(), set())
            try:
                await client.socket.send(text)
            except ConnectionClosed:  # its reader counts the lost connection; the table stops
                self.pending = None
                return
            due = max(due + pace, loop.time())

    async def drain(self, limit: float) -> None:
        """Wait (``limit`` seconds at most) for the last move's update to arrive everywhere."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled.wait(), limit)
        if self.pending is not None:
            self.fail_pending("timeout")


class BeloteTable(PacedTable):
    """A real table: HTML frames, the version in ``#play-version``, the moves its buttons offer."""

    def parse(self, client: Client, frame: str) -> None:
        flash = FLASH_RE.search(frame)
        if flash:
            self.totals.error(f"refused: {flash.group(1).strip()[:60]}")
        found = VERSION_RE.search(frame)
        if found:
            client.version = int(found.group(1))
        if 'id="my-area"' in frame:  # the hand and calls, sent when they change
            client.actions = ACTION_RE.findall(frame)
        if flash and self.pending is not None and client.version < self.pending[0]:
            self.fail_pending("refused move")

    def next_move(self) -> tuple[Client, str] | None:
        for client in self.clients:
            if client.actions:
                action = self.rng.choice(client.actions)
                text = {"op": "play", "action": action, "version": str(client.version)}
                return client, json.dumps(text)
        return None


class BotTable(BeloteTable):
    """One human and three computer players: the human moves whenever it is their turn, at
    most once every ``pace`` seconds; a move's latency runs until their own page shows it."""

    async def run(self, start: float, end: float, pace: float) -> None:
        loop = asyncio.get_running_loop()
        due = start
        client = self.clients[0]
        first, own = client.version, 0
        while loop.time() < end and not self.over:
            await asyncio.sleep(BOT_TABLE_POLL)
            if self.pending is not None:
                if time.perf_counter() - self.pending[1] > MOVE_TIMEOUT:
                    self.fail_pending("timeout")
                continue
            if not client.actions or loop.time() < due:
                continue
            action = self.rng.choice(client.actions)
            client.actions = []
            self.settled.clear()  # set again when the move shows (drain waits for that)
            self.pending = (client.version + 1, time.perf_counter(), set())
            text = {"op": "play", "action": action, "version": str(client.version)}
            await client.socket.send(json.dumps(text))
            own += 1
            due = loop.time() + pace
        self.totals.computer_moves += max(0, client.version - first - own)


class FloorTable(PacedTable):
    """A floor table: four sockets in one group; each move is a sequence number echoed back."""

    def parse(self, client: Client, frame: str) -> None:
        with contextlib.suppress(ValueError, KeyError, TypeError):
            client.version = max(client.version, int(json.loads(frame)["seq"]))

    def next_move(self) -> tuple[Client, str] | None:
        target = self.version + 1
        return self.clients[target % 4], json.dumps({"seq": target})


async def open_socket(url: str, cookie: str | None) -> Any:
    """Open a websocket to ``url`` (logged in with ``cookie``), as a browser on the site would."""
    from websockets.asyncio.client import connect

    headers = browser_headers(url)
    if cookie:
        headers["Cookie"] = cookie
    # No keepalive pings of our own: a browser's socket sends none (it answers the server's),
    # and thousands of clients pinging add load no real player does.
    opened = connect(
        url, additional_headers=headers, max_size=None, open_timeout=None, ping_interval=None
    )
    return await asyncio.wait_for(opened, CONNECT_TIMEOUT)


async def open_table(
    table: PacedTable,
    urls: list[str],
    cookies: list[str | None],
    gate: Any,
    notices: bool = False,
) -> None:
    """Connect a table's four clients (``urls``: each one's socket address) and start reading
    their frames; with ``notices``, each also opens the notice socket every page holds."""
    for index, (url, cookie) in enumerate(zip(urls, cookies, strict=True)):
        async with gate:
            socket = await open_socket(url, cookie)
            if notices:
                base = url.split("/ws/", 1)[0]
                table.notice_sockets.append(await open_socket(base + "/ws/notices/", cookie))
        client = Client(table, index, socket)
        table.clients.append(client)
        if isinstance(table, FloorTable):
            client.version = 0
        asyncio.get_running_loop().create_task(client.read())
    if isinstance(table, FloorTable):
        table.settled.set()


async def connected(
    tables_: list[PacedTable], openings: list[Any], totals: Totals
) -> list[PacedTable]:
    """Await each table's :func:`open_table` (``openings``, in the order of ``tables_``) and
    let the connect storm (every join re-renders the table) drain; the tables that connected
    (a failure is an error of ``totals``)."""
    results = await asyncio.gather(*openings, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            totals.error(f"connect: {type(result).__name__}")
    live = [t for t, r in zip(tables_, results, strict=True) if r is None]
    await asyncio.gather(*(t.drain(MOVE_TIMEOUT) for t in live))
    return live


# -- one step ------------------------------------------------------------------------------------


@dataclass
class StepResult:
    """One row of the report."""

    kind: str
    tables: int
    pace: float
    duration: float
    #: None when unpaced.
    target_moves_per_s: float | None
    scheduled_moves: int
    moves: int
    moves_per_s: float
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    errors: int
    error_kinds: dict[str, int]
    finished_tables: int
    server_rss_mb: float | None
    server_cpu_pct: float | None
    #: Server CPU time per completed move (ms): the cost of a move, whatever the machine's load.
    server_cpu_ms_per_move: float | None
    client_cpu_pct: float
    load_avg: float
    #: The full garbage collection each server ran before the window (longest, ms).
    storm_collect_ms: float | None = None
    #: Moves per second the computer players made ("bots" rows only).
    computer_moves_per_s: float | None = None

    @property
    def sustained(self) -> bool:
        """Whether this load counts for the knee: p95 under 100 ms at (nearly) the paced rate."""
        return (
            self.p95_ms is not None
            and self.p95_ms < KNEE_P95_MS
            and self.moves >= KNEE_RATE_SHARE * self.scheduled_moves
        )


def ms(seconds: float | None) -> float | None:
    """Return ``seconds`` in milliseconds, to two decimals (None stays None)."""
    return None if seconds is None else round(seconds * 1000, 2)


async def run_step(
    kind: str,
    bases: list[str],
    seatings: list[Seating],
    pace: float,
    duration: float,
    pids: list[int],
    seed: int,
    say: Any = None,
    bot_seatings: list[Seating] = (),  # type: ignore[assignment]
    notices: bool = False,
) -> list[StepResult]:
    """Connect every table of the step, drive it for ``duration`` seconds, close, summarise
    (``say``: told when the measured window starts, for a profiler to attach then).

    With several servers (``bases``), a table's four clients connect to them in turn, as a
    proxy would spread them. ``bot_seatings``: tables of one human and three computer players,
    played in the same window and reported as a step of their own ("bots")."""
    totals, bot_totals = Totals(), Totals()
    rng = random.Random(seed)
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    run_id = secrets.token_hex(3)
    tables_: list[PacedTable] = []
    openings = []
    for seated in bot_seatings:
        table = BotTable(seated.code, bot_totals, rng)
        tables_.append(table)
        urls = [bases[len(tables_) % len(bases)] + f"/ws/table/{seated.code}/"]
        openings.append(open_table(table, urls, list(seated.cookies), gate))
    for number, seated in enumerate(seatings):
        if kind != "real":
            table: PacedTable = FloorTable(f"{run_id}-{number}", totals, rng)
            paths = [f"/ws/bench/{run_id}-{number}/"] * 4
            cookies: list[str | None] = [None] * 4
        else:
            table = BeloteTable(seated.code, totals, rng)
            paths = [f"/ws/table/{seated.code}/"] * 4
            cookies = list(seated.cookies)
        tables_.append(table)
        urls = [bases[(4 * number + i) % len(bases)] + path for i, path in enumerate(paths)]
        openings.append(open_table(table, urls, cookies, gate, notices and kind == "real"))
    loop = asyncio.get_running_loop()
    try:
        live = await connected(tables_, openings, totals)
        if bot_seatings:
            await warm_up([t for t in live if isinstance(t, BotTable)], pace)
        else:  # computer players never let the server idle
            await wait_until_idle(pids)
        # The connect storm's garbage is collected now, not at a moment of the window that
        # differs between runs; the pause is reported on its own.
        storm_collect_ms = await collect_garbage(bases)
        totals.latencies.clear()
        bot_totals.latencies.clear()
        bot_totals.computer_moves = 0
        if say is not None:
            say(f"step {len(seatings)} tables: {kind}: measuring for {duration:g} s")
        load_avg = os.getloadavg()[0]
        cpu_before, client_before = cpu_seconds(pids), time.process_time()
        start = loop.time() + 0.05
        end = start + duration
        await asyncio.gather(*(t.run(start + rng.random() * pace, end, pace) for t in live))
        elapsed = loop.time() - start
        cpu_after, client_after = cpu_seconds(pids), time.process_time()
        await asyncio.gather(*(t.drain(2.0) for t in live if t.pending is not None))
        rss = rss_mb(pids)
    finally:
        await close_tables(tables_)
    server_cpu = None
    if cpu_before is not None and cpu_after is not None:
        server_cpu = round(100 * (cpu_after - cpu_before) / elapsed, 1)
    common = {
        "pace": pace,
        "duration": round(elapsed, 2),
        "server_rss_mb": round(rss, 1) if rss is not None else None,
        "server_cpu_pct": server_cpu,
        "client_cpu_pct": round(100 * (client_after - client_before) / elapsed, 1),
        "load_avg": round(load_avg, 2),
        "storm_collect_ms": storm_collect_ms,
    }
    steps = [_result(kind, len(seatings), totals, common)]
    if bot_seatings:
        steps.append(_result("bots", len(bot_seatings), bot_totals, common))
    return steps


def _result(kind: str, tables: int, totals: Totals, common: dict[str, Any]) -> StepResult:
    """One row of the report from what a step's tables of ``kind`` observed."""
    latencies, elapsed, pace = totals.latencies, common["duration"], common["pace"]
    server_cpu = common["server_cpu_pct"]
    return StepResult(
        kind=kind,
        tables=tables,
        pace=pace,
        duration=elapsed,
        target_moves_per_s=round(tables / pace, 2) if pace and kind != "bots" else None,
        scheduled_moves=totals.scheduled,
        moves=len(latencies),
        moves_per_s=round(len(latencies) / elapsed, 2),
        p50_ms=ms(percentile(latencies, 0.50)),
        p95_ms=ms(percentile(latencies, 0.95)),
        p99_ms=ms(percentile(latencies, 0.99)),
        max_ms=ms(max(latencies, default=None)),
        errors=sum(totals.errors.values()),
        error_kinds=dict(totals.errors),
        finished_tables=totals.finished,
        server_rss_mb=common["server_rss_mb"],
        server_cpu_pct=server_cpu,
        server_cpu_ms_per_move=(
            round(10 * server_cpu / (len(latencies) / elapsed), 1)
            if server_cpu is not None and latencies and kind != "bots"
            else None
        ),
        client_cpu_pct=common["client_cpu_pct"],
        load_avg=common["load_avg"],
        storm_collect_ms=common["storm_collect_ms"],
        computer_moves_per_s=(
            round(totals.computer_moves / elapsed, 2) if kind == "bots" else None
        ),
    )


async def close_tables(tables_: list[PacedTable]) -> None:
    """Close every client socket (bounded: 10 s)."""
    closings = []
    for table in tables_:
        table.closing = True
        closings += [client.socket.close() for client in table.clients]
        closings += [socket.close() for socket in table.notice_sockets]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*closings, return_exceptions=True), 10)


# -- the sweep -----------------------------------------------------------------------------------


@dataclass
class Report:
    """Everything one run measured."""

    database: str
    channel_layer: str
    pace: float
    duration: float
    steps: list[StepResult]
    #: Server processes the clients were spread over.
    servers: int = 1

    def knee(self, kind: str) -> StepResult | None:
        """The sustained step with the most tables, of ``kind``."""
        sustained = [s for s in self.steps if s.kind == kind and s.sustained]
        return max(sustained, key=lambda s: s.tables, default=None)

    def floor_capacity(self) -> float | None:
        """Moves per second the bare fan-out achieved when driven unpaced (None: not run)."""
        return max((s.moves_per_s for s in self.steps if s.kind == "capacity"), default=None)

    def knee_share(self) -> float | None:
        """The real knee's moves per second as a share of the floor's capacity."""
        knee, capacity = self.knee("real"), self.floor_capacity()
        if knee is None or not capacity:
            return None
        return round(knee.moves_per_s / capacity, 3)

    def knee_share_of_floor_knee(self) -> float | None:
        """The real knee's moves per second as a share of the floor's knee in the same sweep."""
        knee, floor = self.knee("real"), self.knee("floor")
        if knee is None or floor is None:
            return None
        return round(knee.moves_per_s / floor.moves_per_s, 3)

    def as_dict(self) -> dict[str, Any]:
        knees = {kind: self.knee(kind) for kind in ("floor", "real")}
        floor_best = max((s.moves_per_s for s in self.steps if s.kind == "floor"), default=0.0)
        return {
            "database": self.database,
            "channel_layer": self.channel_layer,
            "pace_s": self.pace,
            "duration_s": self.duration,
            "servers": self.servers,
            "knee_p95_ms": KNEE_P95_MS,
            "knee": {
                kind: ({"tables": s.tables, "moves_per_s": s.moves_per_s} if s else None)
                for kind, s in knees.items()
            },
            "floor_best_moves_per_s": floor_best,
            "floor_capacity_moves_per_s": self.floor_capacity(),
            "real_knee_share_of_floor_capacity": self.knee_share(),
            "real_knee_share_of_floor_knee": self.knee_share_of_floor_knee(),
            "steps": [asdict(step) for step in self.steps],
        }


def describe_setup() -> tuple[str, str]:
    """The database engine and channel layer of this process's settings."""
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    return database, layer


def format_report(report: Report) -> str:
    """The plain-text table printed at the end of a run."""
    header = (
        f"{'kind':<9}{'tables':>7}{'target/s':>10}{'moves/s':>9}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'p99 ms':>9}{'max ms':>9}{'errors':>7}{'rss MiB':>9}{'srv cpu%':>9}{'ms/move':>8}"
        f"{'cli cpu%':>9}{'load':>6}{'gc ms':>7}"
    )
    lines = [
        f"database {report.database}, channel layer {report.channel_layer}, "
        f"one move per table every {report.pace:g} s, {report.duration:g} s per step, "
        f"{report.servers} server process{'es' if report.servers > 1 else ''}",
        header,
        "-" * len(header),
    ]

    def cell(value: float | None, width: int) -> str:
        return f"{'-' if value is None else f'{value:.1f}':>{width}}"

    for step in report.steps:
        lines.append(
            f"{step.kind:<9}{step.tables:>7}{cell(step.target_moves_per_s, 10)}"
            f"{step.moves_per_s:>9.1f}{cell(step.p50_ms, 9)}{cell(step.p95_ms, 9)}"
            f"{cell(step.p99_ms, 9)}"
            f"{cell(step.max_ms, 9)}{step.errors:>7}{cell(step.server_rss_mb, 9)}"
            f"{cell(step.server_cpu_pct, 9)}{cell(step.server_cpu_ms_per_move, 8)}"
            f"{cell(step.client_cpu_pct, 9)}{step.load_avg:>6.2f}{cell(step.storm_collect_ms, 7)}"
        )
        if step.computer_moves_per_s is not None:
            lines.append(f"       the computer players' moves: {step.computer_moves_per_s:.1f}/s")
        if step.error_kinds:
            lines.append(f"       errors: {step.error_kinds}")
    for kind in ("floor", "real"):
        knee = report.knee(kind)
        if knee is None:
            lines.append(f"knee ({kind}): no step kept p95 under {KNEE_P95_MS:g} ms")
        else:
            lines.append(
                f"knee ({kind}): {knee.tables} tables, {knee.moves_per_s:.1f} moves/s "
                f"with p95 {knee.p95_ms:.1f} ms"
            )
    capacity, share = report.floor_capacity(), report.knee_share()
    if capacity is not None:
        lines.append(f"floor capacity (unpaced): {capacity:.1f} moves/s")
    of_knee = report.knee_share_of_floor_knee()
    if of_knee is not None:
        lines.append(f"real knee = {100 * of_knee:.1f}% of the floor's knee")
    if share is not None:
        lines.append(f"real knee = {100 * share:.1f}% of the floor's capacity")
    return "\n".join(lines)


def websocket_base(url: str) -> str:
    """``ws://127.0.0.1:port`` for ``url``; only this machine may be targeted."""
    parts = urlsplit(url)
    if parts.hostname not in {"127.0.0.1", "localhost"} or parts.port is None:
        raise ValueError("--url must be http://127.0.0.1:<port> (the benchmark stays local)")
    return f"ws://127.0.0.1:{parts.port}"


def run(
    sweep: list[int],
    *,
    pace: float,
    duration: float,
    url: str | None,
    server_pid: int | None,
    floor: bool,
    seed: int,
    say: Any,
    servers: int = 1,
    real: bool = True,
    bot_tables: int = 0,
    bot_level: str = "hard",
    notices: bool = False,
) -> Report:
    """Run the sweep: per step, the floor (when ``floor``) and then the real tables (when
    ``real``; the floor alone finds the floor's own knee without overloading the real path).

    ``servers`` daphne processes are started (several need PostgreSQL and Redis: they share
    the tables through them); with ``url``, the one server there is targeted instead.
    ``bot_tables``: beside the real tables of each step, that many tables of one human and
    three computer players of ``bot_level``; they think in one bot worker started here (with
    Redis) or in the server's one pool process."""
    database, layer = describe_setup()
    if servers > 1 and (database == "sqlite3" or layer != "RedisChannelLayer"):
        raise ValueError("several servers share tables only through PostgreSQL and Redis")
    say(f"creating {4 * max(sweep) + bot_tables} users and their sessions")
    cookies = make_players(4 * max(sweep) + bot_tables)
    started: list[subprocess.Popen] = []
    try:
        if url is None:
            bases = []
            for _ in range(servers):
                port = free_port()
                started.append(start_server(os.environ["DATABASE_URL"], port))
                bases.append(f"ws://127.0.0.1:{port}")
                say(f"started daphne (pid {started[-1].pid}) at {bases[-1]}")
            pids = [server.pid for server in started]
            if bot_tables and layer == "RedisChannelLayer":
                started.append(start_worker(os.environ["DATABASE_URL"]))
                say(f"started a bot worker (pid {started[-1].pid})")
        else:
            bases, pids = [websocket_base(url)], [server_pid] if server_pid else []
        report = Report(database, layer, pace, duration, [], servers=len(bases))
        for number, count in enumerate(sweep):
            say(f"step {count} tables: seating players")
            seatings = seat_tables(cookies, count)
            kinds = ("floor",) * floor + ("real",) * real
            for kind in kinds:
                say(f"step {count} tables: {kind}")
                bots = seat_bot_tables(cookies, bot_tables, bot_level) if kind == "real" else []
                steps = asyncio.run(
                    run_step(
                        kind,
                        bases,
                        seatings,
                        pace,
                        duration,
                        pids,
                        seed + number,
                        say,
                        bots,
                        notices,
                    )
                )
                for step in steps:
                    report.steps.append(step)
                    say(
                        f"  {step.kind}: {step.moves_per_s:.1f} moves/s, p50 {step.p50_ms} ms, "
                        f"p95 {step.p95_ms} ms, errors {step.errors}"
                    )
                close_seatings(bots)
                asyncio.run(wait_until_idle(pids))
            close_seatings(seatings)
        if floor:
            say(f"floor capacity: {CAPACITY_TABLES} tables, unpaced")
            idle = [Seating("", [])] * CAPACITY_TABLES
            steps = asyncio.run(
                run_step("capacity", bases, idle, 0.0, duration, pids, seed + len(sweep))
            )
            report.steps.extend(steps)
    finally:
        for server in started:
            stop_server(server)
    return report
