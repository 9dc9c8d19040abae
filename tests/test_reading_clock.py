"""A turn's clock waits while its player reads the rules from the table: the rules page, open,
holds a socket that stops the clock (two minutes at most a turn, however often it is opened);
closing it runs the clock on from where it stopped; the next turn's clock runs. Nobody else
stops a clock by reading."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from games.live import autoplay
from games.live.snapshots import load_snapshot
from games.models import Match, Move
from games.tables import matches, play, rows, seating

from .factories import OPTIONS, make_players, match_of, start_with_dealer
from .live import connect, live_test, receive_until, session_cookie, version_mark
from .servers import Client, ServerProcess
from .test_faults import needs_shared_state


def timed_table(users, seconds: int = 30):
    """Four humans at a Belote table with a ``seconds`` clock; seat 1 acts first."""
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True, turn_seconds=seconds)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    start_with_dealer(table, users[0], dealer=0)
    return table


def timer_of(table) -> object:
    return autoplay.pending_in(load_snapshot(table.pk)).due


def turn_over(table) -> bool:
    """Whether the first turn's time ran out, or it was played."""
    match = match_of(table)
    deadline = match.turn_started_at + timedelta(seconds=table.turn_seconds)
    return match.version > 0 or deadline <= timezone.now()


def time_passes(table, length: timedelta) -> None:
    """Move the table's clock ``length`` on: its turn began, and its reading started, that much
    earlier."""
    match = match_of(table)
    fields = {"turn_started_at": match.turn_started_at - length}
    if match.reading_since is not None:
        fields["reading_since"] = match.reading_since - length
    Match.objects.filter(pk=match.pk).update(**fields)


@pytest.mark.django_db
def test_reading_stops_the_clock_of_the_player_on_turn_only():
    users = make_players(4)
    table = timed_table(users)
    started = match_of(table).turn_started_at
    assert matches.read_rules(table.code, users[2], True) is None  # not on turn: nothing
    assert match_of(table).reading_since is None
    due = timer_of(table)
    assert matches.read_rules(table.code, users[1], True) == table.pk
    assert matches.read_rules(table.code, users[1], True) is None  # reading already
    assert timer_of(table) == due + matches.READING_PAUSE
    match = match_of(table)
    # Closed after a minute: the clock runs on from where it stopped.
    Match.objects.filter(pk=match.pk).update(
        reading_since=match.reading_since - timedelta(minutes=1)
    )
    assert matches.read_rules(table.code, users[1], False) == table.pk
    match = match_of(table)
    assert match.reading_since is None
    waited = match.turn_started_at - started
    assert timedelta(minutes=1) <= waited < timedelta(minutes=1, seconds=30)


@pytest.mark.django_db
def test_the_clock_waits_two_minutes_at_most():
    users = make_players(4)
    table = timed_table(users)
    started = match_of(table).turn_started_at
    matches.read_rules(table.code, users[1], True)
    match = match_of(table)
    Match.objects.filter(pk=match.pk).update(
        reading_since=match.reading_since - timedelta(minutes=10)
    )
    matches.read_rules(table.code, users[1], False)
    assert match_of(table).turn_started_at - started == matches.READING_PAUSE


@pytest.mark.django_db
def test_reopening_the_rules_waits_two_minutes_a_turn_in_all():
    users = make_players(4)
    table = timed_table(users)
    started = match_of(table).turn_started_at
    for _reading in range(3):  # 50 s each time: the third has 20 s left
        assert matches.read_rules(table.code, users[1], True) == table.pk
        time_passes(table, timedelta(seconds=50))
        assert matches.read_rules(table.code, users[1], False) == table.pk
    # The turn's two minutes are used up: opening the rules again stops no clock.
    assert matches.read_rules(table.code, users[1], True) is None
    match = match_of(table)
    assert match.reading_since is None
    assert match.turn_started_at - started == matches.READING_PAUSE - timedelta(seconds=150)
    assert timer_of(table) == started  # the 30 s turn ran out 150 - 120 s ago
    # The next turn's player has two minutes again.
    play.apply_action(table.pk, users[1], "pass", match.version)
    assert matches.read_rules(table.code, users[2], True) == table.pk
    next_turn = match_of(table).turn_started_at
    assert timer_of(table) == next_turn + timedelta(seconds=30) + matches.READING_PAUSE


@pytest.mark.django_db
def test_the_next_turn_has_a_running_clock():
    users = make_players(4)
    table = timed_table(users)
    matches.read_rules(table.code, users[1], True)
    match = match_of(table)
    play.apply_action(table.pk, users[1], "pass", match.version)
    assert match_of(table).reading_since is None
    assert matches.read_rules(table.code, users[1], False) is None


@pytest.mark.django_db
def test_a_table_without_a_clock_has_none_to_stop():
    users = make_players(4)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    start_with_dealer(table, users[0], dealer=0)
    assert matches.read_rules(table.code, users[1], True) is None


@pytest.mark.django_db
def test_the_rules_page_names_only_a_table_code(client, make_user):
    client.force_login(make_user("reader"))
    page = client.get(reverse("rules", args=["belote"]), {"table": "abc_DEF-12"}).content
    assert b'ws-connect="/ws/reading/abc_DEF-12/"' in page
    forged = client.get(reverse("rules", args=["belote"]), {"table": '"><script>'}).content
    assert b"/ws/reading/" not in forged


@live_test
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


@live_test
async def test_a_turn_held_by_reopening_the_rules_runs_out():
    """The player on turn opens the rules, reads most of two minutes, closes them, opens them
    again, and again: the clock waited two minutes in all, and the timer moves for them."""
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(timed_table)(users)
    watcher = await connect(users[0], f"/ws/table/{table.code}/")
    await receive_until(watcher, "Waiting for")
    for _reading in range(3):
        reading = await connect(users[1], f"/ws/reading/{table.code}/")
        await receive_until(watcher, "reading the rules")
        await sync_to_async(time_passes)(table, timedelta(seconds=55))
        await reading.disconnect()
        await receive_until(watcher, 'class="turn-timer')
    # Read 165 s, of which the clock waited 120: the 30 s turn is over (or played already), and
    # reopening the rules does not hold it.
    assert await sync_to_async(turn_over)(table)
    reading = await connect(users[1], f"/ws/reading/{table.code}/")
    await receive_until(watcher, version_mark(1))  # the turn passed to the next seat
    move = await sync_to_async(Move.objects.get)(match__table=table, seat=1)
    assert move.user_id is None  # the timer made it
    assert (await sync_to_async(match_of)(table)).reading_since is None
    await reading.disconnect()
    await watcher.disconnect()


@needs_shared_state
@pytest.mark.django_db(transaction=True)
def test_a_turn_held_by_reopening_the_rules_on_two_processes_runs_out(servers):
    """The rules are opened through one server process, then through another: the clock waits
    two minutes in all, and the timer moves for the player."""
    pair = [ServerProcess(), ServerProcess()]
    servers.extend(pair)
    for server in pair:
        server.start()
    users = make_players(4)
    table = timed_table(users, seconds=90)
    reader, watcher_cookie = session_cookie(users[1]).decode(), session_cookie(users[0]).decode()

    async def scenario() -> None:
        watcher = Client(f"{pair[1].url}/ws/table/{table.code}/", watcher_cookie)
        watcher.start()
        await watcher.until(lambda: watcher.version == 0)

        async def shows(text: str, since: int) -> None:
            await watcher.until(lambda: any(text in frame for frame in watcher.frames[since:]))

        for server, seconds in ((pair[0], 110), (pair[1], 115)):
            seen = len(watcher.frames)
            reading = Client(f"{server.url}/ws/reading/{table.code}/", reader, reconnect=False)
            reading.start()
            await shows("reading the rules", seen)
            await database_sync_to_async(time_passes)(table, timedelta(seconds=seconds))
            seen = len(watcher.frames)
            await reading.close()
            await shows('class="turn-timer', seen)
        # Read 225 s, of which the clock waited 120: the 90 s turn is over (or played already),
        # and reopening the rules does not hold it.
        assert await database_sync_to_async(turn_over)(table)
        reading = Client(f"{pair[0].url}/ws/reading/{table.code}/", reader, reconnect=False)
        reading.start()
        await watcher.until(lambda: watcher.version == 1)
        await reading.close()
        await watcher.close()

    asyncio.run(scenario())
    move = Move.objects.get(match__table=table, seat=1)
    assert move.user_id is None  # the timer made it
