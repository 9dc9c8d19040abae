"""An invitation made on one server process reaches the friend's page served by another, at
once (PostgreSQL and Redis: the channel layer carries it between the processes)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from friendship.models import Friend
from playwright.sync_api import Page, expect

from games.models import Seat
from games.tables import rows, seating

from ..live import session_cookie
from ..servers import ServerProcess
from ..test_table_live import OPTIONS

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="two server processes share notices through Redis"
)


def logged_in(page: Page, user, server: ServerProcess) -> Page:
    name, _, value = session_cookie(user).decode().partition("=")
    page.context.add_cookies([{"name": name, "value": value, "url": server.url}])
    return page


@pytest.mark.services
def test_an_invitation_crosses_server_processes(transactional_db, new_page):
    users = get_user_model().objects
    ana = users.create_user("ana", password="pw-123456789")
    bob = users.create_user("bob", password="pw-123456789")
    Friend.objects.create(from_user=ana, to_user=bob)
    Friend.objects.create(from_user=bob, to_user=ana)
    table = rows.create_table(ana, "belote", OPTIONS, is_private=True)
    seating.take_seat(table.pk, ana, 0)
    connections.close_all()  # the server processes open their own
    first, second = ServerProcess(), ServerProcess()
    host, friend = new_page(), new_page()
    try:
        first.start()
        second.start()
        logged_in(host, ana, first)
        logged_in(friend, bob, second)
        friend.goto(second.url + "/")  # the lobby, served by the second process
        expect(friend.locator("#tables-title")).to_be_visible()
        host.goto(first.url + table.get_absolute_url())
        expect(host.locator("#connection")).to_have_text("Connected")
        host.locator(".invite-friends").get_by_role("button", name="Invite bob").click()
        expect(host.locator("#invite-said")).to_have_text("Invitation sent to bob.")
        notice = friend.locator("#notices .notice", has_text="ana invites you")
        notice.get_by_role("button", name="Accept").click()
        expect(friend.locator("#seats")).to_contain_text("bob (you)")
        expect(host.locator("#notices")).to_contain_text("bob accepted your invitation.")
        expect(host.locator("#seats")).to_contain_text("bob")
        assert Seat.objects.filter(table=table, user=bob).exists()
    finally:
        # The pages go before the servers, so nothing in them fails to reach a stopped server.
        host.close()
        friend.close()
        first.close()
        second.close()
