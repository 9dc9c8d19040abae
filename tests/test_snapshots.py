"""The read of a table per change: its query counts, and what a move's read carries over."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import belote
from games.live import moves, notify, snapshots
from games.models import Match
from games.tables import play

#: Query counts, and reads shared or carried over rather than made again.
pytestmark = pytest.mark.contract


def test_a_table_is_read_in_four_queries(started, django_assert_num_queries):
    table, users = started
    with django_assert_num_queries(4):  # match with its table, players, seats, presences
        before = snapshots.load_snapshot(table.pk)
    assert before.last_move == {}
    play.apply_action(table.pk, users[before.state.to_act], "pass", before.match.version)
    after = snapshots.load_snapshot(table.pk)
    assert after.match.version == before.match.version + 1
    assert after.last_move == {"seat": before.state.to_act, "action": "pass"}
    assert [p.user_active for p in after.players] == [True] * 4


def test_a_read_holds_whether_the_table_is_an_events(started, django_assert_num_queries):
    """The result banner asks it in the event loop, where a query would raise."""
    table, _ = started
    read = snapshots.load_snapshot(table.pk)
    with django_assert_num_queries(0):
        assert getattr(read.table, "event_table", None) is None


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


def test_every_connection_hearing_an_event_shares_its_read(started):
    table, _users = started
    first = snapshots.event_snapshot(table.pk, "e1")
    assert snapshots.event_snapshot(table.pk, "e1") is first  # shared by every connection
    other = snapshots.snapshot_for(table.pk, {"event": "e3"})
    assert other is not first and other.seats == first.seats
    assert snapshots.cached_snapshot(table.pk, {"event": "e3"}) is other
    assert snapshots.cached_snapshot(table.pk, {"event": "unseen"}) is None


def assert_same_read(kept: snapshots.TableSnapshot, read: snapshots.TableSnapshot) -> None:
    """Everything the frames and the computer players use is equal in the two reads."""
    assert (kept.table.pk, kept.table.revision, kept.table.status) == (
        read.table.pk,
        read.table.revision,
        read.table.status,
    )
    assert [seat.pk for seat in kept.seats] == [seat.pk for seat in read.seats]
    assert kept.online == read.online
    fields = (
        *("pk", "version", "status", "turn_started_at", "moved_at", "last_seat", "last_action"),
        *("paused_until", "ready_seats"),
    )
    assert [getattr(kept.match, f) for f in fields] == [getattr(read.match, f) for f in fields]

    def players(snapshot):
        return [
            (p.seat, p.user_id, p.covered, p.user_active, p.away_since) for p in snapshot.players
        ]

    assert players(kept) == players(read)
    assert kept.last_move == read.last_move
    assert belote.dumps(kept.state) == belote.dumps(read.state)


def test_the_process_that_made_a_move_reads_nothing_for_its_event(
    started, django_capture_on_commit_callbacks, django_assert_num_queries
):
    table, users = started
    snapshots.event_snapshot(table.pk, "opened")  # this process shows the table
    rng = random.Random(5)
    covered_seat = None
    for step in range(12):
        read = snapshots.load_snapshot(table.pk)
        seat = read.state.to_act
        action = rng.choice(belote.legal_actions(read.state, seat))
        with django_capture_on_commit_callbacks(execute=True):
            if step == 3:  # a computer player moves for an absent human, covering the seat
                covered_seat = seat
                moves.apply(table.pk, None, action, read.match.version, seat=seat, cover=True)
            else:  # the covered human's next move takes the seat back
                moves.apply(table.pk, users[seat], action, read.match.version)
        event = notify.table_changed(
            move={"match": read.match.pk, "version": read.match.version + 1}
        )
        with django_assert_num_queries(0):
            held = snapshots.cached_snapshot(table.pk, event)  # the bot driver needs no trip
            kept = snapshots.snapshot_for(table.pk, event)
        assert held is kept
        assert_same_read(kept, snapshots.load_snapshot(table.pk))
        if step == 3:
            assert [p.seat for p in kept.players if p.covered] == [covered_seat]
    assert not any(p.covered for p in kept.players)


def test_a_move_made_elsewhere_is_applied_to_this_process_read(started, django_assert_num_queries):
    """Another process's moves reach this one as events carrying the move: applied to the read
    it holds, they show exactly what a read of the table would, covered seats and the pause
    after a deal included, until the match ends."""
    table, users = started
    match = Match.objects.get(table=table)
    Match.objects.filter(pk=match.pk).update(options={**match.options, "deal_pause": 10})
    snapshots.event_snapshot(table.pk, "opened")  # this process shows the table
    rng = random.Random(8)
    pauses = 0
    for step in range(2000):
        read = snapshots.load_snapshot(table.pk)
        if read.match.status != Match.Status.RUNNING:
            break
        if read.match.paused_until is not None:  # the deal's result shows: the next deal now
            Match.objects.filter(pk=read.match.pk).update(paused_until=None)
            snapshots.event_snapshot(table.pk, f"unpaused {step}")
            pauses += 1
            continue
        seat = read.state.to_act
        action = rng.choice(belote.legal_actions(read.state, seat))
        # As another process: no commit callback here, only the event reaches this one.
        if step == 5:
            moved = play.apply_action(
                table.pk, None, action, read.match.version, seat=seat, cover=True
            )
        else:
            moved = play.apply_action(table.pk, users[seat], action, read.match.version)
        event = notify.table_changed(move=snapshots.move_news(moved))
        if moved.match.status != Match.Status.RUNNING:
            assert snapshots.cached_snapshot(table.pk, event) is None  # the end is read
            break
        with django_assert_num_queries(0):
            kept = snapshots.cached_snapshot(table.pk, event)
            assert snapshots.snapshot_for(table.pk, event) is kept
        assert_same_read(kept, snapshots.load_snapshot(table.pk))
    assert moved.match.status == Match.Status.FINISHED and pauses >= 2  # every deal's end


def test_a_carried_move_on_a_table_that_changed_meanwhile_is_read(
    started, django_assert_num_queries
):
    table, users = started
    snapshots.event_snapshot(table.pk, "opened")
    read = snapshots.load_snapshot(table.pk)
    moved = play.apply_action(table.pk, users[read.state.to_act], "pass", read.match.version)
    news = snapshots.move_news(moved)
    revision, *rest = json.loads(news["carry"])
    news["carry"] = json.dumps([revision + 1, *rest])  # the mover saw a table this process has not
    event = notify.table_changed(move=news)
    assert snapshots.cached_snapshot(table.pk, event) is None
    with django_assert_num_queries(4):
        kept = snapshots.snapshot_for(table.pk, event)
    assert_same_read(kept, snapshots.load_snapshot(table.pk))


def test_a_move_event_without_the_move_is_read(started, django_assert_num_queries):
    table, users = started
    snapshots.event_snapshot(table.pk, "opened")
    read = snapshots.load_snapshot(table.pk)
    # Its commit callback never runs here: as if another process had made the move.
    play.apply_action(table.pk, users[read.state.to_act], "pass", read.match.version)
    event = notify.table_changed(move={"match": read.match.pk, "version": read.match.version + 1})
    assert snapshots.cached_snapshot(table.pk, event) is None
    with django_assert_num_queries(4):  # read whole, as any other event
        kept = snapshots.snapshot_for(table.pk, event)
    assert_same_read(kept, snapshots.load_snapshot(table.pk))
