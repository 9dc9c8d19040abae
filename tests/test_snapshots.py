"""The read of a table per change: its query counts, and what a move's read carries over."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import play, snapshots, tables

OPTIONS = {"target": 151, "declarations": "separate", "finish_with_hanging": True}


@pytest.fixture
def started(db):
    User = get_user_model()
    users = [User.objects.create_user(f"snap{i}", password="pw-123456789") for i in range(4)]
    table = tables.create_table(users[0], "belote", OPTIONS, is_private=True)
    for index, user in enumerate(users):
        tables.take_seat(table.pk, user, index)
    play.start_match(table.pk, users[0])
    return table, users


def test_a_move_is_read_in_two_queries_keeping_seats_and_presences(
    started, django_assert_num_queries
):
    table, users = started
    with django_assert_num_queries(4):  # match with its table, players, seats, presences
        before = snapshots.load_snapshot(table.pk)
    assert before.last_move == {}
    play.apply_action(table.pk, users[before.state.to_act], "pass", before.match.version)
    with django_assert_num_queries(2):  # match with its table, players
        after = snapshots.load_snapshot(table.pk, since=before)
    assert after.seats is before.seats and after.online is before.online
    assert after.match.version == before.match.version + 1
    assert after.last_move == {"seat": before.state.to_act, "action": "pass"}
    assert [p.user_active for p in after.players] == [True] * 4


def test_a_move_costs_four_queries(started):
    table, users = started
    read = snapshots.load_snapshot(table.pk)
    seat = read.state.to_act
    with CaptureQueriesContext(connection) as captured:
        play.apply_action(table.pk, users[seat], "pass", read.match.version)
    statements = [q["sql"] for q in captured.captured_queries]
    work = [sql for sql in statements if not sql.startswith(("BEGIN", "SAVEPOINT", "RELEASE"))]
    # the lock with the match, the player's seat, the compare-and-set, the log
    assert len(work) == 4, work


def test_a_move_event_reuses_the_latest_read_and_other_events_read_everything(started):
    table, _users = started
    first = snapshots.event_snapshot(table.pk, "e1")
    assert snapshots.event_snapshot(table.pk, "e1") is first  # shared by every connection
    moved = snapshots.snapshot_for(table.pk, {"event": "e2", "move": True})
    assert moved.seats is first.seats
    other = snapshots.snapshot_for(table.pk, {"event": "e3", "move": False})
    assert other.seats is not moved.seats and other.seats == moved.seats
    assert snapshots.cached_snapshot(table.pk, {"event": "e3"}) is other
    assert snapshots.cached_snapshot(table.pk, {"event": "unseen"}) is None
