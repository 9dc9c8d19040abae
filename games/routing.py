"""Websocket URLs (mounted by ``cardroom.asgi``)."""

from django.conf import settings
from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", consumers.TableConsumer.as_asgi()),
]

if settings.LOADTEST_FLOOR:
    # The load benchmark's bare fan-out and collection (see games/loadtest.py); off unless asked.
    from .consumers_bench import CollectConsumer, FanOutConsumer

    websocket_urlpatterns.append(path("ws/bench/<slug:group>/", FanOutConsumer.as_asgi()))
    websocket_urlpatterns.append(path("ws/bench-collect/", CollectConsumer.as_asgi()))
