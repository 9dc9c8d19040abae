"""Logging out or changing the password closes the account's open sockets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from cardroom.asgi import application
from games.live import notify
from games.live.consumers import CLOSE_UNAUTHENTICATED
from games.tables import rows

from .factories import OPTIONS
from .live import LIVE_MARKS, close_code, connect, receive_until, send

pytestmark = LIVE_MARKS
PASSWORD = "a-Long-secret-42"


async def open_with(client: Client, path: str) -> WebsocketCommunicator:
    """A socket sharing ``client``'s session, as the page it opened would."""
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
            (b"cookie", cookie.encode()),
        ],
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def signed_in(make_user, name: str) -> tuple[Client, object]:
    user = await sync_to_async(make_user)(name)
    client = Client()
    await sync_to_async(client.force_login)(user)
    return client, user


@pytest.mark.parametrize("how", ["logout", "password change"])
async def test_signing_out_closes_the_accounts_sockets(make_user, how):
    client, alice = await signed_in(make_user, "alice")
    _, bob = await signed_in(make_user, "bob")
    table = await sync_to_async(rows.create_table)(alice, "belote", OPTIONS, is_private=True)
    path = f"/ws/table/{table.code}/"
    mine = [await open_with(client, path), await open_with(client, "/ws/lobby/")]
    theirs = await connect(bob, path)
    if how == "logout":
        response = await sync_to_async(client.post)(reverse("logout"))
    else:
        response = await sync_to_async(client.post)(
            reverse("password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": "another-Long-secret-7",
                "new_password2": "another-Long-secret-7",
            },
        )
    assert response.status_code == 302
    for socket in mine:
        assert await close_code(socket) == CLOSE_UNAUTHENTICATED
    # Someone else's socket at the same table stays open and working.
    await send(theirs, op="sit", seat="1")
    await receive_until(theirs, "bob (you)")
    await theirs.disconnect()


async def test_a_saved_account_with_the_same_password_keeps_its_sockets(make_user):
    client, alice = await signed_in(make_user, "alice")
    socket = await open_with(client, "/ws/lobby/")
    alice.first_name = "Alice"
    await sync_to_async(alice.save)()
    # The socket still hears the lobby's changes (a close would come first: it was sent first).
    table = await sync_to_async(rows.create_table)(alice, "belote", OPTIONS, is_private=False)
    await notify.send(notify.LOBBY_GROUP, notify.lobby_changed())
    await receive_until(socket, table.code)
    await socket.disconnect()
