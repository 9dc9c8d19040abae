"""A turn's clock waits while its player reads the rules from the table: the rules page, open,
holds a socket that stops the clock (two minutes at most); closing it runs the clock on from
where it stopped; the next turn's clock runs. Nobody else stops a clock by reading."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games.live import autoplay
from games.live.snapshots import load_snapshot
from games.models import Match
from games.tables import play, rows, seating

from .factories import OPTIONS, make_players, match_of, start_with_dealer
from .live import connect, receive_until


def timed_table(users):
    """Four humans at a Belote table with a 30-second clock; seat 1 acts first."""
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True, turn_seconds=30)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    start_with_dealer(table, users[0], dealer=0)
    return table


def timer_of(table) -> object:
    return autoplay.pending_in(load_snapshot(table.pk)).due


@pytest.mark.django_db
def test_reading_stops_the_clock_of_the_player_on_turn_only():
    users = make_players(4)
    table = timed_table(users)
    started = match_of(table).turn_started_at
    assert play.read_rules(table.code, users[2], True) is None  # not on turn: nothing
    assert match_of(table).reading_since is None
    due = timer_of(table)
    assert play.read_rules(table.code, users[1], True) == table.pk
    assert play.read_rules(table.code, users[1], True) is None  # reading already
    assert timer_of(table) == due + play.READING_PAUSE
    match = match_of(table)
    # Closed after a minute: the clock runs on from where it stopped.
    Match.objects.filter(pk=match.pk).update(
        reading_since=match.reading_since - timedelta(minutes=1)
    )
    assert play.read_rules(table.code, users[1], False) == table.pk
    match = match_of(table)
    assert match.reading_since is None
    waited = match.turn_started_at - started
    assert timedelta(minutes=1) <= waited < timedelta(minutes=1, seconds=30)


@pytest.mark.django_db
def test_the_clock_waits_two_minutes_at_most():
    users = make_players(4)
    table = timed_table(users)
    started = match_of(table).turn_started_at
    play.read_rules(table.code, users[1], True)
    match = match_of(table)
    Match.objects.filter(pk=match.pk).update(
        reading_since=match.reading_since - timedelta(minutes=10)
    )
    play.read_rules(table.code, users[1], False)
    assert match_of(table).turn_started_at - started == play.READING_PAUSE


@pytest.mark.django_db
def test_the_next_turn_has_a_running_clock():
    users = make_players(4)
    table = timed_table(users)
    play.read_rules(table.code, users[1], True)
    match = match_of(table)
    play.apply_action(table.pk, users[1], "pass", match.version)
    assert match_of(table).reading_since is None
    assert play.read_rules(table.code, users[1], False) is None


@pytest.mark.django_db
def test_a_table_without_a_clock_has_none_to_stop():
    users = make_players(4)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    start_with_dealer(table, users[0], dealer=0)
    assert play.read_rules(table.code, users[1], True) is None


@pytest.mark.django_db
def test_the_rules_page_names_only_a_table_code(client, make_user):
    client.force_login(make_user("reader"))
    page = client.get(reverse("rules", args=["belote"]), {"table": "abc_DEF-12"}).content
    assert b'ws-connect="/ws/reading/abc_DEF-12/"' in page
    forged = client.get(reverse("rules", args=["belote"]), {"table": '"><script>'}).content
    assert b"/ws/reading/" not in forged


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_an_open_rules_page_holds_the_clock_and_the_table_says_so():
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(timed_table)(users)
    watcher = await connect(users[0], f"/ws/table/{table.code}/")
    await receive_until(watcher, "Waiting for")
    reading = await connect(users[1], f"/ws/reading/{table.code}/")
    await receive_until(watcher, "reading the rules")
    assert (await sync_to_async(match_of)(table)).reading_since is not None
    await reading.disconnect()
    await receive_until(watcher, 'class="turn-timer')
    assert (await sync_to_async(match_of)(table)).reading_since is None
    await watcher.disconnect()
