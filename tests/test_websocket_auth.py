"""Websockets are for logged-in users from allowed origins only."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from cardroom.asgi import application

from .live import LIVE_MARKS

pytestmark = LIVE_MARKS


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
        [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    )
    assert connected
    await communicator.disconnect()


async def test_anonymous_user_is_refused():
    communicator, connected, _ = await open_socket(
        [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    assert not connected
    await communicator.disconnect()


async def test_foreign_origin_is_refused(make_user):
    user = await sync_to_async(make_user)("mallory")
    cookie = await sync_to_async(session_cookie_for)(user)
    communicator, connected, _ = await open_socket(
        [(b"origin", b"http://evil.example.com"), (b"host", b"localhost"), (b"cookie", cookie)]
    )
    assert not connected
    await communicator.disconnect()


@pytest.mark.parametrize(
    "origin",
    [
        b"http://localhost:9999",  # another port of the same host
        b"https://localhost",  # another scheme
        b"http://localhost.evil.example",
        b"null",
    ],
)
async def test_an_origin_must_match_scheme_host_and_port(make_user, origin):
    user = await sync_to_async(make_user)("mallory")
    cookie = await sync_to_async(session_cookie_for)(user)
    communicator, connected, _ = await open_socket(
        [(b"origin", origin), (b"host", b"localhost"), (b"cookie", cookie)]
    )
    assert not connected
    await communicator.disconnect()


async def test_the_sites_own_port_and_its_trusted_origins_are_accepted(make_user, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example", "https://*.friends.example"]
    user = await sync_to_async(make_user)("alice")
    cookie = await sync_to_async(session_cookie_for)(user)
    for origin, host in [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000"),
        (b"https://cards.example", b"localhost"),
        (b"https://play.friends.example", b"localhost"),
    ]:
        communicator, connected, _ = await open_socket(
            [(b"origin", origin), (b"host", host), (b"cookie", cookie)]
        )
        assert connected, origin
        await communicator.disconnect()
    communicator, connected, _ = await open_socket(
        [(b"origin", b"http://play.friends.example"), (b"host", b"localhost"), (b"cookie", cookie)]
    )
    assert not connected  # the trusted origin's scheme is https
    await communicator.disconnect()


async def test_behind_a_trusted_proxy_the_forwarded_scheme_counts(make_user, settings):
    settings.TRUSTED_PROXIES = 1
    settings.ALLOWED_HOSTS = ["cards.example"]
    user = await sync_to_async(make_user)("alice")
    cookie = await sync_to_async(session_cookie_for)(user)
    base = [(b"host", b"cards.example"), (b"cookie", cookie), (b"x-forwarded-proto", b"https")]
    communicator, connected, _ = await open_socket([(b"origin", b"https://cards.example"), *base])
    assert connected
    await communicator.disconnect()
    communicator, connected, _ = await open_socket([(b"origin", b"http://cards.example"), *base])
    assert not connected
    await communicator.disconnect()
