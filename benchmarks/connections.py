"""What a request costs with the connection pool and without (``manage.py bench connections``).

One daphne process in production mode serves GETs of two pages that read the database (the
Belote leaderboard, anonymous, and a club's page, signed in), first one at a time, then many at
once, once for each way of connecting: Django's pool of ``DB_POOL_SIZE`` (``pool``) and a new
connection for every request (``none``, ``DB_POOL_SIZE=0``; the only way on SQLite). Per way it
reports the time per request (median and p95), requests a second, and the most connections the
process held (PostgreSQL, from ``pg_stat_activity``) or descriptors it had open on the
database's files (SQLite), sampled while the requests run. Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from games.people import clubs

from . import load, soak
from .move_path import session_cookie
from .stats import percentile

#: The pool's size in the ``pool`` runs.
POOL_SIZE = 10


@dataclass
class Run:
    way: str
    concurrency: int
    requests: int
    failed: int
    median_ms: float
    p95_ms: float
    per_second: float
    most_held: int


def _get(url: str, cookie: str | None) -> tuple[bool, float]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            reply.read()
            ok = reply.status == 200
    except (urllib.error.URLError, OSError):
        ok = False
    return ok, time.perf_counter() - began


def held_by(pid: int, application_name: str) -> int:
    """Connections (PostgreSQL) or database descriptors (SQLite) the server holds now."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                [application_name],
            )
            return cursor.fetchone()[0]
    database = str(Path(connection.settings_dict["NAME"]).resolve())
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith(database)
        except OSError:
            continue
    return count


class Peak:
    """The most ``measure()`` returned, sampled in a thread of its own every ``every`` seconds
    while the ``with`` block runs."""

    def __init__(self, measure: Callable[[], int], every: float = 0.05) -> None:
        self.measure, self.every, self.most = measure, every, 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch)

    def _watch(self) -> None:
        try:
            while not self._done.is_set():
                self.most = max(self.most, self.measure())
                self._done.wait(self.every)
        finally:
            connection.close()  # this thread's own

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


def _measure(
    way: str, base: str, jobs: list[tuple[str, str | None]], concurrency: int, held: Any
) -> Run:
    with Peak(held) as peak:
        began = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            results = list(pool.map(lambda job: _get(base + job[0], job[1]), jobs))
        elapsed = time.perf_counter() - began
    times = sorted(seconds * 1000 for ok, seconds in results if ok)
    return Run(
        way=way,
        concurrency=concurrency,
        requests=len(results),
        failed=sum(not ok for ok, _ in results),
        median_ms=round(percentile(times, 0.5), 2) if times else 0.0,
        p95_ms=round(percentile(times, 0.95), 2) if times else 0.0,
        per_second=round(len(results) / elapsed, 1),
        most_held=peak.most,
    )


def run(requests: int, say: Callable[[str], None]) -> list[Run]:
    """Serve ``requests`` GETs each way, one at a time and 20 at once."""
    users = [
        get_user_model().objects.create_user(f"conn-{secrets.token_hex(4)}-{n}", password=None)
        for n in range(10)
    ]
    club = clubs.create_club(users[0], f"Bench {secrets.token_hex(3)}", "", ["belote"], "open")
    for user in users[1:]:
        clubs.join(club, user)
    cookies = [session_cookie(user) for user in users]
    pages = [("/leaderboard/belote/", None)] + [(f"/clubs/{club.pk}/", c) for c in cookies]
    jobs = [pages[n % len(pages)] for n in range(requests)]
    ways = ["pool", "none"] if connection.vendor == "postgresql" else ["none"]
    database_url = os.environ["DATABASE_URL"]
    soak.collect_static(database_url)
    runs = []
    for way in ways:
        name = f"cardroom-bench-{way}-{secrets.token_hex(3)}"
        port = load.free_port()
        os.environ.update(PGAPPNAME=name, DB_POOL_SIZE=str(POOL_SIZE if way == "pool" else 0))
        try:
            server = load.start_server(database_url, port)
        finally:
            del os.environ["PGAPPNAME"], os.environ["DB_POOL_SIZE"]
        try:
            base = f"http://127.0.0.1:{port}"
            _measure(way, base, jobs[:20], 1, lambda: 0)  # warm: imports, templates
            for concurrency in (1, 20):
                say(f"{way}: {requests} requests, {concurrency} at a time")
                held = lambda server=server, name=name: held_by(server.pid, name)  # noqa: E731
                runs.append(_measure(way, base, jobs, concurrency, held))
        finally:
            load.stop_server(server)
    return runs


def format_runs(runs: list[Run]) -> str:
    held = "connections" if connection.vendor == "postgresql" else "db descriptors"
    lines = [
        f"{'way':>5} {'at once':>8} {'requests':>9} {'failed':>7} {'median ms':>10} "
        f"{'p95 ms':>8} {'per s':>7} {'most ' + held:>20}"
    ]
    for r in runs:
        lines.append(
            f"{r.way:>5} {r.concurrency:>8} {r.requests:>9} {r.failed:>7} {r.median_ms:>10.2f} "
            f"{r.p95_ms:>8.2f} {r.per_second:>7.1f} {r.most_held:>20}"
        )
    return "\n".join(lines)


def as_dicts(runs: list[Run]) -> list[dict[str, Any]]:
    return [asdict(r) for r in runs]
