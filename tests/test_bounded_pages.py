"""No page's work grows with the data behind it: what a GET (or an htmx poll repeating it)
does is bounded by one page of rows, one round of an event, or values kept when they were
made."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from friendship.models import Friend

from games.catalog import get_game
from games.engines import belote
from games.events import results, running
from games.models import Club, Event, Invitation, MatchPlayer, Membership, Outcome
from games.people import clubs
from games.records.replay import CHECKPOINT_MOVES, logged_moves, state_after
from games.tables import matches, rows, seating

from .factories import OPTIONS, finish_match, make_players
from .test_events import finish_round, registered_event
from .test_history import start_and_finish

pytestmark = pytest.mark.django_db


def loads_counted(monkeypatch) -> list[int]:
    """The engine states this thread loads from now on (one entry each)."""
    loaded: list[int] = []
    real, here = belote.loads, threading.get_ident()

    def counted(text):
        if threading.get_ident() == here:
            loaded.append(1)
        return real(text)

    monkeypatch.setattr(belote, "loads", counted)
    return loaded


def test_a_running_events_page_and_poll_add_up_the_standings_without_replaying_rounds(
    client, monkeypatch
):
    players, event = registered_event(rounds=3)
    running.start(event, players[0])
    finish_round(event, 1)
    finish_round(event, 2)
    client.force_login(players[4])  # a member who does not play
    loaded = loads_counted(monkeypatch)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "After 2 rounds." in page
    poll = client.get(reverse("event_progress", args=[event.pk]), {"status": "running"})
    assert poll.status_code == 200 and "After 2 rounds." in poll.content.decode()
    # Only the tables of the round being played are read: two, for the page and the poll.
    assert len(loaded) == 2 * 2
    unchanged = {"status": "running", "seen": poll.context["seen"]}
    loaded.clear()
    assert client.get(reverse("event_progress", args=[event.pk]), unchanged).status_code == 204
    assert len(loaded) == 2


def test_an_over_events_results_show_one_rounds_deals_at_a_time(client, monkeypatch):
    players, event = registered_event(rounds=2)
    running.start(event, players[0])
    finish_round(event, 1)
    finish_round(event, 2)
    Event.objects.filter(pk=event.pk).update(reviewed_version=get_game("belote").review_version)
    expected = {line.name: line.matchpoints for line in results.standings(event)}
    client.force_login(players[4])
    loaded = loads_counted(monkeypatch)
    first = client.get(reverse("event", args=[event.pk]))
    text = first.content.decode()
    assert "Round 1, deal 2" in text and "Round 2, deal 1" not in text
    assert len(loaded) == 2  # the two tables of round 1
    assert {line.name: line.matchpoints for line in first.context["standings"]} == expected
    loaded.clear()
    second = client.get(reverse("event", args=[event.pk]), {"round": 2}).content.decode()
    assert "Round 2, deal 1" in second and "Round 1, deal 1" not in second
    assert len(loaded) == 2
    assert 'href="?round=1#deals-title"' in second


@contextmanager
def rows_loaded(model) -> Iterator[list[object]]:
    """The instances of ``model`` made (rows brought from the database) inside the block."""
    made: list[object] = []

    def count(sender, instance, **kwargs):
        made.append(instance)

    post_init.connect(count, sender=model)
    try:
        yield made
    finally:
        post_init.disconnect(count, sender=model)


def test_the_friends_page_adds_up_records_together_in_the_database(client):
    users = make_players(4)
    ana, bob, cid, dan = users
    for seed, seated in enumerate([users, [bob, cid, dan, ana], users, [cid, ana, bob, dan]]):
        start_and_finish(seated, seed=seed)
    for other in (bob, cid, dan):
        Friend.objects.create(from_user=ana, to_user=other)
        Friend.objects.create(from_user=other, to_user=ana)
    # What the page says, worked out here from every seat of every match.
    expected: dict[int, dict[str, dict[str, list[int]]]] = {}
    latest: dict[int, list[int]] = {}
    for mine in MatchPlayer.objects.filter(user=ana).order_by("-match_id"):
        for theirs in MatchPlayer.objects.filter(match_id=mine.match_id).exclude(user=ana):
            side = "against" if (mine.seat - theirs.seat) % 2 else "along"
            counts = expected.setdefault(theirs.user_id, {}).setdefault(side, {})
            line = counts.setdefault("Belote", [0, 0])
            line[0] += mine.outcome == Outcome.WIN
            line[1] += mine.outcome == Outcome.LOSS
            latest.setdefault(theirs.user_id, []).append(mine.match_id)
    client.force_login(ana)
    with rows_loaded(MatchPlayer) as loaded:
        page = client.get(reverse("friends"))
    assert not loaded  # added up by the database, not row by row here
    shown = {row.user.pk: together for row, together in page.context["rows"]}
    for other in (bob, cid, dan):
        record = shown[other.pk]
        assert {"along": record.along, "against": record.against} == {
            "along": expected[other.pk].get("along", {}),
            "against": expected[other.pk].get("against", {}),
        }
        assert record.matches == latest[other.pk][:3]


def test_an_events_log_takes_as_many_queries_whatever_its_size(client):
    def over(rounds: int) -> Event:
        players, event = registered_event(rounds=rounds)
        running.start(event, players[0])
        for number in range(1, rounds + 1):
            finish_round(event, number)
        return event

    def queries(event: Event) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("event_log", args=[event.pk])).status_code == 200
        return len(captured)

    small = queries(over(1))
    get_user_model().objects.all().delete()  # the players of the next event have their names
    assert queries(over(3)) == small


def club_with_history(members: int) -> tuple[Club, list]:
    """A club of ``members`` players where four of them finished two matches."""
    users = make_players(members)
    club = clubs.create_club(users[0], "Tuesday Belote", "", ["belote"], Club.Access.OPEN)
    for user in users[1:]:
        clubs.join(club, user)
    for _ in range(2):
        table = rows.create_table(users[0], "belote", OPTIONS, is_private=True, club=club)
        for index, user in enumerate(users[1:4], start=1):
            seating.take_seat(table.pk, user, index)
        matches.start_match(table.pk, users[0])
        finish_match(table, users[:4])
    return club, users


def test_a_clubs_page_lists_a_page_of_members_and_adds_up_its_standings_in_the_database(
    client,
):
    club, users = club_with_history(clubs.MEMBERS_PER_PAGE + 5)
    expected = {line.name: line.won for line in clubs.standings(club)[0].players}
    client.force_login(users[-1])
    with rows_loaded(MatchPlayer) as seats, rows_loaded(Membership) as memberships:
        page = client.get(club.get_absolute_url())
    assert not seats  # the standings are added up by the database
    assert len(memberships) <= clubs.MEMBERS_PER_PAGE + 1  # a page of them, and the viewer's
    assert len(page.context["members"]) == clubs.MEMBERS_PER_PAGE
    assert {line.name: line.won for line in page.context["standings"][0].players} == expected
    assert sum(expected.values()) == 2 * 2  # two winners a match
    second = client.get(club.get_absolute_url(), {"page": 2})
    assert len(second.context["members"]) == 5
    assert "Page 2 of 2" in second.content.decode()


def test_the_invitations_page_reads_each_tables_seats_in_one_query(client):
    ana, *friends_ = make_players(4)
    for friend in friends_:
        table = rows.create_table(friend, "belote", OPTIONS, is_private=True)
        seating.take_seat(table.pk, friend, 0)
        Invitation.objects.create(table=table, from_user=friend, to_user=ana)
    client.force_login(ana)
    with CaptureQueriesContext(connection) as three:
        client.get(reverse("notifications"))
    Invitation.objects.filter(from_user=friends_[0]).delete()
    with CaptureQueriesContext(connection) as two:
        client.get(reverse("notifications"))
    assert len(three) == len(two)


def test_a_replay_step_starts_from_the_nearest_state_a_replay_kept(client, monkeypatch):
    match = start_and_finish(make_players(4), seed=8)
    total = match.version
    assert total > CHECKPOINT_MOVES
    url = reverse("replay", args=[match.pk])
    spec = type(get_game("belote"))
    real, applied = spec.apply_logged, []

    def counted(self, state, seat, action):
        applied.append(action)
        return real(self, state, seat, action)

    monkeypatch.setattr(spec, "apply_logged", counted)
    last = client.get(url, {"step": total})
    assert last.context["matches_record"]  # from the seed: the recorded match
    applied.clear()
    before = client.get(url, {"step": total - 1})
    assert before.context["step"] == total - 1
    assert 0 < len(applied) < CHECKPOINT_MOVES  # from the state kept on the way
    # The same board as from the seed, and the same last move.
    moves = logged_moves(match)
    game = get_game("belote")
    assert before.context["view"] == game.engine.view(state_after(match, moves[:-1]), None)
    assert before.context["last_move"]["text"] == game.presenter.describe(moves[-2][1])
