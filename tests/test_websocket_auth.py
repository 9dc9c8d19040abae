"""Websockets are for logged-in users from allowed origins only."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from cardroom.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("background_stopped"),
]


def session_cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_socket(headers):
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def test_logged_in_user_connects(make_user):
    user = await sync_to_async(make_user)("alice")
    cookie = await sync_to_async(session_cookie_for)(user)
    communicator, connected, _ = await open_socket(
        [(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    assert connected
    await communicator.disconnect()


async def test_anonymous_user_is_refused():
    communicator, connected, _ = await open_socket([(b"origin", b"http://localhost")])
    assert not connected
    await communicator.disconnect()


async def test_foreign_origin_is_refused(make_user):
    user = await sync_to_async(make_user)("mallory")
    cookie = await sync_to_async(session_cookie_for)(user)
    communicator, connected, _ = await open_socket(
        [(b"origin", b"http://evil.example.com"), (b"cookie", cookie)]
    )
    assert not connected
    await communicator.disconnect()
