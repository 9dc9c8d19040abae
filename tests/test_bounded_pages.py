"""No page's work grows with the data behind it: what a GET (or an htmx poll repeating it)
does is bounded by one page of rows, one round of an event, or values kept when they were
made."""

from __future__ import annotations

import threading

import pytest
from django.urls import reverse

from games.catalog import get_game
from games.engines import belote
from games.events import results, running
from games.models import Event

from .test_events import finish_round, registered_event

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
