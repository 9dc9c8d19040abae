"""A websocket to an address the site does not serve closes cleanly with CLOSE_NOT_FOUND."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cardroom.asgi import application
from games.live.consumers import CLOSE_NOT_FOUND

from .live import LIVE_MARKS, close_code, session_cookie

pytestmark = LIVE_MARKS
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
PATHS = ["/ws/nowhere/", "/ws/table/", "/ws/lobby/extra/", "/", "/admin/"]


async def closes_as_not_found(path: str, headers: list[tuple[bytes, bytes]]) -> None:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected, path
    assert await close_code(communicator) == CLOSE_NOT_FOUND, path
    await communicator.disconnect()


@pytest.mark.parametrize("path", PATHS)
async def test_an_unknown_path_closes_as_not_found(path, make_user, caplog):
    user = await sync_to_async(make_user)("wanderer")
    cookie = await sync_to_async(session_cookie)(user)
    with caplog.at_level(logging.INFO):
        await closes_as_not_found(path, [*HEADERS, (b"cookie", cookie)])
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("path", PATHS)
async def test_an_anonymous_user_on_an_unknown_path_is_closed_as_not_found(path, caplog):
    with caplog.at_level(logging.INFO):
        await closes_as_not_found(path, HEADERS)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
