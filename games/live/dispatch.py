"""Message dispatch for this project's consumers, leaner than Channels' own on the hot path.

Two costs of Channels 4.3's loop are paid for every message a consumer handles, and a Belote
move is six messages (the mover's frame, then the table's change event to four sockets and the
table's driver):

- ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before every message: a trip
  to the database thread whether or not the handler touches the database. Ours reach the
  database only through ``database_sync_to_async`` (or the batcher built on it), which closes
  old connections around each call on that thread, so the extra trip bought nothing.
- ``await_many_dispatch`` starts a new task for every message and waits for it with
  ``asyncio.wait``: a task, a waiter and callbacks added to and removed from both sources'
  tasks, four turns of the event loop per message. :func:`dispatch_from` keeps one task per
  source for the consumer's life, handing each message over through a one-place queue: two
  turns, the same order per source, and as in Channels at most one message taken from each source
  ahead of the one being handled.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

from .messages import Event

Source = Callable[[], Awaitable[Event]]


async def _pump(source: Source, inbox: asyncio.Queue) -> None:
    """Hand each message of ``source`` to ``inbox``, or the error that stopped it."""
    try:
        while True:
            message = await source()
            await inbox.put((message, None))
    except asyncio.CancelledError:
        raise
    except Exception as error:  # the consumer raises it, as Channels' loop would
        await inbox.put((None, error))


async def dispatch_from(
    sources: list[Source], dispatch: Callable[[Event], Awaitable[None]]
) -> None:
    """Await messages from every source and ``dispatch`` each as it comes, one at a time
    (``channels.utils.await_many_dispatch``, with a long-lived task per source)."""
    inbox: asyncio.Queue = asyncio.Queue(maxsize=1)
    pumps = [asyncio.ensure_future(_pump(source, inbox)) for source in sources]
    try:
        while True:
            message, error = await inbox.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for pump in pumps:
            pump.cancel()
        for pump in pumps:
            with contextlib.suppress(asyncio.CancelledError):
                await pump


class DirectDispatchMixin:
    """Dispatch each message straight to its handler, from long-lived source tasks (see the
    module docstring). For asynchronous consumers (``AsyncConsumer`` subclasses)."""

    async def __call__(self, scope, receive, send) -> None:
        # AsyncConsumer.__call__, with dispatch_from in place of await_many_dispatch.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await dispatch_from(sources, self.dispatch)

    async def dispatch(self, message: Event) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
