"""The lobby: creating tables, the live list, private tables, rematches and the rules pages."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import play, tables
from games.engines import belote
from games.models import Match, Table
from games.replay import final_state

from .live import connect, send
from .test_table_live import OPTIONS, make_players, seated_table

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
            "is_private": "on",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert table.options == {"target": 101, "declarations": "pool", "finish_with_hanging": False}
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
    tables.create_table(host, "belote", OPTIONS, is_private=True)
    public = tables.create_table(host, "belote", OPTIONS, is_private=False)
    client.force_login(make_user("guest"))
    html = client.get(reverse("home")).content.decode()
    assert public.get_absolute_url() in html
    assert html.count("/t/") == 1


@pytest.mark.django_db
def test_table_page_needs_login_and_a_real_code(client, make_user):
    table = tables.create_table(make_user("host"), "belote", OPTIONS, is_private=True)
    assert client.get(table.get_absolute_url()).status_code == 302
    client.force_login(make_user("guest"))
    assert client.get(table.get_absolute_url()).status_code == 200
    assert client.get("/t/not-a-code/").status_code == 404


@pytest.mark.django_db
def test_options_partial_and_rules_pages(client, make_user):
    client.force_login(make_user("host"))
    response = client.get(reverse("table_options"), {"game": "belote"})
    assert b'id="game-options"' in response.content
    assert client.get(reverse("table_options"), {"game": "chess"}).status_code == 404
    assert b"All Trumps" in client.get(reverse("rules", args=["belote"])).content
    assert client.get(reverse("rules", args=["chess"])).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_lobby_updates_live_when_tables_change():
    users = await sync_to_async(make_players)(2)
    lobby = await connect(users[1], "/ws/lobby/")
    assert 'id="lobby-tables"' in await lobby.receive_from()
    table = await sync_to_async(tables.create_table)(users[0], "belote", OPTIONS, is_private=False)
    seat_socket = await connect(users[0], f"/ws/table/{table.code}/")
    await send(seat_socket, op="sit", seat="0")
    while True:  # the lobby hears about the seat being taken, with no reload
        frame = await lobby.receive_from()
        if "player0" in frame:
            break
    assert table.get_absolute_url() in frame
    await lobby.disconnect()
    await seat_socket.disconnect()


def finish_match(table: Table, users) -> Match:
    """Play the current match to its end with first legal actions (target lowered)."""
    match = Match.objects.get(table=table, status=Match.Status.RUNNING)
    state = belote.loads(match.state)
    while state.to_act is not None:
        seat = state.to_act
        match = play.apply_action(
            table.pk, users[seat], belote.legal_actions(state, seat)[-1], match.version
        )
        state = belote.loads(match.state)
    return match


@pytest.mark.django_db
def test_a_finished_match_then_a_rematch_needs_every_player():
    users = make_players(4)
    table = seated_table(users)
    table.options = {**OPTIONS, "target": 11}
    table.save()
    first = play.start_match(table.pk, users[0])
    finished = finish_match(table, users)
    assert finished.status == Match.Status.FINISHED
    assert finished.result["winner"] in (0, 1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert finished.moves.count() == finished.version
    # The seed and the move log rebuild the match exactly.
    assert belote.dumps(final_state(finished)) == finished.state
    for user in users[:3]:
        assert play.vote_rematch(table.pk, user) is None
    second = play.vote_rematch(table.pk, users[3])
    assert second is not None and second.number == first.number + 1
    assert second.seed != first.seed  # a new seed: a new shuffle
    assert list(second.players.values_list("user_id", flat=True)) == [u.pk for u in users]
