"""The soak behind ``python manage.py loadtest --soak`` (a measurement, never a timed test).

The load of :mod:`benchmarks.load` held for ``minutes`` without a pause: tables of four players
paced as there, tables of one player and three computers, and anonymous visitors' page views at
a fixed rate, all spread over the server processes (with PostgreSQL and Redis, one bot worker
beside them). A table whose match ends asks for a rematch and plays on, so the load at the end
is the load at the start. Every few seconds each process's resident memory and database
connections are noted: PostgreSQL's own count, told apart by the ``application_name`` each
process is started with (``PGAPPNAME``), or on SQLite the process's open descriptors.

The soak holds when the p95 of moves and of page views in the last window (five minutes) is at
most 1.5 times the first window's, no page view answers 5xx or fails and no move errs, no
process ever holds more database connections than ``DB_POOL_SIZE``, and no process's RSS grows
by 15% or more from the end of the first window to the end. Traffic goes only to 127.0.0.1 and
every wait is bounded.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import functools
import itertools
import json
import math
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from array import array
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, connections
from django.urls import reverse

from games.catalog import all_games, get_game
from games.models import Match
from games.tables import matches, play, rows, seating

from . import load
from .stats import percentile

#: The issue's soak: 300 tables, 50 of them with computers, for 30 minutes on two server
#: processes and one bot worker, with 50 anonymous page views a second.
MINUTES = 30.0
TABLES = 250
BOT_TABLES = 50
SERVERS = 2
PAGE_VIEWS = 50.0
#: Seconds between a table's moves: a Belote deal among four people (about 36 moves) takes three
#: to four minutes.
PACE = 6.0
#: The first and the last window, compared; each is shown in this many rows.
WINDOW_SECONDS = 300.0
#: Seconds over which the tables start and the page views grow to their rate, before the soak's
#: clock starts: a crowd arrives over a minute, not in the same second.
RAMP_SECONDS = 60.0
ROWS_PER_WINDOW = 5
#: Samples of memory and connections per row (every 10 s with the default window).
SAMPLES_PER_ROW = 6
#: The last window's p95 may be at most this many times the first's.
MAX_P95_RATIO = 1.5
#: A process's RSS must grow by less than this share from the first window's end to the end.
MAX_RSS_GROWTH = 0.15
#: The most database connections one process may hold, when ``DB_POOL_SIZE`` is not set.
DEFAULT_DB_POOL_SIZE = 10
#: A page view not answered after this long has failed.
PAGE_TIMEOUT = 10.0
#: Threads that send the page views (each waits for its answer).
PAGE_THREADS = 32
#: Page views sent and not yet answered, at most: past it the client is behind, and a view
#: due is counted as failed instead of queueing without end.
PAGE_BACKLOG = 500
#: Sockets opening at once while the tables connect: the crowd arrives over a few seconds, as a
#: site's does (the soak measures holding it, the sweep measures the storm).
CONNECT_CONCURRENCY = 10
#: The processes the soak starts name their database connections with this and their name.
APP_PREFIX = "cardroom-soak-"
#: The players of the finished public match whose pages visitors open.
SHOWN_PREFIX = f"{load.USER_PREFIX}shown-"
REMATCH = json.dumps({"op": "rematch"})
REMATCH_OFFER = 'ws-send name="op" value="rematch"'


@dataclass(frozen=True)
class Plan:
    """What a soak holds, and for how long (the defaults are the issue's)."""

    minutes: float = MINUTES
    #: Tables of four players, each making a move every ``pace`` seconds.
    tables: int = TABLES
    #: Tables of one player and three computer players of ``bot_level``.
    bot_tables: int = BOT_TABLES
    servers: int = SERVERS
    #: Anonymous page views a second, over all the servers.
    page_views: float = PAGE_VIEWS
    pace: float = PACE
    window_seconds: float = WINDOW_SECONDS
    ramp_seconds: float = RAMP_SECONDS
    bot_level: str = "hard"
    seed: int = 1

    @property
    def seconds(self) -> float:
        return 60 * self.minutes

    @property
    def row_seconds(self) -> float:
        return self.window_seconds / ROWS_PER_WINDOW

    @property
    def sample_seconds(self) -> float:
        return self.row_seconds / SAMPLES_PER_ROW


# -- what the soak observes, and when -----------------------------------------------------------


class Clock:
    """Seconds since the soak's window opened, on the event loop's clock (None before)."""

    def __init__(self) -> None:
        self.start: float | None = None

    def now(self) -> float | None:
        return None if self.start is None else time.monotonic() - self.start


class Series:
    """Figures in the order they were taken, each with its moment (seconds into the soak) and
    a code (a page view's HTTP status)."""

    def __init__(self) -> None:
        self.times = array("d")
        self.values = array("d")
        self.codes = array("i")

    def add(self, at: float, value: float, code: int = 0) -> None:
        self.times.append(at)
        self.values.append(value)
        self.codes.append(code)

    def between(self, start: float, end: float) -> tuple[list[float], list[int]]:
        """The figures taken from ``start`` until ``end`` (excluded), and their codes."""
        first = bisect.bisect_left(self.times, start)
        last = bisect.bisect_left(self.times, end)
        return list(self.values[first:last]), list(self.codes[first:last])


@dataclass
class SoakTotals(load.Totals):
    """What one kind of table observed, each move and error also filed at its moment."""

    clock: Clock = field(default_factory=Clock)
    timed: Series = field(default_factory=Series)
    timed_errors: list[float] = field(default_factory=list)
    #: Matches that ended and began again (the players asked for a rematch).
    rematches: int = 0

    def record(self, latency: float) -> None:
        super().record(latency)
        at = self.clock.now()
        if at is not None:
            self.timed.add(at, latency)

    def error(self, kind: str) -> None:
        super().error(kind)
        at = self.clock.now()
        if at is not None:
            self.timed_errors.append(at)


# -- tables that play on -------------------------------------------------------------------------


class Rematches(load.BeloteTable):
    """A table whose players ask for a rematch as soon as their page offers one."""

    totals: SoakTotals

    def __init__(self, name: str, totals: SoakTotals, rng: random.Random) -> None:
        super().__init__(name, totals, rng)
        #: The clients that asked for a rematch since their last match began.
        self.asked: set[int] = set()
        self.sending: set[asyncio.Task] = set()

    def parse(self, client: load.Client, frame: str) -> None:
        shown = client.version
        super().parse(client, frame)
        if client.version < shown:  # a new match: its versions count from 0 again
            self.asked.discard(client.index)
            if client.index == 0:
                self.totals.rematches += 1
        if REMATCH_OFFER in frame and client.index not in self.asked:
            self.asked.add(client.index)
            task = asyncio.get_running_loop().create_task(self.ask(client))
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

    async def ask(self, client: load.Client) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):  # its reader counts the lost connection
            await client.socket.send(REMATCH)


class SoakTable(Rematches):
    """Four players paced as :class:`load.BeloteTable`, each match followed by the next."""

    def next_move(self) -> tuple[load.Client, str] | None:
        if any(client.version != self.version for client in self.clients):
            return None  # some pages show the next match already: wait for all four
        return super().next_move()

    async def run(self, start: float, end: float, pace: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < end:
            await super().run(start, end, pace)
            if loop.time() >= end or any(c.socket.close_code is not None for c in self.clients):
                return  # over, or a socket dropped (its reader counted it)
            if self.over:
                self.over = False
                if not await self.next_match(self.version):
                    self.totals.error("no next match")
                    return
            else:
                # A move timed out (counted) with the pages apart: play on once they agree.
                await self.agreed(end)
            start = loop.time() + pace

    async def agreed(self, end: float) -> None:
        """Wait until all four pages show one version (or until ``end``)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(end):
                while len({client.version for client in self.clients}) != 1:
                    self.settled.clear()
                    await self.settled.wait()
        self.version = self.clients[0].version
        self.settled.set()

    async def next_match(self, ended: int) -> bool:
        """Wait (:data:`load.MOVE_TIMEOUT` at most) until all four pages show the match that
        followed the one that ended at version ``ended``."""
        try:
            async with asyncio.timeout(load.MOVE_TIMEOUT):
                while not (
                    all(client.version < ended for client in self.clients)
                    and len({client.version for client in self.clients}) == 1
                ):
                    self.settled.clear()  # set again by the next frame that evens them
                    await self.settled.wait()
        except TimeoutError:
            return False
        return True


class SoakBotTable(Rematches, load.BotTable):
    """One player and three computers, as :class:`load.BotTable`, each match followed by the
    next."""


# -- anonymous visitors --------------------------------------------------------------------------


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of its own (its status counted), not followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


#: No proxy, whatever the environment says: the page views go to 127.0.0.1 only.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects)


def view(url: str, sent: float) -> tuple[int, float]:
    """GET ``url`` as an anonymous visitor and read the whole answer: its status and the
    seconds since ``sent`` (``time.perf_counter()`` when the view was due)."""
    try:
        with OPENER.open(url, timeout=PAGE_TIMEOUT) as reply:
            reply.read()
            status = reply.status
    except urllib.error.HTTPError as error:
        with error:
            error.read()
        status = error.code
    return status, time.perf_counter() - sent


def visitor_paths() -> list[str]:
    """What anonymous visitors open: the welcome page, each game's rules and leaderboard, a
    player's profile, a finished match's record and replay, the fair deals page, the login
    and signup pages, and the health check."""
    match = shown_match()
    player = match.players.order_by("seat").first().user.get_username()
    games = [game.name for game in all_games()]
    return [
        reverse("home"),
        *(reverse("rules", args=[game]) for game in games),
        *(reverse("leaderboard", args=[game]) for game in games),
        reverse("profile", args=[player]),
        reverse("match", args=[match.pk]),
        reverse("replay", args=[match.pk]),
        reverse("fair_deals"),
        reverse("login"),
        reverse("signup"),
        reverse("healthz"),
    ]


def shown_match() -> Match:
    """A finished match of a public table, which anyone may see (played out here with random
    legal moves the first time)."""
    model = get_user_model()
    names = [f"{SHOWN_PREFIX}{seat}" for seat in range(4)]
    done = Match.objects.filter(
        table__owner__username=names[0], table__is_private=False, status=Match.Status.FINISHED
    )
    if (found := done.order_by("-pk").first()) is not None:
        return found
    users = []
    for name in names:
        user, created = model.objects.get_or_create(username=name)
        if created:
            user.set_unusable_password()
            user.save()
        users.append(user)
    table = rows.create_table(users[0], "belote", load.BELOTE_OPTIONS, is_private=False)
    for seat, user in enumerate(users):
        seating.take_seat(table.pk, user, seat)
    match = matches.start_match(table.pk, users[0])
    engine = get_game(match.game).engine
    state, rng = engine.loads(match.state), random.Random(0)
    while state.to_act is not None:
        action = rng.choice(engine.legal_actions(state, state.to_act))
        match = play.apply_action(table.pk, users[state.to_act], action, match.version).match
        state = engine.loads(match.state)
    return Match.objects.get(pk=match.pk)


@dataclass
class Page:
    """What the views of one page saw: each answer's seconds, the statuses, the failures."""

    seconds: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    failed: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "views": len(self.seconds) + self.failed,
            "p95_ms": load.ms(percentile(self.seconds, 0.95)),
            "statuses": {str(status): n for status, n in sorted(self.statuses.items())},
            "failed": self.failed,
        }


class Visitors:
    """Anonymous page views at a fixed rate, spread over the servers; every answer's status
    and time counted, every failure (no answer, a refused connection) too."""

    def __init__(self, bases: list[str], paths: list[str], rate: float, clock: Clock) -> None:
        # Path by path, each on every server in turn.
        self.urls = [(path, base + path) for path in paths for base in bases]
        self.rate = rate
        self.clock = clock
        self.sent = 0
        self.views = Series()
        self.pages = {path: Page() for path in paths}
        self.failures: Counter[str] = Counter()
        self.timed_failures: list[float] = []
        self.waiting: set[asyncio.Future] = set()

    async def run(self, start: float, end: float, ramp: float = 0.0) -> None:
        """Send a view every 1/rate seconds from ``start`` until ``end`` (loop-clock times),
        the rate growing from nothing over the first ``ramp`` seconds, then wait for the last
        answers (bounded)."""
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(PAGE_THREADS, thread_name_prefix="page-view")
        ramp = min(ramp, end - start)
        try:
            # Views sent by t seconds in: rate * t^2 / (2 ramp) while ramping, then rate a second.
            ramped = self.rate * ramp / 2
            for number in range(math.ceil(ramped + (end - start - ramp) * self.rate)):
                if number < ramped:
                    due = math.sqrt(2 * ramp * number / self.rate)
                else:
                    due = ramp + (number - ramped) / self.rate
                await asyncio.sleep(max(0.0, start + due - loop.time()))
                self.sent += 1
                path, url = self.urls[number % len(self.urls)]
                if len(self.waiting) >= PAGE_BACKLOG:
                    self.fail(path, "not sent: the client is behind")
                    continue
                future = loop.run_in_executor(pool, view, url, time.perf_counter())
                self.waiting.add(future)
                future.add_done_callback(functools.partial(self.answered, path))
            if self.waiting:
                await asyncio.wait(self.waiting, timeout=PAGE_TIMEOUT + 1)
        finally:
            for future in list(self.waiting):
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)

    def answered(self, path: str, future: asyncio.Future) -> None:
        self.waiting.discard(future)
        if future.cancelled():
            self.fail(path, "no answer")
            return
        error = future.exception()
        if error is not None:
            reason = getattr(error, "reason", error)  # a URLError says why inside
            self.fail(path, type(reason).__name__)
            return
        status, seconds = future.result()
        self.views.add(self.clock.now() or 0.0, seconds, status)
        self.pages[path].seconds.append(seconds)
        self.pages[path].statuses[status] += 1

    def fail(self, path: str, kind: str) -> None:
        self.failures[kind] += 1
        self.pages[path].failed += 1
        self.timed_failures.append(self.clock.now() or 0.0)

    @property
    def statuses(self) -> dict[int, int]:
        return dict(sorted(Counter(self.views.codes).items()))


# -- the processes' memory and connections -----------------------------------------------------


@dataclass
class Process:
    """A process the soak started, and what was sampled of it: (seconds into the soak,
    value) pairs, None when it could not be read."""

    name: str
    pid: int
    rss_mb: list[tuple[float, float | None]] = field(default_factory=list)
    #: Database connections (PostgreSQL) or open descriptors (SQLite).
    connections: list[tuple[float, int | None]] = field(default_factory=list)

    @property
    def application_name(self) -> str:
        return APP_PREFIX + self.name

    def rss_at(self, seconds: float) -> float | None:
        """The RSS last sampled by ``seconds`` into the soak."""
        taken = [rss for at, rss in self.rss_mb if at <= seconds]
        return taken[-1] if taken else None

    def rss_growth(self, window: float) -> float | None:
        """How much the RSS grew from the first window's end to the last sample (a share)."""
        first, last = self.rss_at(window), self.rss_mb[-1][1] if self.rss_mb else None
        if not first or last is None:
            return None
        return last / first - 1

    def most_connections(self) -> int | None:
        """The most connections (or descriptors) sampled at once; None if one went unread."""
        counts = [count for _at, count in self.connections if count is not None]
        return max(counts) if counts and len(counts) == len(self.connections) else None


def connection_bound() -> int:
    """The most database connections one process may hold (``DB_POOL_SIZE``)."""
    bound = getattr(settings, "DB_POOL_SIZE", None) or os.environ.get("DB_POOL_SIZE")
    return int(bound or DEFAULT_DB_POOL_SIZE)


def database_connections(names: list[str]) -> dict[str, int]:
    """The connections to this database each application name holds, as PostgreSQL counts
    them."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = ANY(%s)"
            " GROUP BY application_name",
            [names],
        )
        counts = dict(cursor.fetchall())
    return {name: counts.get(name, 0) for name in names}


def open_descriptors(pid: int) -> int | None:
    """How many files and sockets process ``pid`` holds open (None when it is gone)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


class Sampler:
    """Notes each process's RSS and connections every ``every`` seconds, and at the end."""

    def __init__(self, processes: list[Process], clock: Clock, postgres: bool) -> None:
        self.processes = processes
        self.clock = clock
        self.postgres = postgres

    def sample(self) -> None:
        at = self.clock.now() or 0.0
        names = [process.application_name for process in self.processes]
        counts: dict[str, int] = {}
        if self.postgres:
            # A database that refuses the soak's own connection leaves the count unknown.
            with contextlib.suppress(DatabaseError):
                counts = database_connections(names)
        for process in self.processes:
            rss = load.rss_mb([process.pid])
            process.rss_mb.append((round(at, 2), None if rss is None else round(rss, 1)))
            if self.postgres:
                held = counts.get(process.application_name) if rss is not None else None
            else:
                held = open_descriptors(process.pid)
            process.connections.append((round(at, 2), held))

    async def run(self, start: float, end: float, every: float) -> None:
        loop = asyncio.get_running_loop()
        # One thread, so the soak's own database connection is one, closed at the end.
        pool = ThreadPoolExecutor(1, thread_name_prefix="sampler")
        try:
            for number in itertools.count():
                due = min(start + number * every, end)
                await asyncio.sleep(max(0.0, due - loop.time()))
                await loop.run_in_executor(pool, self.sample)
                if due >= end:
                    return
        finally:
            await loop.run_in_executor(pool, connections.close_all)
            pool.shutdown(wait=False)


# -- the soak ------------------------------------------------------------------------------------


@dataclass
class Row:
    """What one stretch of the soak (a minute, with the default window) saw."""

    start_s: float
    moves: int
    p95_ms: float | None
    #: The moves of the players at tables of computers.
    bot_moves: int
    bot_p95_ms: float | None
    page_views: int
    page_p95_ms: float | None
    #: Page views answered 5xx.
    server_errors: int
    #: Page views that failed and moves that erred.
    errors: int


@dataclass
class Observed:
    """Everything the soak's clients and sampler noted."""

    totals: SoakTotals
    bot_totals: SoakTotals
    visitors: Visitors
    #: The tables of each kind that connected, and so played.
    tables: int = 0
    bot_tables: int = 0

    def row(self, start: float, end: float) -> Row:
        """The figures of the stretch from ``start`` until ``end`` (seconds into the soak)."""
        moves, _ = self.totals.timed.between(start, end)
        bots, _ = self.bot_totals.timed.between(start, end)
        pages, statuses = self.visitors.views.between(start, end)
        failed = self.totals.timed_errors + self.bot_totals.timed_errors
        failed += self.visitors.timed_failures
        return Row(
            start_s=round(start, 2),
            moves=len(moves),
            p95_ms=load.ms(percentile(moves, 0.95)),
            bot_moves=len(bots),
            bot_p95_ms=load.ms(percentile(bots, 0.95)),
            page_views=len(pages),
            page_p95_ms=load.ms(percentile(pages, 0.95)),
            server_errors=sum(status >= 500 for status in statuses),
            errors=sum(start <= at < end for at in failed),
        )

    def p95_ms(self, kind: str, start: float, end: float) -> float | None:
        """The p95 of moves (both kinds of table) or of page views in a stretch."""
        if kind == "page views":
            values = self.visitors.views.between(start, end)[0]
        else:
            values = self.totals.timed.between(start, end)[0]
            values += self.bot_totals.timed.between(start, end)[0]
        return load.ms(percentile(values, 0.95))

    def errors(self) -> dict[str, int]:
        """Every error of the soak by kind (those of connecting and warming up included)."""
        kinds = {f"moves: {kind}": n for kind, n in self.totals.errors.items()}
        bots = self.bot_totals.errors.items()
        kinds.update({f"computers' tables: {kind}": n for kind, n in bots})
        kinds.update({f"page views: {kind}": n for kind, n in self.visitors.failures.items()})
        return kinds


def collect_static(database_url: str) -> None:
    """Collect the static files as a deployment does: the servers run in production mode,
    whose pages name each file by its hashed name."""
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"]
    environment = load.server_env(database_url)
    subprocess.run(command, cwd=settings.BASE_DIR, env=environment, check=True, timeout=600)


def run(plan: Plan, *, database_url: str, say: Any) -> SoakReport:
    """Start the servers (and with Redis, one bot worker) on ``database_url``, seat the tables,
    hold the load for ``plan.minutes``, stop everything and judge the soak."""
    database, layer = load.describe_setup()
    redis = layer == "RedisChannelLayer"
    if plan.servers > 1 and (database == "sqlite3" or not redis):
        raise ValueError("several servers share tables only through PostgreSQL and Redis")
    say("collecting the static files (the servers run in production mode)")
    collect_static(database_url)
    players = 4 * plan.tables + plan.bot_tables
    say(f"creating {players} users and their sessions, and a finished public match")
    cookies = load.make_players(players)
    paths = visitor_paths()
    seatings = load.seat_tables(cookies, plan.tables)
    bot_seatings = load.seat_bot_tables(cookies, plan.bot_tables, plan.bot_level)
    if seatings:  # an invited friend's first view of a table
        paths.append(reverse("table", args=[seatings[0].code]))
    started: list[subprocess.Popen] = []
    processes: list[Process] = []
    ports: list[int] = []
    try:
        for number in range(1, plan.servers + 1):
            ports.append(load.free_port())
            name = f"server-{number}"
            started.append(load.start_server(database_url, ports[-1], PGAPPNAME=APP_PREFIX + name))
            processes.append(Process(name, started[-1].pid))
            say(f"started daphne {name} (pid {started[-1].pid}) at 127.0.0.1:{ports[-1]}")
        if plan.bot_tables and redis:
            started.append(load.start_worker(database_url, PGAPPNAME=APP_PREFIX + "worker"))
            processes.append(Process("worker", started[-1].pid))
            say(f"started a bot worker (pid {started[-1].pid})")
        postgres = database == "postgresql"
        soaked = hold(plan, ports, processes, seatings, bot_seatings, paths, postgres, say)
        observed, seconds = asyncio.run(soaked)
    finally:
        for process in started:
            load.stop_server(process)
        load.close_seatings(seatings + bot_seatings)
    starts = row_starts(plan)
    rows_ = [observed.row(start, start + plan.row_seconds) for start in starts[:-1]]
    rows_.append(observed.row(starts[-1], math.inf))  # with the moves drained after the end
    first, last = (0.0, plan.window_seconds), (plan.seconds - plan.window_seconds, math.inf)
    return SoakReport(
        plan=plan,
        database=database,
        channel_layer=layer,
        workers=sum(process.name == "worker" for process in processes),
        seconds=round(seconds, 2),
        rows=rows_,
        processes=processes,
        windows={
            kind: (observed.p95_ms(kind, *first), observed.p95_ms(kind, *last))
            for kind in ("moves", "page views")
        },
        page_views_sent=observed.visitors.sent,
        pages={path: page.as_dict() for path, page in observed.visitors.pages.items()},
        statuses=observed.visitors.statuses,
        errors=observed.errors(),
        rematches=observed.totals.rematches + observed.bot_totals.rematches,
        playing=(observed.tables, observed.bot_tables),
        connection_bound=connection_bound() if postgres else None,
    )


def row_starts(plan: Plan) -> list[float]:
    """Where each row starts (seconds into the soak)."""
    count = max(1, math.ceil(round(plan.seconds / plan.row_seconds, 6)))
    return [number * plan.row_seconds for number in range(count)]


async def hold(
    plan: Plan,
    ports: list[int],
    processes: list[Process],
    seatings: list[load.Seating],
    bot_seatings: list[load.Seating],
    paths: list[str],
    postgres: bool,
    say: Any,
) -> tuple[Observed, float]:
    """Connect every table, warm up, then hold the load for ``plan.seconds`` while sampling;
    what was observed and how long the soak really ran."""
    clock = Clock()
    observed = Observed(
        SoakTotals(clock=clock),
        SoakTotals(clock=clock),
        Visitors([f"http://127.0.0.1:{port}" for port in ports], paths, plan.page_views, clock),
    )
    sockets = [f"ws://127.0.0.1:{port}" for port in ports]
    rng = random.Random(plan.seed)
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    tables_: list[load.PacedTable] = []
    openings = []
    for number, seated in enumerate(bot_seatings):
        tables_.append(SoakBotTable(seated.code, observed.bot_totals, rng))
        url = sockets[number % len(sockets)] + f"/ws/table/{seated.code}/"
        openings.append(load.open_table(tables_[-1], [url], list(seated.cookies), gate))
    for number, seated in enumerate(seatings):
        tables_.append(SoakTable(seated.code, observed.totals, rng))
        # A table's four players on the servers in turn, as a proxy would spread them.
        path = f"/ws/table/{seated.code}/"
        urls = [sockets[(4 * number + seat) % len(sockets)] + path for seat in range(4)]
        openings.append(load.open_table(tables_[-1], urls, list(seated.cookies), gate))
    loop = asyncio.get_running_loop()
    try:
        say(f"connecting {len(tables_)} tables")
        live = await load.connected(tables_, openings, observed.totals)
        observed.bot_tables = sum(isinstance(table, SoakBotTable) for table in live)
        observed.tables = len(live) - observed.bot_tables
        warm = [table for table in live if isinstance(table, load.BotTable)]
        await load.warm_up(warm, plan.pace, min(load.BOT_WARM_UP, plan.window_seconds))
        await load.collect_garbage(sockets)
        arrive = loop.time() + 0.05
        start = clock.start = arrive + plan.ramp_seconds
        end = start + plan.seconds
        say(
            f"starting the tables and page views over {plan.ramp_seconds:g} s, "
            f"then holding the load for {plan.seconds:g} s"
        )
        order = list(live)
        rng.shuffle(order)
        await asyncio.gather(
            *(
                table.run(
                    arrive + plan.ramp_seconds * number / len(order) + rng.random() * plan.pace,
                    end,
                    plan.pace,
                )
                for number, table in enumerate(order)
            ),
            observed.visitors.run(arrive, end, plan.ramp_seconds),
            Sampler(processes, clock, postgres).run(start, end, plan.sample_seconds),
            tell(observed, plan, start, end, say),
        )
        seconds = loop.time() - start
        await asyncio.gather(*(table.drain(2.0) for table in live if table.pending is not None))
    finally:
        await load.close_tables(tables_)
    return observed, seconds


async def tell(observed: Observed, plan: Plan, start: float, end: float, say: Any) -> None:
    """Say each row's figures once its stretch is over."""
    loop = asyncio.get_running_loop()
    say(ROW_HEADER)
    for begins in row_starts(plan):
        ends = min(begins + plan.row_seconds, end - start)
        await asyncio.sleep(max(0.0, start + ends - loop.time()))
        say(format_row(observed.row(begins, ends)))


# -- the report ----------------------------------------------------------------------------------


@dataclass
class Criterion:
    """One condition of the soak: whether it holds (None: it does not apply), and the figures."""

    name: str
    holds: bool | None
    measured: str


@dataclass
class SoakReport:
    """Everything one soak measured."""

    plan: Plan
    database: str
    channel_layer: str
    workers: int
    seconds: float
    rows: list[Row]
    processes: list[Process]
    #: The p95 of moves and of page views (ms) in the first window and in the last.
    windows: dict[str, tuple[float | None, float | None]]
    page_views_sent: int
    #: Per page: its views, their p95, statuses and failures.
    pages: dict[str, dict[str, Any]]
    statuses: dict[int, int]
    errors: dict[str, int]
    rematches: int
    #: The tables of four players, and of computers, that connected and played.
    playing: tuple[int, int]
    #: The most database connections a process may hold (None: SQLite, not counted).
    connection_bound: int | None

    def criteria(self) -> list[Criterion]:
        """Each condition of the soak, judged."""
        window = f"{self.plan.window_seconds:g} s"
        judged = []
        for kind in ("moves", "page views"):
            first, last = self.windows[kind]
            if kind == "page views" and not self.plan.page_views:
                judged.append(Criterion(f"{kind} p95", None, "no page views were sent"))
                continue
            ratio = last / first if first and last is not None else None
            judged.append(
                Criterion(
                    f"{kind} p95",
                    ratio is not None and ratio <= MAX_P95_RATIO,
                    f"{first} ms in the first {window}, {last} ms in the last: "
                    f"ratio {'-' if ratio is None else f'{ratio:.2f}'} (at most {MAX_P95_RATIO:g})",
                )
            )
        server_errors = sum(n for status, n in self.statuses.items() if status >= 500)
        failed = sum(self.errors.values())
        judged.append(
            Criterion(
                "no 5xx or errors",
                server_errors == 0 and failed == 0,
                f"{server_errors} page views answered 5xx, {failed} errors"
                + (f" {self.errors}" if failed else ""),
            )
        )
        most = {process.name: process.most_connections() for process in self.processes}
        listed = ", ".join(
            f"{name} {'unknown' if count is None else count}" for name, count in most.items()
        )
        if self.connection_bound is None:
            measured = f"SQLite: not counted; open descriptors at most {listed}"
            judged.append(Criterion("database connections", None, measured))
        else:
            bound = self.connection_bound
            within = all(count is not None and count <= bound for count in most.values())
            measured = f"at most {listed} (bound {bound} a process)"
            judged.append(Criterion("database connections", within, measured))
        growth = {p.name: p.rss_growth(self.plan.window_seconds) for p in self.processes}
        listed = ", ".join(
            f"{name} {'gone' if share is None else f'{100 * share:+.1f}%'}"
            for name, share in growth.items()
        )
        judged.append(
            Criterion(
                "RSS growth",
                all(share is not None and share < MAX_RSS_GROWTH for share in growth.values()),
                f"{listed} from {window} to the end (under +{100 * MAX_RSS_GROWTH:g}%)",
            )
        )
        return judged

    @property
    def holds(self) -> bool:
        return all(criterion.holds is not False for criterion in self.criteria())

    def as_dict(self) -> dict[str, Any]:
        return {
            "plan": asdict(self.plan),
            "database": self.database,
            "channel_layer": self.channel_layer,
            "workers": self.workers,
            "seconds": self.seconds,
            "holds": self.holds,
            "criteria": [asdict(criterion) for criterion in self.criteria()],
            "windows_p95_ms": {kind: list(pair) for kind, pair in self.windows.items()},
            "page_views_sent": self.page_views_sent,
            "pages": self.pages,
            "statuses": {str(status): n for status, n in self.statuses.items()},
            "errors": self.errors,
            "rematches": self.rematches,
            "playing": {"tables": self.playing[0], "bot_tables": self.playing[1]},
            "connection_bound": self.connection_bound,
            "rows": [asdict(row) for row in self.rows],
            "processes": [asdict(process) for process in self.processes],
        }


ROW_HEADER = (
    f"{'from s':>8}{'moves':>8}{'p95 ms':>9}{'bot moves':>11}{'p95 ms':>9}"
    f"{'page views':>12}{'p95 ms':>9}{'5xx':>6}{'errors':>8}"
)


def _cell(value: float | None, width: int) -> str:
    return f"{'-' if value is None else f'{value:.1f}':>{width}}"


def format_row(row: Row) -> str:
    return (
        f"{row.start_s:>8g}{row.moves:>8}{_cell(row.p95_ms, 9)}{row.bot_moves:>11}"
        f"{_cell(row.bot_p95_ms, 9)}{row.page_views:>12}{_cell(row.page_p95_ms, 9)}"
        f"{row.server_errors:>6}{row.errors:>8}"
    )


def format_report(report: SoakReport) -> str:
    """The plain-text report printed at the end of a soak."""
    plan = report.plan
    worker = f" and {report.workers} bot worker" if report.workers else ""
    lines = [
        f"soak: database {report.database}, channel layer {report.channel_layer}, "
        f"{plan.servers} server process{'es' if plan.servers > 1 else ''}{worker}; "
        f"{plan.tables} tables of four players (a move every {plan.pace:g} s each), "
        f"{plan.bot_tables} of one player and three {plan.bot_level} computers, "
        f"{plan.page_views:g} anonymous page views a second; {report.seconds:g} s, "
        f"windows of {plan.window_seconds:g} s",
        ROW_HEADER,
        "-" * len(ROW_HEADER),
        *(format_row(row) for row in report.rows),
        "",
        f"{'process':<10}{'pid':>8}{'RSS MiB at ' + f'{plan.window_seconds:g} s':>20}"
        f"{'at end':>9}{'growth':>9}{'connections':>13}",
    ]
    for process in report.processes:
        growth, most = process.rss_growth(plan.window_seconds), process.most_connections()
        lines.append(
            f"{process.name:<10}{process.pid:>8}"
            f"{_cell(process.rss_at(plan.window_seconds), 20)}"
            f"{_cell(process.rss_mb[-1][1] if process.rss_mb else None, 9)}"
            f"{'-' if growth is None else f'{100 * growth:+.1f}%':>9}"
            f"{'-' if most is None else most:>13}"
        )
    kind = "database connections" if report.connection_bound else "open descriptors (SQLite)"
    lines.append(f"(connections: the most {kind} a process held at once)")
    statuses = ", ".join(f"{status}: {n}" for status, n in report.statuses.items())
    lines.append(f"page views sent: {report.page_views_sent}; answered by status: {statuses}")
    for path, page in report.pages.items() if report.page_views_sent else ():
        answered = ", ".join(f"{status}: {n}" for status, n in page["statuses"].items())
        failed = f", failed {page['failed']}" if page["failed"] else ""
        lines.append(f"  {path:<28}p95 {_cell(page['p95_ms'], 7)} ms  {answered}{failed}")
    lines.append(
        f"tables playing: {report.playing[0]} of {plan.tables} of four players, "
        f"{report.playing[1]} of {plan.bot_tables} with computers; matches played to the end "
        f"and begun again: {report.rematches}"
    )
    lines.append("")
    for criterion in report.criteria():
        verdict = {True: "PASS", False: "FAIL", None: "n/a "}[criterion.holds]
        lines.append(f"{verdict}  {criterion.name}: {criterion.measured}")
    lines.append("the soak holds" if report.holds else "the soak does NOT hold")
    return "\n".join(lines)
