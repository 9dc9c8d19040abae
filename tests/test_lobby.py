"""The lobby: creating tables, the live list, private tables, rematches and the rules pages."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from cardroom.asgi import application
from games.catalog import get_game
from games.engines import belote
from games.live import lobby_feed, notify
from games.models import Match, Table
from games.records.replay import final_state
from games.tables import lobby, matches, rows, seating

from .factories import (
    OPTIONS,
    empty_public_table,
    finished_short_match,
    make_players,
)
from .live import (
    FRAME_TIMEOUT,
    connect,
    live_test,
    receive_until,
    render_languages,
    send,
    session_cookie,
)

PASSWORD = "pw-123456789"


@pytest.mark.django_db
def test_create_table_from_the_lobby(client, make_user):
    client.force_login(make_user("host"))
    response = client.post(
        reverse("new_table"),
        {
            "game": "belote",
            "options-target": "101",
            "options-declarations": "pool",
            "options-deal_pause": "5",
            "options-ask_to_announce": "on",
            "is_private": "on",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert table.options == {
        "target": 101,
        "declarations": "pool",
        "finish_with_hanging": False,
        "ask_to_announce": True,
        "deal_pause": 5,
    }
    assert get_game("belote").engine_options(table.options)["announce"] == "ask"
    assert table.is_private and table.seats.count() == 4
    assert len(table.code) >= 20  # unguessable invite code


@pytest.mark.django_db
def test_bad_table_options_are_refused_with_errors(client, make_user):
    client.force_login(make_user("host"))
    response = client.post(reverse("new_table"), {"game": "chess", "options-target": "7"})
    assert response.status_code == 400
    assert Table.objects.count() == 0
    assert b'role="alert"' in response.content


@pytest.mark.django_db
def test_private_tables_stay_out_of_the_lobby(client, make_user):
    host = make_user("host")
    rows.create_table(host, "belote", OPTIONS, is_private=True)
    public = rows.create_table(host, "belote", OPTIONS, is_private=False)
    client.force_login(make_user("guest"))
    html = client.get(reverse("home")).content.decode()
    assert public.get_absolute_url() in html
    assert html.count("/t/") == 1


@pytest.mark.django_db
def test_the_table_page_needs_login_and_a_real_code_and_greets_a_visitor(client, make_user):
    table = rows.create_table(make_user("host"), "belote", OPTIONS, is_private=True)
    # Not logged in: only who invites them, and the ways in; not the table.
    landing = client.get(table.get_absolute_url())
    page = landing.content.decode()
    assert landing.status_code == 200 and "host invites you to a Belote table" in page
    assert "ws-connect" not in page and 'id="seats"' not in page
    assert client.get("/t/not-a-code/").status_code == 404
    client.force_login(make_user("guest"))
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200 and "ws-connect" in response.content.decode()
    assert client.get("/t/not-a-code/").status_code == 404


@pytest.mark.django_db
def test_options_partial_and_rules_pages(client, make_user):
    client.force_login(make_user("host"))
    response = client.get(reverse("table_options"), {"game": "belote"})
    assert b'id="game-options"' in response.content
    assert client.get(reverse("table_options"), {"game": "chess"}).status_code == 404
    assert b"All Trumps" in client.get(reverse("rules", args=["belote"])).content
    assert client.get(reverse("rules", args=["chess"])).status_code == 404


@live_test
async def test_lobby_updates_live_when_tables_change():
    users = await sync_to_async(make_players)(2)
    lobby = await connect(users[1], "/ws/lobby/")
    assert 'id="lobby-tables"' in await lobby.receive_from()
    table = await sync_to_async(empty_public_table)(users[0])
    seat_socket = await connect(users[0], f"/ws/table/{table.code}/")
    await send(seat_socket, op="sit", seat="0")
    while True:  # the lobby hears about the seat being taken, with no reload
        frame = await lobby.receive_from()
        if "player0" in frame:
            break
    assert table.get_absolute_url() in frame
    await lobby.disconnect()
    await seat_socket.disconnect()


@pytest.mark.django_db
def test_a_finished_match_then_a_rematch_needs_every_player():
    users = make_players(4)
    table, finished = finished_short_match(users)
    assert finished.status == Match.Status.FINISHED
    assert finished.result["winner"] in (0, 1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert finished.moves.count() == finished.version
    # The seed and the move log rebuild the match exactly.
    assert belote.dumps(final_state(finished)) == finished.state
    for user in users[:3]:
        assert matches.vote_rematch(table.pk, user) == (True, None)
    revision = Table.objects.get(pk=table.pk).revision
    assert matches.vote_rematch(table.pk, users[0]) == (False, None)  # asked already
    assert Table.objects.get(pk=table.pk).revision == revision  # nothing to refresh
    changed, second = matches.vote_rematch(table.pk, users[3])
    assert changed and second is not None and second.number == finished.number + 1
    assert second.seed != finished.seed  # a new seed: a new shuffle
    assert list(second.players.values_list("user_id", flat=True)) == [u.pk for u in users]


# -- the live list: one render per process, coalesced -------------------------------------------

SEAT_NAMES = re.compile(r'<ul class="seat-names"[^>]*>(.*?)</ul>', re.S)


def seat_names(frame: str) -> list[str]:
    """The seats of the first table of a lobby frame, as the list names them."""
    return re.findall(r"<li>(.*?)</li>", SEAT_NAMES.search(frame).group(1))


async def all_handled(table_socket) -> None:
    """Send a request the table refuses and wait for the refusal: by then every request sent
    on ``table_socket`` before it has been handled (a socket's requests are handled in turn)."""
    await send(table_socket, op="no-such-op")
    await receive_until(table_socket, "flash-visible")


async def lobby_socket(user, language: bytes = b"en") -> WebsocketCommunicator:
    """A lobby socket of ``user`` whose page was shown in ``language``."""
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[*headers, (b"accept-language", language)]
    )
    assert (await communicator.connect())[0]
    return communicator


@live_test
async def test_sitting_on_your_own_seat_tells_nobody(monkeypatch):
    users = await sync_to_async(make_players)(2)
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=False)
    await sync_to_async(seating.take_seat)(table.pk, users[0], 0)
    lobby = await connect(users[1], "/ws/lobby/")
    assert seat_names(await lobby.receive_from(timeout=FRAME_TIMEOUT))[0] == "player0"
    seat_socket = await connect(users[0], f"/ws/table/{table.code}/")
    await all_handled(seat_socket)  # its connect, and what that told the table, are over
    told = []
    real_send = notify.send

    async def recording(group, event):
        told.append(group)
        await real_send(group, event)

    monkeypatch.setattr(notify, "send", recording)
    await send(seat_socket, op="sit", seat="0")
    await all_handled(seat_socket)
    assert told == []  # neither the table's group nor the lobby's
    assert await lobby.receive_nothing(timeout=0.3)
    await lobby.disconnect()
    await seat_socket.disconnect()


@live_test
@pytest.mark.contract
async def test_a_burst_of_changes_reaches_the_lobby_as_a_few_frames_ending_in_the_last():
    users = await sync_to_async(make_players)(2)
    table = await sync_to_async(empty_public_table)(users[0])
    lobby = await connect(users[1], "/ws/lobby/")
    assert "player0" not in seat_names(await lobby.receive_from(timeout=FRAME_TIMEOUT))
    seat_socket = await connect(users[0], f"/ws/table/{table.code}/")
    await all_handled(seat_socket)
    started = time.monotonic()
    changes = 0
    for _ in range(5):
        await send(seat_socket, op="sit", seat="0")
        await send(seat_socket, op="leave")
        changes += 2
    await send(seat_socket, op="sit", seat="1")  # the final state: player0 in the second seat
    changes += 1
    await all_handled(seat_socket)
    frames = []
    async with asyncio.timeout(10):
        while not frames or seat_names(frames[-1])[1] != "player0":
            frames.append(await lobby.receive_from(timeout=FRAME_TIMEOUT))
        # A render may follow (a change heard after the one that showed the final state
        # began): it shows the same list, so it is not sent.
        assert await lobby.receive_nothing(timeout=2 * lobby_feed.MIN_INTERVAL)
    elapsed = time.monotonic() - started
    # Renders begin at least MIN_INTERVAL apart: this many fit in the time the burst took.
    assert len(frames) <= 1 + elapsed / lobby_feed.MIN_INTERVAL
    assert len(frames) < changes
    assert seat_names(frames[-1]) == ["<em>free</em>", "player0", "<em>free</em>", "<em>free</em>"]
    await lobby.disconnect()
    await seat_socket.disconnect()


@live_test
@pytest.mark.contract
async def test_one_render_serves_every_lobby_socket_of_the_process(monkeypatch):
    renders = render_languages(monkeypatch, lobby, "render_lobby_frame")
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(empty_public_table)(users[0])
    sockets = [
        await lobby_socket(user, language)
        for user, language in zip(users[1:], (b"en", b"en", b"bg"), strict=True)
    ]
    for communicator in sockets:  # a socket that joins gets the list at once
        assert 'id="lobby-tables"' in await communicator.receive_from(timeout=FRAME_TIMEOUT)
    # Renders for the languages the sockets speak; a joining socket may reuse a fresh one.
    assert sorted(set(renders)) == ["bg", "en"] and len(renders) <= 3
    renders.clear()
    await sync_to_async(seating.take_seat)(table.pk, users[0], 0)
    await notify.send(notify.LOBBY_GROUP, notify.lobby_changed())
    frames = [await s.receive_from(timeout=FRAME_TIMEOUT) for s in sockets]
    assert all(seat_names(frame)[0] == "player0" for frame in frames)
    assert frames[0] == frames[1]  # the same text
    assert sorted(renders) == ["bg", "en"]  # once per language, not once per socket
    for communicator in sockets:
        assert await communicator.receive_nothing(timeout=0.1)
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.contract
async def test_the_feed_coalesces_refreshes_and_reuses_a_fresh_render(monkeypatch):
    renders = []

    def fake_render(languages):
        renders.append(languages)
        return {language: f"{language} {len(renders)}" for language in languages}

    monkeypatch.setattr(lobby_feed, "render_frames", fake_render)
    monkeypatch.setattr(lobby_feed, "MIN_INTERVAL", 0.0)
    feed = lobby_feed.LobbyFeed()
    received: dict[str, list[str]] = {"old": [], "new": []}

    def sender(key):
        async def send_frame(text):
            received[key].append(text)

        return send_frame

    async def settled():
        if feed.task is not None:
            await asyncio.wait_for(feed.task, FRAME_TIMEOUT)

    await feed.join("old", sender("old"), "en")
    await settled()
    await feed.join("new", sender("new"), "en")  # the fresh render, sent at once
    assert received == {"old": ["en 1"], "new": ["en 1"]} and len(renders) == 1
    for _ in range(3):  # every socket of the process hears each change
        feed.refresh()
    await settled()
    assert received == {"old": ["en 1", "en 2"], "new": ["en 1", "en 2"]} and len(renders) == 2
    feed.leave("old")
    feed.leave("new")
    await feed.join("again", sender("old"), "en")  # nobody heard changes meanwhile: render
    await settled()
    assert received["old"][-1] == "en 3" and len(renders) == 3
