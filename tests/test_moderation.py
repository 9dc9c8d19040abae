"""Moderation in the admin and the site's security: permissions, throttles, CSP, live effects."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games.live.consumers import CLOSE_BANNED, CLOSE_FLOOD, FRAME_BURST
from games.models import ChatMessage, Match, Report, Sanction, Table
from games.tables import chat, matches, rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, make_players, seated_table
from .live import close_code, connect, live_test, receive_until, send

PASSWORD = "pw-123456789"
User = get_user_model()


def staff_client() -> tuple[Client, object]:
    moderator = User.objects.create_superuser("mod", password=PASSWORD)
    client = Client()
    client.force_login(moderator)
    return client, moderator


def admin_action(client: Client, model: str, action: str, pks: list[int], **extra) -> object:
    url = reverse(f"admin:{model}_changelist")
    data = {"action": action, "_selected_action": [str(pk) for pk in pks], **extra}
    return client.post(url, data)


@pytest.mark.django_db
def test_non_staff_get_nothing_from_the_admin(client, make_user):
    player = make_user("player")
    for url in ["/admin/", "/admin/games/chatmessage/", "/admin/auth/user/"]:
        assert client.get(url).status_code == 302  # anonymous: to the admin login
    client.force_login(player)
    for url in ["/admin/games/chatmessage/", "/admin/games/report/", "/admin/auth/user/"]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response.url
    player.is_staff = True
    player.save()
    assert client.get("/admin/games/chatmessage/").status_code == 403  # staff without rights


@pytest.mark.django_db
def test_login_throttle_locks_out_after_five_failures(client, make_user):
    make_user("victim")
    for _ in range(4):
        response = client.post(reverse("login"), {"username": "victim", "password": "guess"})
        assert response.status_code == 200
    # The fifth failure locks the account from this address; the right password then fails too.
    response = client.post(reverse("login"), {"username": "victim", "password": "guess"})
    assert response.status_code == 429
    response = client.post(reverse("login"), {"username": "victim", "password": "a-Long-secret-42"})
    assert response.status_code == 429
    assert b"Too many failed log-ins" in response.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_an_overlong_username_at_log_in_is_refused_not_a_crash(client):
    # Found by fuzzing on PostgreSQL: axes stored the raw username in a 255-character column.
    response = client.post(reverse("login"), {"username": "x" * 5000, "password": "guess"})
    assert response.status_code == 200
    assert response.context["form"].errors


@pytest.mark.django_db
def test_forms_and_htmx_requests_need_the_csrf_token(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("host"))
    page = client.get("/")
    token = str(page.context["csrf_token"])
    assert f'hx-headers=\'{{"x-csrftoken": "{token}"}}\'' in page.content.decode()
    data = {"game": "belote", "options-target": "151", "options-declarations": "separate"}
    assert client.post(reverse("new_table"), data).status_code == 403
    assert Table.objects.count() == 0
    # What htmx sends: the token in the X-CSRFToken header, as base.html sets it up.
    response = client.post(reverse("new_table"), data, headers={"X-CSRFToken": token})
    assert response.status_code == 302 and Table.objects.count() == 1


@pytest.mark.django_db
def test_strict_content_security_policy_on_pages(client, make_user):
    client.force_login(make_user("reader"))
    for url in ["/", "/rules/belote/", "/accounts/password_change/"]:
        policy = client.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert b"<script>" not in response.content  # no inline script at all


@pytest.mark.django_db
def test_mute_stops_chat_and_says_why(make_user):
    client, moderator = staff_client()
    player = make_user("loud")
    page = admin_action(client, "auth_user", "mute_users", [player.pk])
    assert b"Reason (shown to the player)" in page.content  # the intermediate form
    admin_action(
        client, "auth_user", "mute_users", [player.pk], apply="1", reason="Insults", minutes="60"
    )
    mute = Sanction.objects.get(user=player, kind="mute")
    table = rows.create_table(player, "belote", OPTIONS, is_private=False)
    with pytest.raises(TableError, match=r"muted until .*: Insults"):
        chat.post_message(table.pk, player, "hello")
    assert LogEntry.objects.filter(user=moderator, object_id=str(player.pk)).exists()
    player_client = Client()
    player_client.force_login(player)
    assert b"A moderator muted you until" in player_client.get("/").content
    assert mute.until is not None


@live_test
async def test_ban_closes_sockets_ends_sessions_and_explains_at_login():
    users = await sync_to_async(make_players)(2)
    client, moderator = await sync_to_async(staff_client)()
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=False)
    banned = await connect(users[1], f"/ws/table/{table.code}/")
    other = await connect(users[0], f"/ws/table/{table.code}/")
    lobby = await connect(users[1], "/ws/lobby/")
    await sync_to_async(admin_action)(
        client, "auth_user", "ban_users", [users[1].pk], apply="1", reason="Cheating"
    )
    for communicator in (banned, lobby):
        assert await close_code(communicator) == CLOSE_BANNED
    await send(other, op="chat", text="still here")
    assert "chat-line" in await receive_until(other, "still here")
    user = await sync_to_async(User.objects.get)(pk=users[1].pk)
    assert not user.is_active
    sessions = await sync_to_async(list)(Session.objects.all())
    assert all(s.get_decoded().get("_auth_user_id") != str(user.pk) for s in sessions)
    response = await sync_to_async(Client().post)(
        reverse("login"), {"username": user.username, "password": PASSWORD}
    )
    assert "closed your account: Cheating" in response.content.decode()
    assert await sync_to_async(
        LogEntry.objects.filter(user=moderator, object_id=str(user.pk)).exists
    )()
    await other.disconnect()


@live_test
async def test_hidden_chat_disappears_live_for_everyone():
    users = await sync_to_async(make_players)(2)
    client, _ = await sync_to_async(staff_client)()
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=False)
    sockets = [await connect(user, f"/ws/table/{table.code}/") for user in users]
    await send(sockets[0], op="chat", text="rude words")
    await receive_until(sockets[1], "rude words")
    message = await sync_to_async(ChatMessage.objects.get)()
    await sync_to_async(admin_action)(client, "games_chatmessage", "hide_messages", [message.pk])
    for communicator in sockets:
        frame = await receive_until(communicator, 'id="chat-log"')
        while "rude words" in frame:
            frame = await receive_until(communicator, 'id="chat-log"')
        assert f'id="chat-{message.pk}"' not in frame
    for communicator in sockets:
        await communicator.disconnect()


@live_test
async def test_abort_table_records_the_match_and_tells_the_players():
    users = await sync_to_async(make_players)(4)
    client, moderator = await sync_to_async(staff_client)()
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(matches.start_match)(table.pk, users[0])
    socket = await connect(users[2], f"/ws/table/{table.code}/")
    await receive_until(socket, "The match has started.")  # the page as it opens
    await sync_to_async(admin_action)(client, "games_table", "abort_tables", [table.pk])
    await receive_until(socket, "This table was closed.")
    match = await sync_to_async(Match.objects.get)(table=table)
    assert match.status == Match.Status.ABORTED and match.finished_at is not None
    refreshed = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert refreshed.status == Table.Status.ABORTED
    assert await sync_to_async(
        LogEntry.objects.filter(user=moderator, object_id=str(table.pk)).exists
    )()
    await socket.disconnect()


@pytest.mark.django_db
def test_players_report_and_moderators_resolve(client, make_user):
    reporter, rude = make_user("reporter"), make_user("rude")
    table = rows.create_table(rude, "belote", OPTIONS, is_private=False)
    line = ChatMessage.objects.create(table=table, user=rude, text="you are all idiots")
    client.force_login(reporter)
    page = client.get(reverse("report_message", args=[table.code, line.pk]))
    assert b"you are all idiots" in page.content
    response = client.post(
        reverse("report_message", args=[table.code, line.pk]),
        {"kind": "abuse", "details": "see above"},
    )
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    client.post(reverse("report_player", args=["rude"]), {"kind": "cheating"})
    assert (
        client.post(reverse("report_player", args=["reporter"]), {"kind": "spam"}).status_code
        == 200
    )  # not yourself
    reports = Report.objects.order_by("pk")
    assert [r.reported_user.username for r in reports] == ["rude", "rude"]
    assert reports[0].message == line and reports[0].table == table
    moderator_client, moderator = staff_client()
    queue = moderator_client.get(reverse("admin:games_report_changelist"))
    assert b"Insults or harassment: see above" in queue.content
    detail = moderator_client.get(reverse("admin:games_report_change", args=[reports[0].pk]))
    assert b"you are all idiots" in detail.content  # the message and the recent chat
    admin_action(moderator_client, "games_report", "resolve_reports", [r.pk for r in reports])
    assert set(Report.objects.values_list("status", flat=True)) == {"resolved"}
    assert Report.objects.filter(resolved_by=moderator).count() == 2


@live_test
async def test_a_flood_of_frames_is_cut_off_and_the_table_goes_on():
    users = await sync_to_async(make_players)(2)
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=False)
    await sync_to_async(seating.leave_seat)(table.pk, users[0])  # an empty table
    flooder = await connect(users[1], f"/ws/table/{table.code}/")
    calm = await connect(users[0], f"/ws/table/{table.code}/")
    # Each request is handled in turn and the budget refills meanwhile: three times the burst
    # goes over it however slowly a busy machine handles them (under eight seconds for all).
    for _ in range(3 * FRAME_BURST):
        await flooder.send_to(text_data='{"op": "leave"}')
    assert await close_code(flooder) == CLOSE_FLOOD
    await send(calm, op="sit", seat="0")
    await receive_until(calm, "player0 (you)")
    await calm.disconnect()
