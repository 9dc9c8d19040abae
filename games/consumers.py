"""Websocket consumers: thin, authenticated, no game logic."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

#: Close code for a handshake refused because nobody is logged in.
CLOSE_UNAUTHENTICATED = 4401


class AuthenticatedConsumer(AsyncWebsocketConsumer):
    """A consumer that only logged-in users may open; anonymous handshakes are refused."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.accept()
        await self.on_accepted()

    async def on_accepted(self) -> None:
        """Hook for subclasses: the connection is open and the user is known."""


class LobbyConsumer(AuthenticatedConsumer):
    """Live lobby updates for logged-in users."""

    group = "lobby"

    async def on_accepted(self) -> None:
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)
