"""Websocket URLs (mounted by ``cardroom.asgi``)."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from cardroom.restart import ClosesOnRestart

from . import consumers


class NotFoundConsumer(ClosesOnRestart, AsyncWebsocketConsumer):
    """Any other address: accept, then close with CLOSE_NOT_FOUND (a close code only reaches
    the browser once the handshake is accepted)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=consumers.CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", consumers.TableConsumer.as_asgi()),
    path("ws/reading/<str:code>/", consumers.ReadingConsumer.as_asgi()),
    path("ws/notices/", consumers.NoticeConsumer.as_asgi()),
]

# Last: without it, channels' router raises an error for an unknown path.
websocket_urlpatterns.append(re_path(r"", NotFoundConsumer.as_asgi()))
