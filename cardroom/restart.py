"""Restarts nobody notices: a stopping server closes each socket as a restart, not a fault.

The server (``cardroom.server``) puts :data:`SHUTDOWN` in each open websocket's queue when it
is told to stop, behind the frames already received. Those are handled first (a move is
committed and announced); then the socket closes with :data:`CLOSE_RESTART`, which the page
answers by reconnecting (through the proxy, to another server), and frames that arrive after
the marker are dropped unread: the page's next view shows they were not applied.
"""

from __future__ import annotations

from typing import Any

#: The message a stopping server sends each websocket application (not an ASGI message).
SHUTDOWN = "websocket.shutdown"
#: Close code "Service Restart" (RFC 6455): the htmx ws extension reconnects after it.
CLOSE_RESTART = 1012


class ClosesOnRestart:
    """For websocket consumers: close as a restart on :data:`SHUTDOWN`, read nothing after."""

    leaving = False

    async def websocket_shutdown(self, message: dict[str, Any]) -> None:
        self.leaving = True
        await self.close(code=CLOSE_RESTART)  # type: ignore[attr-defined]

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        if self.leaving:
            return
        await super().websocket_receive(message)  # type: ignore[misc]
