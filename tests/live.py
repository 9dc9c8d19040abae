"""Helpers for websocket tests: logged-in communicators and frame scanning."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import translation

from cardroom.asgi import application
from games.live import notify
from games.presenters.words import card_name

CARD_CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")
#: How long a test waits for a frame it expects: long enough for a busy machine (waits end as
#: soon as the frame comes; only a failing test waits this long).
FRAME_TIMEOUT = 15
#: What a socket test needs: a database its consumers' threads see, an event loop, and no
#: background loop moving the tables on its own.
LIVE_MARKS = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("background_stopped"),
]


def live_test(test):
    """Mark ``test`` with the ``LIVE_MARKS``."""
    for mark in reversed(LIVE_MARKS):
        test = mark(test)
    return test


def version_mark(version: int) -> str:
    """How a frame says the page now plays at match ``version`` (``#play-version``)."""
    return f'name="version" value="{version}"'


def render_languages(monkeypatch, module, name: str) -> list[str]:
    """From now on, the language active at each call of ``module.name``, a renderer."""
    languages: list[str] = []
    real = getattr(module, name)

    def recording(*args, **kwargs):
        languages.append(translation.get_language())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, recording)
    return languages


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
    connected, _ = await communicator.connect(timeout=FRAME_TIMEOUT)
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


async def close_code(communicator: WebsocketCommunicator) -> int:
    """Skip frames until the server closes the socket; return its close code."""
    while True:
        output = await communicator.receive_output(timeout=FRAME_TIMEOUT)
        if output["type"] == "websocket.close":
            return output["code"]


async def receive_until(communicator, needle: str) -> str:
    """Frames until one contains ``needle``; fails after FRAME_TIMEOUT seconds."""
    return (await frames_until(communicator, needle))[-1]


async def frames_until(communicator, needle: str | Callable[[str], bool]) -> list[str]:
    """Every frame up to and including the first that contains ``needle`` (or of which
    ``needle(frame)`` holds); fails after FRAME_TIMEOUT seconds."""
    found = needle if callable(needle) else lambda frame: needle in frame
    received: list[str] = []
    async with asyncio.timeout(FRAME_TIMEOUT):
        while not received or not found(received[-1]):
            received.append(await communicator.receive_from(timeout=FRAME_TIMEOUT))
    return received


def queued(communicator) -> list[str]:
    """The frames that have arrived on ``communicator`` and were not read yet (no waiting:
    frames still on their way are not among them)."""
    frames = []
    while not communicator.output_queue.empty():
        message = communicator.output_queue.get_nowait()
        assert message["type"] == "websocket.send", message
        frames.append(message["text"])
    return frames


REFUSAL = "not something this table understands"


async def all_handled(communicator) -> list[str]:
    """Send a request the table refuses and wait for the refusal: by then every request sent
    on this table socket before it has been handled (a socket's requests are handled in turn),
    its connect included. Returns the frames received before the refusal.

    The request counts against the socket's frame budget (``consumers.FRAME_BURST``)."""
    await send(communicator, op="no-such-op")
    return (await frames_until(communicator, REFUSAL))[:-1]


def _chat_log_sent_again(frame: str) -> bool:
    # Not a whole frame (that starts otherwise), nor a chat line appended to the log.
    return frame.startswith('<div id="chat-log" class="chat-log">')


async def heard(table_id: int, *communicators) -> list[list[str]]:
    """Wait until each of these table sockets has handled every change announced to the table
    so far; returns the frames each received meanwhile.

    The wait is an event everyone at the table hears after those changes (the chat log sent
    again, as after a moderator hid a message): a socket handles the table's events in the
    order they were sent, and answers this one with a frame."""
    await notify.send(notify.table_group(table_id), {"type": "chat.refresh"})
    return [(await frames_until(c, _chat_log_sent_again))[:-1] for c in communicators]


async def settle(table_id: int, *communicators) -> list[list[str]]:
    """:func:`all_handled` on each socket, then :func:`heard`: everything these sockets asked
    for, and everything that told the table, has reached all of them. Returns the frames each
    received meanwhile (not the ones the wait itself asked for)."""
    received = [await all_handled(communicator) for communicator in communicators]
    for frames, more in zip(received, await heard(table_id, *communicators), strict=True):
        frames += more
    return received
