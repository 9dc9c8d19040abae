"""How fast an invitation reaches the friend's open page (``manage.py bench notices``).

A host invites a friend to a waiting table through the site's own form (an HTTP POST with the
session and CSRF cookies a browser has); the friend's notice socket (the one every page opens)
waits for the notice. The latency is the time from sending the POST to the notice's arrival.
With ``REDIS_URL`` set, two server processes run: the host posts to one, the friend listens on
the other, so the notice crosses processes through the channel layer. Traffic goes only to
127.0.0.1 and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from friendship.models import Friend

from games.models import Invitation, Table
from games.tables import rows, seating

from . import load
from .move_path import session_cookie
from .stats import percentile

#: A notice that has not arrived after this long is an error.
NOTICE_TIMEOUT = 10.0
BELOTE_OPTIONS = load.BELOTE_OPTIONS


@dataclass
class Result:
    database: str
    channel_layer: str
    processes: int
    rounds: int
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def prepare() -> tuple[Any, Any, Table]:
    """Two friends and a private table the host sits at."""
    users = get_user_model().objects
    tag = secrets.token_hex(4)
    host = users.create_user(f"notice-host-{tag}", password=secrets.token_hex(16))
    friend = users.create_user(f"notice-friend-{tag}", password=secrets.token_hex(16))
    Friend.objects.create(from_user=host, to_user=friend)
    Friend.objects.create(from_user=friend, to_user=host)
    table = rows.create_table(host, "belote", BELOTE_OPTIONS, is_private=True)
    seating.take_seat(table.pk, host, 0)
    return host, friend, table


def post_invitation(base: str, cookie: str, code: str, username: str) -> int:
    """Invite ``username`` through the table's form, as the host's browser does."""
    token = secrets.token_hex(16)  # a CSRF secret of our own, sent as cookie and header alike
    data = urllib.parse.urlencode({"username": username}).encode()
    request = urllib.request.Request(
        f"{base}/t/{code}/invite/",
        data=data,
        headers={
            "Cookie": f"{cookie}; {settings.CSRF_COOKIE_NAME}={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
    )
    with urllib.request.urlopen(request, timeout=NOTICE_TIMEOUT) as reply:
        return reply.status


async def measure(
    host_base: str,
    friend_ws: str,
    cookies: tuple[str, str],
    friend: Any,
    table: Table,
    result: Result,
) -> None:
    cookie, friend_cookie = cookies
    socket = await load.open_socket(f"{friend_ws}/ws/notices/", friend_cookie)
    try:
        for _ in range(result.rounds):
            began = time.perf_counter()
            status = await asyncio.to_thread(
                post_invitation, host_base, cookie, table.code, friend.username
            )
            try:
                async with asyncio.timeout(NOTICE_TIMEOUT):
                    while "invites you" not in await socket.recv():
                        pass
            except TimeoutError:
                result.errors += 1
            else:
                if status == 200:
                    result.latencies_ms.append((time.perf_counter() - began) * 1000)
            # Declined at once, so that the next round may invite again.
            await asyncio.to_thread(
                Invitation.objects.filter(table=table).update, status=Invitation.Status.DECLINED
            )
    finally:
        await socket.close()


def run(*, rounds: int, say: Any) -> Result:
    """Start the server(s) on ``DATABASE_URL``, measure ``rounds`` invitations, stop them."""
    database, layer = load.describe_setup()
    processes = 2 if settings.REDIS_URL else 1
    result = Result(database, layer, processes, rounds)
    host, friend, table = prepare()
    ports = [load.free_port() for _ in range(processes)]
    servers = [load.start_server(os.environ["DATABASE_URL"], port) for port in ports]
    say(f"started {processes} daphne process(es); {rounds} invitations")
    try:
        host_base = f"http://127.0.0.1:{ports[0]}"
        friend_ws = load.websocket_base(f"http://127.0.0.1:{ports[-1]}")
        cookies = (session_cookie(host), session_cookie(friend))
        asyncio.run(measure(host_base, friend_ws, cookies, friend, table, result))
    finally:
        for server in servers:
            load.stop_server(server)
        Table.objects.filter(pk=table.pk).update(status=Table.Status.ABORTED)
    return result


def format_result(result: Result) -> str:
    values = sorted(result.latencies_ms)
    if not values:
        return f"no notice arrived ({result.errors} errors)"
    return (
        f"database {result.database}, channel layer {result.channel_layer}, "
        f"{result.processes} server process(es): {len(values)} invitations, notice latency "
        f"p50 {percentile(values, 0.5):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, "
        f"max {values[-1]:.1f} ms" + (f", errors {result.errors}" if result.errors else "")
    )
