"""At most a few sockets of a process arrive at once: from the handshake to the first frame.

An arrival is several trips to the live thread one after the other (the handshake's user, the
presence, the first frame), and that thread takes work in the order it comes. When hundreds of
pages arrive together (a restarted server's, reconnecting through the proxy), every arrival's
first trip was queued before any second one, so every page waited for the whole burst, and
every move of the tables already here waited behind it. The gate lets ``ARRIVALS_AT_ONCE`` in at
a time, in the order they came: pages come back one after the other, and a move waits behind a
few arrivals' trips at most. The consumer says when its arrival is over
(``scope["arrived"]``); a socket that ends first frees its place too.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from django.conf import settings

#: One gate per event loop (a server has one; tests start a loop per test).
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(settings.ARRIVALS_AT_ONCE)
    return gate


class ArrivalGate:
    """ASGI middleware for websockets: wait for a place before the handshake is handled."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        gate = _gate()
        await gate.acquire()
        held = True

        def arrived() -> None:
            nonlocal held
            if held:
                held = False
                gate.release()

        try:
            return await self.app({**scope, "arrived": arrived}, receive, send)
        finally:
            arrived()


def arrived(scope: dict) -> None:
    """Free the socket's place at the gate (its arrival is over); nothing without a gate."""
    done = scope.get("arrived")
    if done is not None:
        done()
