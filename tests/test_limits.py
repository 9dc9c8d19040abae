"""Per-account and per-address limits: each refusal is clear, and under the limit all works."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.live.consumers import CLOSE_TOO_MANY
from games.models import ChatMessage, Report, Table
from games.people import moderation
from games.tables import rows
from games.tables.rows import TableError

from .factories import OPTIONS
from .live import FRAME_TIMEOUT, close_code, live_test, open_socket


async def refused(socket: WebsocketCommunicator) -> bool:
    frame = await socket.receive_from(timeout=FRAME_TIMEOUT)
    return "too many tables open" in frame and await close_code(socket) == CLOSE_TOO_MANY


@live_test
async def test_an_account_opens_a_limited_number_of_sockets(make_user, settings):
    settings.MAX_SOCKETS_PER_ACCOUNT = 3
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    table = await sync_to_async(rows.create_table)(alice, "belote", OPTIONS, is_private=False)
    paths = ["/ws/lobby/", "/ws/lobby/", f"/ws/table/{table.code}/"]
    open_ = []
    for path in paths:
        socket, connected = await open_socket(alice, path)
        assert connected
        open_.append(socket)
    extra, _ = await open_socket(alice, "/ws/lobby/")
    assert await refused(extra)
    theirs, connected = await open_socket(bob, "/ws/lobby/")  # another account is not affected
    assert connected
    await open_[0].disconnect()
    again, connected = await open_socket(alice, "/ws/lobby/")  # a closed socket frees its place
    assert connected
    for socket in (*open_[1:], theirs, again):
        await socket.disconnect()


@pytest.mark.django_db
def test_an_account_has_a_limited_number_of_open_tables(client, make_user, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 2
    host = make_user("host")
    client.force_login(host)
    form = {"game": "belote", "options-target": "151", "options-declarations": "pool"}
    for _ in range(2):
        assert client.post(reverse("new_table"), form).status_code == 302
    response = client.post(reverse("new_table"), form)
    assert response.status_code == 400
    assert "2 tables waiting or playing already" in response.content.decode()
    assert Table.objects.filter(owner=host).count() == 2
    Table.objects.filter(owner=host).update(status=Table.Status.FINISHED)
    assert client.post(reverse("new_table"), form).status_code == 302
    with pytest.raises(TableError):  # the service refuses too, whoever calls it
        rows.create_table(host, "belote", OPTIONS, is_private=True)
        rows.create_table(host, "belote", OPTIONS, is_private=True)


@pytest.mark.django_db
def test_an_address_creates_a_limited_number_of_accounts_per_hour(settings):
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2
    address = "203.0.113.7"

    def sign_up(name: str, remote: str) -> int:
        client = Client(REMOTE_ADDR=remote)
        form = {"username": name, "password1": "a-Long-secret-42", "password2": "a-Long-secret-42"}
        response = client.post(reverse("signup"), form)
        if response.status_code == 429:
            assert "Too many accounts were created from your address" in response.content.decode()
        return response.status_code

    assert [sign_up(f"new{n}", address) for n in range(3)] == [302, 302, 429]
    assert sign_up("elsewhere", "198.51.100.1") == 302


@pytest.mark.django_db
def test_reports_are_folded_and_limited_per_hour(make_user, settings):
    settings.REPORTS_PER_USER_PER_HOUR = 3
    reporter = make_user("reporter")
    rude = [make_user(f"rude{n}") for n in range(4)]
    table = rows.create_table(rude[0], "belote", OPTIONS, is_private=False)
    line = ChatMessage.objects.create(table=table, user=rude[0], text="idiots")
    results = [moderation.report(reporter, "abuse", message=line) for _ in range(30)]
    assert Report.objects.count() == 1
    assert [created for _, created in results] == [True] + [False] * 29
    moderation.report(reporter, "cheating", user=rude[1])
    moderation.report(reporter, "cheating", user=rude[2])
    with pytest.raises(moderation.ReportError, match="3 reports in the last hour"):
        moderation.report(reporter, "cheating", user=rude[3])
    assert Report.objects.count() == 3


@pytest.mark.django_db
def test_a_folded_report_tells_the_reporter(client, make_user):
    reporter, rude = make_user("reporter"), make_user("rude")
    client.force_login(reporter)
    url = reverse("report_player", args=["rude"])
    client.post(url, {"kind": "spam"})
    page = client.post(url, {"kind": "spam"}, follow=True).content.decode()
    assert "You reported this already" in page
    assert Report.objects.filter(reported_user=rude).count() == 1
