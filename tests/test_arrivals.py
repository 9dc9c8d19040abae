"""Sockets arrive a few at a time: from the handshake to the first frame, in the order they came."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from cardroom.asgi import application
from games.live import arrivals

from .live import LIVE_MARKS, connect, receive_until
from .test_reconnect import seated_match

pytestmark = LIVE_MARKS


async def test_a_socket_waits_until_the_one_before_it_has_arrived(settings):
    settings.ARRIVALS_AT_ONCE = 1
    came_in: list[str] = []
    first_over = asyncio.Event()

    async def socket(scope, receive, send):
        came_in.append(scope["name"])
        if scope["name"] == "first":
            await first_over.wait()
        arrivals.arrived(scope)

    gate = arrivals.ArrivalGate(socket)
    first = asyncio.create_task(gate({"name": "first"}, None, None))
    second = asyncio.create_task(gate({"name": "second"}, None, None))
    await asyncio.sleep(0)  # both tasks run up to the gate
    assert came_in == ["first"]
    first_over.set()
    await asyncio.gather(first, second)
    assert came_in == ["first", "second"]


async def test_a_socket_that_ends_before_its_arrival_frees_its_place(settings):
    settings.ARRIVALS_AT_ONCE = 1

    async def failing(scope, receive, send):
        raise ValueError("no route")

    async def arriving(scope, receive, send):
        arrivals.arrived(scope)

    with pytest.raises(ValueError):
        await arrivals.ArrivalGate(failing)({}, None, None)
    await asyncio.wait_for(arrivals.ArrivalGate(arriving)({}, None, None), 15)


async def test_a_page_lets_the_next_one_in_once_its_first_frame_is_out(settings):
    settings.ARRIVALS_AT_ONCE = 1
    users, table = await seated_match()
    path = f"/ws/table/{table.code}/"
    # A refused handshake (no account) frees its place as well.
    anonymous = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, _ = await anonymous.connect()
    assert not connected
    pages = []
    for user in users:  # each stays open while the next arrives
        page = await connect(user, path)
        await receive_until(page, 'id="connection"')
        pages.append(page)
    for page in pages:
        await page.disconnect()
