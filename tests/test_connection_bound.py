"""A server process holds a bounded number of database connections, whatever the crowd.

Each test starts daphne with the site's own settings (not the suite's), sends many HTTP requests
at once, anonymous and signed in, then counts what the process holds: its PostgreSQL
connections (in ``pg_stat_activity``, by an application name of its own) or, on SQLite, the
descriptors it has open on the database's files.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from types import SimpleNamespace

import pytest
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from channels.db import database_sync_to_async
from django.db import connection

from games.live import database
from games.people import clubs

from .factories import make_players
from .live import session_cookie
from .servers import ServerProcess

pytestmark = pytest.mark.django_db(transaction=True)

#: The bound the servers here are given (DB_POOL_SIZE).
POOL_SIZE = 3
#: Requests sent, all at once, by this many clients.
CONCURRENCY = 30
ANONYMOUS_PATHS = ["/healthz", "/leaderboard/belote/", "/rules/belote/", "/"]


def start_server(servers: list[ServerProcess], application_name: str) -> ServerProcess:
    """Daphne with the site's settings (development mode) and a pool of POOL_SIZE."""
    server = ServerProcess(
        DJANGO_SETTINGS_MODULE="cardroom.settings",
        DEBUG="1",
        DB_POOL_SIZE=str(POOL_SIZE),
        PGAPPNAME=application_name,
    )
    servers.append(server)
    server.start()
    return server


def get(url: str, cookie: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            reply.read()
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def crowd(server: ServerProcess, cookies: list[str], club_path: str) -> list[int]:
    """Send anonymous and signed-in GETs, CONCURRENCY at a time; return their statuses."""
    jobs = [(server.url + path, None) for path in ANONYMOUS_PATHS * 15]
    jobs += [(server.url + page, cookie) for cookie in cookies for page in (club_path, "/")]
    with ThreadPoolExecutor(CONCURRENCY) as pool:
        return list(pool.map(lambda job: get(*job), jobs))


def most_while(work: Callable[[], list[int]], measure: Callable[[], int]) -> tuple[list, int]:
    """Run ``work()`` in a thread while this one samples ``measure()`` every 20 ms: what the
    work returned, and the most sampled (once more after it ended)."""
    with ThreadPoolExecutor(1) as side:
        running = side.submit(work)
        most = 0
        while not running.done():
            most = max(most, measure())
            wait([running], timeout=0.02)
        return running.result(), max(most, measure())


def club_and_cookies() -> tuple[str, list[str]]:
    users = make_players(10)
    club = clubs.create_club(users[0], "Crowd", "", ["belote"], "open")
    for user in users[1:]:
        clubs.join(club, user)
    return f"/clubs/{club.pk}/", [session_cookie(user).decode() for user in users]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="counts PostgreSQL connections")
def test_a_process_holds_at_most_its_pool_of_postgresql_connections(servers):
    club_path, cookies = club_and_cookies()
    name = f"cardroom-{uuid.uuid4().hex[:12]}"
    server = start_server(servers, name)

    def held() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [name]
            )
            return cursor.fetchone()[0]

    def twice() -> list[int]:
        return crowd(server, cookies, club_path) + crowd(server, cookies, club_path)

    statuses, most = most_while(twice, held)
    assert set(statuses) == {200}, statuses
    assert 0 < most <= POOL_SIZE
    assert held() <= POOL_SIZE


@pytest.mark.skipif(connection.vendor != "sqlite", reason="counts SQLite file descriptors")
def test_a_process_keeps_no_sqlite_connection_open_after_the_requests(servers):
    club_path, cookies = club_and_cookies()
    server = start_server(servers, "cardroom")
    database = str(Path(connection.settings_dict["NAME"]).resolve())
    assert server.process is not None
    descriptors = Path(f"/proc/{server.process.pid}/fd")

    def open_on_the_database() -> int:
        targets = []
        for fd in descriptors.iterdir():
            with contextlib.suppress(OSError):  # closed while listed
                targets.append(os.readlink(fd))
        return sum(target.startswith(database) for target in targets)

    before = open_on_the_database()
    statuses = crowd(server, cookies, club_path)
    statuses += crowd(server, cookies, club_path)
    assert set(statuses) == {200}, statuses
    # A request closes its connection just after its reply is sent: wait for the last of them.
    deadline = time.monotonic() + 60
    while open_on_the_database() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert open_on_the_database() <= before


def test_a_connection_opened_on_the_sockets_thread_is_kept_and_no_other():
    """Every socket's database work runs on one thread, which keeps its connection; a
    request's thread gives its own back when the request ends."""

    def opened() -> float | None:
        wrapper = SimpleNamespace(close_at=time.monotonic())  # as ``connect`` leaves it
        database.keep_on_live_thread(sender=None, connection=wrapper)
        return wrapper.close_at

    async def in_a_request() -> float | None:
        async with ThreadSensitiveContext():  # as Django's ASGI handler serves each request
            return await sync_to_async(opened)()

    assert asyncio.run(database_sync_to_async(opened)()) is None
    assert asyncio.run(in_a_request()) is not None
    assert opened() is not None
