"""``python -m cardroom.server``: daphne (same arguments) that stops without dropping anyone.

On SIGTERM daphne cancels every connection's application at once: a move being handled may
be committed but never announced, and every page sees its socket drop. This server instead
stops listening (the proxy sends new connections to the other servers), asks each websocket
application to finish the frames it has and close as a restart
(:mod:`cardroom.restart`), waits for every application (requests in flight too) for at
most ``--application-close-timeout`` seconds, and only then cancels what is left (and stops
:data:`CANCEL_SECONDS` later whatever it is still waiting for).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time

from daphne.cli import CommandLineInterface
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import defer

from cardroom.restart import CLOSE_RESTART, SHUTDOWN

logger = logging.getLogger(__name__)
#: How often the drain looks for sockets that opened since it began.
DRAIN_POLL_SECONDS = 0.05
CLOSING = (WebSocketProtocol.STATE_CLOSING, WebSocketProtocol.STATE_CLOSED)
#: Sockets closed a second while stopping (``DRAIN_SOCKETS_PER_SECOND``): fewer than the other
#: servers take beside their own play, so a page is back within a second or two
#: (docs/benchmarks.md, "A rolling restart"); 800 sockets close within the 60 s Makefile's
#: ``--application-close-timeout``.
DRAIN_SOCKETS_PER_SECOND = float(os.environ.get("DRAIN_SOCKETS_PER_SECOND", "16"))
#: How long the applications still running at the close timeout have to end once cancelled.
CANCEL_SECONDS = 3.0


class DrainingServer(Server):
    """daphne's server with a graceful stop (see the module docstring)."""

    def run(self) -> None:
        self.ports: list = []
        super().run()

    def listen_success(self, port) -> None:
        self.ports.append(port)
        super().listen_success(port)

    async def handle_reply(self, protocol, message: dict) -> None:
        if isinstance(protocol, WebSocketProtocol) and protocol.state in CLOSING:
            if message.get("type") == "websocket.send":
                return  # news for a socket closing as a restart: its next view has it
        elif (
            message.get("type") == "websocket.close"
            and message.get("code") == CLOSE_RESTART
            and isinstance(protocol, WebSocketProtocol)
            and protocol.state == protocol.STATE_OPEN
            and not self.connections.get(protocol, {}).get("disconnected")
        ):
            # autobahn lets an application close with 1000 or 3000-4999 only: a restart's
            # code (1012) is the server's to send.
            protocol.sendCloseFrame(code=CLOSE_RESTART, isReply=False)
            return
        await super().handle_reply(protocol, message)

    def kill_all_applications(self) -> defer.Deferred:
        return defer.Deferred.fromFuture(asyncio.ensure_future(self.drain()))

    async def drain(self) -> None:
        """Stop listening, close every websocket as a restart, wait, then cancel the rest."""
        for port in self.ports:
            port.stopListening()
        told: set[WebSocketProtocol] = set()
        began = time.monotonic()
        deadline = began + self.application_close_timeout
        while time.monotonic() < deadline:
            running = False
            # A few at a time: the other servers take every page that reconnects.
            allowed = DRAIN_SOCKETS_PER_SECOND * (time.monotonic() - began + DRAIN_POLL_SECONDS)
            for protocol, details in list(self.connections.items()):
                instance = details.get("application_instance")
                if instance is None or instance.done():
                    continue
                running = True
                if (
                    isinstance(protocol, WebSocketProtocol)
                    and protocol not in told
                    and protocol.state == protocol.STATE_OPEN
                    and len(told) < allowed
                ):
                    told.add(protocol)
                    protocol.application_queue.put_nowait({"type": SHUTDOWN})
            if not running:
                break
            await asyncio.sleep(DRAIN_POLL_SECONDS)
        logger.info("Closed %i websockets for a restart", len(told))
        cancelled = super().kill_all_applications().asFuture(asyncio.get_running_loop())
        try:
            await asyncio.wait_for(cancelled, CANCEL_SECONDS)
        except TimeoutError:
            # A cleanup that cannot finish (its database or Redis unreachable) stops nobody.
            logger.warning("Stopping with applications still cleaning up")


class ServerCommand(CommandLineInterface):
    server_class = DrainingServer


if __name__ == "__main__":
    ServerCommand.entrypoint()
