"""Database work of many connections in one trip to the database thread.

After a change that this process has not read yet (a move made by another process, a seat
taken), every connection to the table renders its frame (synchronous Django code: ORM and
templates), each through ``database_sync_to_async``: one thread hop per connection, each with
its own thread wake-up and futures; and every move is such a call. :func:`run_batched` queues
the call instead; the calls queued while the loop was busy go to the database thread together,
in the order they were queued, and each caller gets its own result or exception back, computed
in the caller's language (the one thing of a caller's context that these calls read: a
connection renders in its page's language). A caller still awaits its own result before it
handles its next message, so each connection's frames keep their order.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import TypeVar, TypeVarTuple, Unpack

from channels.db import database_sync_to_async
from django.utils import translation

T = TypeVar("T")
Args = TypeVarTuple("Args")

#: A queued call: the function, its arguments, the caller's language and the caller's future.
_Call = tuple[Callable[..., object], tuple[object, ...], str | None, asyncio.Future]


class Batcher:
    """Queues synchronous calls and runs each batch in one ``database_sync_to_async`` hop."""

    def __init__(self) -> None:
        self.queue: list[_Call] = []
        self.task: asyncio.Task | None = None

    async def run(self, func: Callable[[Unpack[Args]], T], *args: *Args) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self.queue.append((func, args, translation.get_language(), future))
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self.queue:
            batch, self.queue = self.queue, []
            try:
                outcomes = await _run_all_in_thread(batch)
            except BaseException as error:  # cancelled (the loop is stopping): callers too
                for *_, future in batch:
                    if not future.done():
                        future.cancel()
                raise error
            for (*_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if future.done():  # its caller went away (a closed connection)
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)


def _run_all(batch: list[_Call]) -> list[tuple[bool, object]]:
    outcomes: list[tuple[bool, object]] = []
    for func, args, language, _ in batch:
        try:
            # The batch runs in one caller's context; asgiref does not carry a caller's
            # language to this thread unless the hop is its own, so each call sets it.
            if translation.get_language() == language:
                outcomes.append((True, func(*args)))
            else:
                with translation.override(language):
                    outcomes.append((True, func(*args)))
        except Exception as error:  # handed to the caller, raised there
            outcomes.append((False, error))
    return outcomes


_run_all_in_thread = database_sync_to_async(_run_all)

#: One batcher per event loop (a server has one; tests start a loop per test).
_batchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Batcher] = (
    weakref.WeakKeyDictionary()
)


async def run_batched(func: Callable[[Unpack[Args]], T], *args: *Args) -> T:
    """``await database_sync_to_async(func)(*args)``, sharing the hop with concurrent calls."""
    loop = asyncio.get_running_loop()
    batcher = _batchers.get(loop)
    if batcher is None:
        batcher = _batchers[loop] = Batcher()
    return await batcher.run(func, *args)
