"""Websocket URLs (mounted by ``cardroom.asgi``)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", consumers.TableConsumer.as_asgi()),
]
