"""Helpers for websocket tests: logged-in communicators and frame scanning."""

from __future__ import annotations

import asyncio
import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from cardroom.asgi import application
from games.presenters.words import card_name

CARD_CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def version_mark(version: int) -> str:
    """How a frame says the page now plays at match ``version`` (``#play-version``)."""
    return f'name="version" value="{version}"'


def session_cookie(user) -> bytes:
    """A session cookie header value for ``user``, as a browser would send it."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_socket(user, path: str) -> tuple[WebsocketCommunicator, bool]:
    """Open a websocket at ``path`` as ``user`` from the site's own page; whether it was
    accepted."""
    cookie = await sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)],
    )
    connected, _ = await communicator.connect()
    return communicator, connected


async def connect(user, path: str) -> WebsocketCommunicator:
    """Open a websocket at ``path`` as ``user`` and check it was accepted."""
    communicator, connected = await open_socket(user, path)
    assert connected
    return communicator


async def send(communicator: WebsocketCommunicator, **message) -> None:
    await communicator.send_to(text_data=json.dumps(message))


def leaked_cards(frame: str, hidden: set[str]) -> set[str]:
    """The cards of ``hidden`` that ``frame`` reveals, by code or by name."""
    shown = set()
    for code in hidden:
        if f'value="{code}"' in frame or card_name(code) in frame:
            shown.add(code)
    return shown


async def close_code(communicator: WebsocketCommunicator, timeout: float = 3) -> int:
    """Skip frames until the server closes the socket; return its close code."""
    while True:
        output = await communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output["code"]


FRAME_TIMEOUT = 5


async def drain(communicator, timeout: float = 0.3) -> list[str]:
    """Every frame waiting on ``communicator`` (stops after ``timeout`` s of silence)."""
    frames = []
    # receive_nothing() waits without cancelling the application (receive_from's timeout would).
    while not await communicator.receive_nothing(timeout=timeout):
        frames.append(await communicator.receive_from())
    return frames


async def receive_until(communicator, needle: str) -> str:
    """Frames until one contains ``needle``; fails after FRAME_TIMEOUT seconds."""
    async with asyncio.timeout(FRAME_TIMEOUT):
        while True:
            frame = await communicator.receive_from(timeout=FRAME_TIMEOUT)
            if needle in frame:
                return frame
