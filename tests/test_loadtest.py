"""The load benchmark's parts that can rot silently: reading frames, the floor, the figures."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games import loadtest
from games.consumers_bench import FanOutConsumer
from games.frames import render_frame
from games.models import Table


@pytest.mark.django_db
def test_a_seated_table_frame_shows_its_version_and_the_moves_of_the_player_to_act():
    cookies = loadtest.make_players(4)
    seating = loadtest.seat_tables(cookies, 1)[0]
    table = Table.objects.get(code=seating.code)
    users = get_user_model().objects.filter(username__startswith=loadtest.USER_PREFIX)
    frames = [render_frame(table, user) for user in users.order_by("username")]
    versions = {loadtest.VERSION_RE.search(frame).group(1) for frame in frames}
    assert versions == {"0"}
    movers = [frame for frame in frames if loadtest.ACTION_RE.findall(frame)]
    assert len(movers) == 1
    assert "pass" in loadtest.ACTION_RE.findall(movers[0])
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


def test_percentiles_are_in_milliseconds_by_nearest_rank():
    values = [i / 1000 for i in range(1, 101)]
    assert loadtest.percentile(values, 0.5) == 50.0
    assert loadtest.percentile(values, 0.95) == 95.0
    assert loadtest.percentile([], 0.5) is None


def test_only_this_machine_may_be_targeted():
    assert loadtest.websocket_base("http://127.0.0.1:8001") == "ws://127.0.0.1:8001"
    with pytest.raises(ValueError):
        loadtest.websocket_base("http://example.com:80")
