"""Channels' test clients, made to wait as long as a busy machine needs (see :func:`patched`).

Channels' communicators give up after one second by default: on connecting, on waiting for a
frame, and on waiting for the application to end after a disconnect. A busy machine takes
longer than that now and then. Worse, on a disconnect the application is cancelled after that
second, and a cardroom consumer's clean-up (presence, groups, the socket's place) may be cut
short, or go on unwatched past the test's own checks and into the next test's database flush.

Here a wait for a frame or a connection ends when it comes (or fails after ``FRAME_TIMEOUT``),
and a disconnect of a cardroom consumer returns once its clean-up is over. The application is
then ended by cancelling it, again until it has ended: on Redis, a consumer's channel-layer
receive may swallow a cancel and go on waiting (a server cancels such an application again
after its application close timeout), and one cancel is not always enough.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from unittest import mock

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator
from channels.testing.application import ApplicationCommunicator as ChannelsCommunicator
from channels.testing.application import no_op

from games.live.consumers import AuthenticatedConsumer

from .live import FRAME_TIMEOUT

#: The scope key under which a communicator follows the consumer serving it (middleware copies
#: the scope, not what it holds).
KEY = "tests.connection"
#: How long an application other than a cardroom consumer may take to end after a disconnect
#: before it is cancelled (the library's own wait): it has no clean-up to wait for.
OTHERS_END = 1.0
#: The communicators of each event loop, so that a test's sockets can be closed as it ends
#: (held here: once the test returns, nothing else may refer to them, and their applications
#: would run on until the loop closes).
_opened: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list] = weakref.WeakKeyDictionary()
#: Clean-ups under way (cardroom consumers'), each a future done when it is over.
_cleaning: set[asyncio.Future] = set()


@dataclass
class Connection:
    """What a communicator learns of the consumer serving it."""

    #: Whether it is a cardroom consumer (one with a clean-up to wait for).
    ours: bool = False
    cleaned: asyncio.Event = field(default_factory=asyncio.Event)


def patient(method: Callable) -> Callable:
    """``method`` with FRAME_TIMEOUT for its ``timeout`` when the caller gives none."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    async def call(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.arguments.setdefault("timeout", FRAME_TIMEOUT)
        return await method(*bound.args, **bound.kwargs)

    return call


async def receive_output(self: ApplicationCommunicator, timeout: float = FRAME_TIMEOUT) -> dict:
    """The application's next message; raises the application's error if it failed meanwhile,
    ``TimeoutError`` if it sent nothing in ``timeout`` seconds (or ended without a word). The
    application is left running (the library cancels it, and may then wait on it for ever)."""
    if self.future.done():
        self.future.result()
    getter = asyncio.ensure_future(self.output_queue.get())
    try:
        await asyncio.wait(
            {getter, self.future}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        if not getter.done():
            getter.cancel()
    if getter.done() and not getter.cancelled():
        return getter.result()
    if self.future.done() and not self.future.cancelled():
        self.future.result()
    raise TimeoutError


def followed(init: Callable) -> Callable:
    @functools.wraps(init)
    def call(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        # The application starts on the loop's next turn: it sees the key.
        self.scope[KEY] = Connection()
        loop = asyncio.get_running_loop()
        _opened.setdefault(loop, []).append(self)

    return call


async def end(communicator: ApplicationCommunicator) -> None:
    """Cancel the application until it has ended (a cancel may be swallowed while it waits for
    its channel-layer receive to stop); raise the error it ended with, if any."""
    future = communicator.future
    async with asyncio.timeout(FRAME_TIMEOUT):
        while not future.done():
            future.cancel()
            await asyncio.wait({future}, timeout=0.05)  # a few turns of the loop, then again
    if not future.cancelled():
        future.result()


async def disconnect(self: WebsocketCommunicator, code: int = 1000, timeout: float | None = None):
    """Close the socket; return once a cardroom consumer has cleaned up (another application:
    once it has ended, or after ``timeout``), its application ended."""
    # As while Channels' communicators wait: closing the database connections between an
    # application's messages is left to the test database's own handling.
    with mock.patch("channels.db.close_old_connections", no_op):
        await _disconnect(self, code, timeout)


async def _disconnect(self: WebsocketCommunicator, code: int, timeout: float | None) -> None:
    await self.send_input({"type": "websocket.disconnect", "code": code})
    connection = self.scope.get(KEY)
    if connection is not None and connection.ours:
        cleaned = asyncio.ensure_future(connection.cleaned.wait())
        try:
            await asyncio.wait(
                {self.future, cleaned}, timeout=FRAME_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            cleaned.cancel()
        assert connection.cleaned.is_set() or self.future.done(), "the consumer never cleaned up"
    else:
        await asyncio.wait({self.future}, timeout=OTHERS_END if timeout is None else timeout)
    await end(self)


async def close_open() -> None:
    """Disconnect every communicator of this event loop whose application still runs (a test
    that ends with sockets open, some closed by the server: their clean-up must not outlive
    the test)."""
    for communicator in _opened.pop(asyncio.get_running_loop(), ()):
        if not communicator.future.done():
            with contextlib.suppress(Exception):  # an application that failed: the test saw it
                await communicator.disconnect()
    # Clean-ups started otherwise (by an application cancelled, or that failed).
    loop = asyncio.get_running_loop()
    cleaning = {over for over in _cleaning if over.get_loop() is loop}
    if cleaning:
        await asyncio.wait(cleaning, timeout=FRAME_TIMEOUT)


def serving(call: Callable) -> Callable:
    @functools.wraps(call)
    async def wrapper(self, scope, receive, send) -> None:
        connection = scope.get(KEY)
        if connection is not None:
            connection.ours = True
        await call(self, scope, receive, send)

    return wrapper


def cleaning(clean_up: Callable) -> Callable:
    @functools.wraps(clean_up)
    async def wrapper(self, *args, **kwargs) -> None:
        first = not self.cleaned_up  # it runs once per connection; later calls return at once
        over = asyncio.get_running_loop().create_future()
        _cleaning.add(over)
        try:
            await clean_up(self, *args, **kwargs)
        finally:
            _cleaning.discard(over)
            over.set_result(None)
        connection = self.scope.get(KEY)
        if first and connection is not None:
            connection.cleaned.set()

    return wrapper


@contextlib.contextmanager
def patched() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for cls, name in (
            (WebsocketCommunicator, "connect"),
            (WebsocketCommunicator, "receive_from"),
            (WebsocketCommunicator, "receive_json_from"),
            (ChannelsCommunicator, "receive_output"),
        ):
            patch.setattr(cls, name, patient(getattr(cls, name)))
        patch.setattr(ApplicationCommunicator, "receive_output", receive_output)
        patch.setattr(WebsocketCommunicator, "__init__", followed(WebsocketCommunicator.__init__))
        patch.setattr(WebsocketCommunicator, "disconnect", disconnect)
        patch.setattr(AuthenticatedConsumer, "__call__", serving(AuthenticatedConsumer.__call__))
        patch.setattr(AuthenticatedConsumer, "clean_up", cleaning(AuthenticatedConsumer.clean_up))
        yield
