"""Presence across server processes: a dead process's sockets stop counting and are swept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.live import presence
from games.live.frames import table_context
from games.models import MatchPlayer, Presence, Server

from .factories import make_players, start_with_dealer, table_with_bots
from .live import connect, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def dead_server(seconds_ago: float = 120) -> Server:
    """A server process that stopped beating ``seconds_ago`` (e.g. it was SIGKILLed)."""
    return Server.objects.create(
        name="killed:1:dead", seen_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def two_player_table():
    owner, friend = make_players(2)
    table = table_with_bots(owner, ("normal", "normal"), guest=(friend, 2))
    return owner, friend, table


def online(table, viewer) -> set[str]:
    """The names of the players the viewer's page shows as connected."""
    return {seat["name"] for seat in table_context(table, viewer)["seats"] if seat["online"]}


def test_a_dead_servers_sockets_do_not_count_and_are_swept():
    owner, friend, table = two_player_table()
    match = start_with_dealer(table, owner, dealer=3)
    server = dead_server()
    Presence.objects.create(table=table, user=friend, channel_name="dead!1", server=server)
    assert not Presence.objects.live().exists()
    assert online(table, owner) == set()
    assert presence.sweep() == {table.pk}
    assert not Presence.objects.exists() and not Server.objects.exists()
    # The friend is away since the dead process's last beat: the grace period runs from there.
    player = MatchPlayer.objects.get(match=match, seat=2)
    assert player.away_since == server.seen_at
    assert presence.sweep() == set()  # idempotent


def test_sweeping_a_page_that_came_back_on_another_process_changes_no_table():
    owner, friend, table = two_player_table()
    match = start_with_dealer(table, owner, dealer=3)
    Presence.objects.create(table=table, user=friend, channel_name="dead!1", server=dead_server())
    presence.join(table.code, friend, "live!2")  # the page, reconnected after a restart
    assert presence.sweep() == set()
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live!2"]
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is None


def test_a_recent_server_is_not_swept_and_its_players_are_online():
    owner, friend, table = two_player_table()
    recent = Server.objects.create(name="other:2:live", seen_at=timezone.now())
    Presence.objects.create(table=table, user=friend, channel_name="live!1", server=recent)
    assert presence.sweep() == set()
    assert Presence.objects.live().count() == 1
    assert online(table, owner) == {"player1"}


def test_closing_the_last_live_socket_makes_a_player_away_despite_a_dead_one():
    owner, friend, table = two_player_table()
    match = start_with_dealer(table, owner, dealer=3)
    Presence.objects.create(table=table, user=friend, channel_name="dead!1", server=dead_server())
    presence.join(table.code, friend, "live!2")
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is None
    presence.leave(table.pk, friend.pk, "live!2")
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is not None


def test_a_stalled_process_restores_its_swept_presences():
    _, friend, table = two_player_table()
    presence.join(table.code, friend, "mine!1")
    # Another process took this one for dead while its loop was blocked, and swept it.
    Server.objects.filter(name=presence.server_name()).delete()
    assert not Presence.objects.exists()
    presence.tick({"mine!1": (table.pk, friend.pk), "gone!2": (table.pk + 99, friend.pk)})
    assert list(Presence.objects.live().values_list("channel_name", flat=True)) == ["mine!1"]


@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_player_whose_server_died_is_covered_after_the_grace_period(settings):
    settings.AWAY_GRACE_SECONDS = 0
    owner, friend, table = await sync_to_async(two_player_table)()
    await sync_to_async(start_with_dealer)(table, owner, dealer=1)  # the friend plays first
    server = await sync_to_async(dead_server)()
    await sync_to_async(Presence.objects.create)(
        table=table, user=friend, channel_name="dead!1", server=server
    )
    # The owner connects to a live process: its first heartbeat sweeps the dead one, and the
    # friend's turn goes to a covering computer player.
    watcher = await connect(owner, f"/ws/table/{table.code}/")
    await receive_until(watcher, "a computer is playing for player1")
    await watcher.disconnect()
    assert not await sync_to_async(Server.objects.filter(name=server.name).exists)()


def test_a_presence_whose_socket_closed_without_its_cleanup_is_forgotten(settings):
    owner, friend, table = two_player_table()
    match = start_with_dealer(table, owner, dealer=3)
    presence.join(table.code, friend, "ghost!1")
    presence.join(table.code, owner, "fresh!2")
    settled = timezone.now() - timedelta(seconds=settings.PRESENCE_HEARTBEAT_SECONDS + 1)
    Presence.objects.filter(channel_name="ghost!1").update(connected_at=settled)
    # Neither socket is open in this process; only the one older than a heartbeat is a ghost
    # (the other may be a socket that is still opening).
    assert presence.tick({}) == {table.pk}
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["fresh!2"]
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is not None


def test_only_an_arrival_changes_the_tables_view_of_a_player():
    owner, friend, table = two_player_table()
    match = start_with_dealer(table, owner, dealer=3)
    assert presence.arrive(table.code, friend, "first!1") == (table.pk, True)
    # A second tab, or the page back from a server's restart (whose row stays until that
    # process is swept): the others' dots do not change, so their tables are not redrawn.
    assert presence.arrive(table.code, friend, "second!2") == (table.pk, False)
    presence.leave(table.pk, friend.pk, "first!1")
    presence.leave(table.pk, friend.pk, "second!2")
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is not None
    assert presence.arrive(table.code, friend, "back!3") == (table.pk, True)
    assert MatchPlayer.objects.get(match=match, seat=2).away_since is None
