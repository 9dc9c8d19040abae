"""A move made on the version this process already holds: no read, and still never stale.

The process showing a table keeps its latest read (``games.live.snapshots``). A move made on that
read's version skips reading the match again; the compare-and-set on the match row is what
refuses it if the match moved on meanwhile (another process, another tab, a moderator).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import belote
from games.live import moves, snapshots
from games.models import Match, MatchPlayer, Move, Table
from games.records import replay
from games.tables import matches, play, rows, seating
from games.tables.rows import TableError

from .factories import finished_short_match, make_players


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The SQL a block ran, without transaction bookkeeping."""
    sql = [query["sql"] for query in captured.captured_queries]
    return [s for s in sql if not s.startswith(("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT"))]


@pytest.mark.contract
def test_a_move_on_the_held_version_writes_and_reads_nothing(started):
    table, users = started
    held = snapshots.event_snapshot(table.pk, "opened")  # this process shows the table
    with CaptureQueriesContext(connection) as captured:
        moves.apply(table.pk, users[held.state.to_act], "pass", held.match.version)
    work = statements(captured)
    # the compare-and-set on the match, the log
    assert [s.split()[0] for s in work] == ["UPDATE", "INSERT"], work
    match = Match.objects.get(pk=held.match.pk)
    assert (match.version, match.last_action) == (held.match.version + 1, "pass")
    assert held.match.version == match.version - 1  # the held read itself is left as it was


def test_a_held_read_the_match_moved_past_refuses_the_move_and_changes_nothing(started):
    table, users = started
    held = snapshots.event_snapshot(table.pk, "opened")
    version, seat = held.match.version, held.state.to_act
    # Another process moves (its commit callback never runs here: this process's read stays).
    play.apply_action(table.pk, users[seat], "pass", version)
    assert snapshots.position_at(table.pk, version).match is held.match
    after = Match.objects.get(pk=held.match.pk)
    with pytest.raises(play.StaleMove):
        moves.apply(table.pk, users[seat], "C", version)  # a second tab, same version
    match = Match.objects.get(pk=held.match.pk)
    assert (match.version, match.state) == (after.version, after.state)
    assert Move.objects.filter(match=match).count() == version + 1


def test_a_held_read_of_a_match_closed_since_refuses_the_move(started):
    table, users = started
    held = snapshots.event_snapshot(table.pk, "opened")
    rows.abort_table(table.pk)
    with pytest.raises(play.StaleMove):
        moves.apply(table.pk, users[held.state.to_act], "pass", held.match.version)
    match = Match.objects.get(pk=held.match.pk)
    assert match.status == Match.Status.ABORTED
    assert not Move.objects.filter(match=match).exists()


def test_a_human_taking_back_a_covered_seat_on_a_held_read_uncovers_it(
    started, django_capture_on_commit_callbacks
):
    table, users = started
    snapshots.event_snapshot(table.pk, "opened")
    read = snapshots.load_snapshot(table.pk)
    covered = read.state.to_act
    with django_capture_on_commit_callbacks(execute=True):  # as the consumer's process does
        moves.apply(table.pk, None, "pass", read.match.version, seat=covered, cover=True)
    for step, call in enumerate(["C", "pass", "pass"]):  # round the table to the covered seat
        held = snapshots.position_at(table.pk, read.match.version + 1 + step)
        with django_capture_on_commit_callbacks(execute=True):
            moves.apply(table.pk, users[held.state.to_act], call, held.match.version)
    held = snapshots.position_at(table.pk, read.match.version + 4)
    assert held.state.to_act == covered
    assert [p.seat for p in held.players if p.covered] == [covered]
    with django_capture_on_commit_callbacks(execute=True):
        moves.apply(table.pk, users[covered], "D", held.match.version)
    assert not MatchPlayer.objects.filter(match=held.match, covered=True).exists()


def test_a_match_played_on_held_reads_ends_like_any_other(
    started, django_capture_on_commit_callbacks
):
    """Every move but the ones that read first goes through the held read, the last one too:
    the table is locked for it, the match and the table end, outcomes are recorded, and the
    log replays to the stored state."""
    table, users = started
    rng = random.Random(4)
    snapshots.event_snapshot(table.pk, "opened")
    match = Match.objects.get(table=table)
    held_moves = 0
    while match.status == Match.Status.RUNNING:
        held = snapshots.position_at(table.pk, match.version)
        read = held or snapshots.event_snapshot(table.pk, f"read-{match.version}")
        held_moves += held is not None
        seat = read.state.to_act
        action = rng.choice(belote.legal_actions(read.state, seat))
        with django_capture_on_commit_callbacks(execute=True):
            match = moves.apply(table.pk, users[seat], action, read.match.version).match
        if match.version > 2000:
            pytest.fail("the match did not end")
    assert held_moves == match.version  # after the first read, the process held every version
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.Status.FINISHED and stored.result["winner"] in (0, 1)
    assert belote.dumps(replay.final_state(stored)) == stored.state
    outcomes = set(MatchPlayer.objects.filter(match=stored).values_list("outcome", flat=True))
    assert outcomes == {"win", "loss"}


@pytest.mark.django_db
def test_a_finished_table_starts_again_only_through_the_rematch_votes():
    users = make_players(4)
    table, _match = finished_short_match(users)
    with pytest.raises(TableError, match="rematch"):
        matches.start_match(table.pk, users[0])  # the owner alone
    assert Match.objects.filter(table=table).count() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


@pytest.mark.django_db
def test_a_chat_grants_its_penalty_also_when_a_move_commits_at_the_same_moment(monkeypatch):
    users = make_players(2)
    options = {"players": 2, "stock_size": 20, "table_talk_penalty": True}
    table = rows.create_table(users[0], "grabush", options, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    real = play.lock_with_match
    reads = []

    def lock_then_a_move_commits(table_id):
        table, match = real(table_id)
        reads.append(match.version)
        if len(reads) == 1:  # another process's move lands between this read and its write
            Match.objects.filter(pk=match.pk).update(version=match.version + 1)
        return table, match

    monkeypatch.setattr(play, "lock_with_match", lock_then_a_move_commits)
    assert play.apply_chat_rule(table.pk, users[1]) is True
    assert len(reads) == 2  # the stale grant was tried again, on a fresh read
    grant = Move.objects.get(action__startswith="grant_penalty:")
    assert grant.seat == 1 and Match.objects.get(table=table).version == grant.seq
