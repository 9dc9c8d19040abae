"""One account's sockets, lobby and table, count against MAX_SOCKETS_PER_ACCOUNT across every
server process; the sockets of a killed process stop counting."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.db import connections
from django.utils import timezone

from games.live.consumers import CLOSE_TOO_MANY
from games.models import Presence, Server
from games.people import online
from games.tables import rows

from .factories import OPTIONS
from .live import open_socket, receive_until, session_cookie
from .servers import ServerProcess
from .test_faults import needs_shared_state
from .test_limits import refused

pytestmark = pytest.mark.django_db(transaction=True)

#: The servers beat often and give up on a silent one soon, so that the test sees it (not so
#: soon that a live server held up for a while on a busy machine would lose its places).
FAST = {"PRESENCE_HEARTBEAT_SECONDS": "0.3", "PRESENCE_STALE_SECONDS": "6"}


@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_sockets_another_process_holds_count_against_the_lobby_limit(make_user, settings):
    settings.MAX_SOCKETS_PER_ACCOUNT = 3
    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(rows.create_table)(alice, "belote", OPTIONS, is_private=False)
    for name in ("elsewhere!1", "elsewhere!2"):  # as another server process holds them
        assert await sync_to_async(online.claim_socket)(alice.pk, name) is not None
    mine, connected = await open_socket(alice, "/ws/lobby/")
    assert connected
    lobby, _ = await open_socket(alice, "/ws/lobby/")
    assert await refused(lobby)
    at_table, _ = await open_socket(alice, f"/ws/table/{table.code}/")
    assert await refused(at_table)
    await mine.disconnect()
    again, connected = await open_socket(alice, f"/ws/table/{table.code}/")  # its place is free
    assert connected
    await receive_until(again, 'id="connection"')  # its presence is recorded by now
    assert await sync_to_async(Presence.objects.count)() == 1
    await again.disconnect()


async def attempt(url: str, cookie: str) -> websockets.ClientConnection | None:
    """Open a socket at ``url`` (``http://host/path``): the open socket if it was let in (its
    first frame read), else None (it was told why and closed with CLOSE_TOO_MANY)."""
    ws = await websockets.connect(
        url.replace("http://", "ws://"),
        additional_headers={"Cookie": cookie},
        origin=websockets.Origin(url.split("/ws/")[0]),
        open_timeout=30,
    )
    async with asyncio.timeout(30):
        frame = await ws.recv()
        if "too many tables open" not in str(frame):
            return ws
        await ws.wait_closed()
    assert ws.close_code == CLOSE_TOO_MANY
    return None


@needs_shared_state
def test_two_processes_hold_at_most_the_limit_and_a_killed_ones_sockets_stop_counting(
    make_user, servers
):
    alice = make_user("alice")
    table = rows.create_table(alice, "belote", OPTIONS, is_private=False)
    first, second = (ServerProcess(MAX_SOCKETS_PER_ACCOUNT="3", **FAST) for _ in range(2))
    servers.extend([first, second])
    first.start()
    second.start()
    alices = session_cookie(alice).decode()
    stale = float(FAST["PRESENCE_STALE_SECONDS"])

    def first_beat_since(moment: datetime) -> bool:
        """The first server's heartbeat (it holds a table socket) has beaten after
        ``moment``."""
        assert first.process is not None
        mine = Server.objects.filter(name__contains=f":{first.process.pid}:")
        return mine.filter(seen_at__gt=moment).exists()

    async def scenario() -> None:
        at_table = await attempt(f"{first.url}/ws/table/{table.code}/", alices)
        in_lobby = await attempt(f"{first.url}/ws/lobby/", alices)
        assert at_table is not None and in_lobby is not None
        claimed = timezone.now()
        kept = await attempt(f"{second.url}/ws/lobby/", alices)
        assert kept is not None
        assert await attempt(f"{second.url}/ws/lobby/", alices) is None
        # Longer than a place lasts unrefreshed: the first process's sockets still count.
        later = claimed + timedelta(seconds=stale)
        async with asyncio.timeout(60):
            while not await sync_to_async(first_beat_since)(later):
                await asyncio.sleep(0.1)  # polling the heartbeat inside a bounded wait
        assert await attempt(f"{second.url}/ws/lobby/", alices) is None
        # Killed, the first process's two sockets stop counting once their places lapse.
        first.kill()
        let_in: list[websockets.ClientConnection] = []
        async with asyncio.timeout(60):
            while not let_in:
                ws = await attempt(f"{second.url}/ws/lobby/", alices)
                if ws is None:
                    await asyncio.sleep(0.1)  # polling inside a bounded wait
                else:
                    let_in.append(ws)
        let_in.append(await attempt(f"{second.url}/ws/lobby/", alices))
        assert let_in[-1] is not None
        assert await attempt(f"{second.url}/ws/lobby/", alices) is None  # 3: the limit again
        for ws in [kept, *let_in]:
            await ws.close()

    async def run() -> None:
        try:
            await scenario()
        finally:
            # The database thread's connection too: left open, it outlives the test database.
            await sync_to_async(connections.close_all)()

    asyncio.run(run())
