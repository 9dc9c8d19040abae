"""An over event's deal reviews are worked out once, in the background, never in a request:
its results page and their poll say that par is being worked out until every review is kept,
then show it; however many ask at once, each deal is worked out once, one at a time; a claim
every process sees keeps a second process off an event another one works on, and lapses when
that process dies (on PostgreSQL and Redis in CI's second pass)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import background
from games.events import par, results, running
from games.models import DealReview, Event
from games.records import reviews

from .test_events import finish_round, registered_event
from .test_one_secret_one_match import together

pytestmark = pytest.mark.django_db(transaction=True)

PENDING = "Par is being worked out"


class Solver:
    """``reviews.work_out`` watched: who asked it, how many ran at once; it waits until
    :attr:`gate` opens, and refuses to run in a thread named a request's."""

    def __init__(self) -> None:
        self.real = reviews.work_out
        self.gate = threading.Event()
        self.requests: set[int] = set()  # the threads that serve requests
        self.calls: list[int] = []  # the thread of each call
        self.running = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, *args):
        with self.lock:
            self.calls.append(threading.get_ident())
        if threading.get_ident() in self.requests:
            raise AssertionError("a deal review was worked out in a request")
        self.gate.wait()
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return self.real(*args)
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def solver(monkeypatch) -> Iterator[Solver]:
    watched = Solver()
    watched.requests.add(threading.get_ident())  # the test's client serves requests here
    monkeypatch.setattr(reviews, "work_out", watched)
    yield watched
    watched.gate.set()
    background.wait()  # nothing of this test's is still working on the database


def over_event() -> tuple[list, Event]:
    """An event of one round of two deals, played to its end; its players and the event."""
    players, event = registered_event(rounds=1, deals=2)
    running.start(event, players[0])
    event.refresh_from_db()
    assert finish_round(event, 1).finished
    event.refresh_from_db()
    return players, event


def played_deals(event: Event) -> int:
    return len(par.missing(event.pk)) + DealReview.objects.count()


def pars_shown(event: Event) -> list[str]:
    """The par each table's played deal shows, as the results page writes it."""
    deals = results.revealed_deals(event)
    results.add_par(deals)
    return [
        f"{t.par['written'][0]} – {t.par['written'][1]}"
        for deal in deals
        for t in deal.tables
        if t.par is not None
    ]


def test_the_results_page_and_its_poll_work_out_no_review(solver):
    players, event = over_event()
    client = Client()
    client.force_login(players[0])
    page = client.get(reverse("event", args=[event.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Final standings" in text and PENDING in text
    poll = reverse("event_progress", args=[event.pk])
    waiting = client.get(poll, {"status": "finished"})
    assert waiting.status_code == 204 and "HX-Refresh" not in waiting
    assert not DealReview.objects.exists()
    # The background works them out; then the poll reloads the page, which shows every par.
    solver.gate.set()
    background.wait()
    assert DealReview.objects.count() == played_deals(event) > 0
    assert client.get(poll, {"status": "finished"})["HX-Refresh"] == "true"
    done = client.get(reverse("event", args=[event.pk])).content.decode()
    assert PENDING not in done
    shown = pars_shown(event)
    assert len(shown) == DealReview.objects.count()
    assert all(par in done for par in shown)
    assert solver.calls and solver.requests.isdisjoint(solver.calls)


def test_many_asking_at_once_get_each_deal_worked_out_once_one_at_a_time(solver, make_user):
    players, event = over_event()
    outsiders = [make_user(f"outsider{n}") for n in range(4)]  # not even members of the club
    clients = []
    for user in [*players, *outsiders]:
        client = Client()
        client.force_login(user)
        clients.append(client)
    page, poll = reverse("event", args=[event.pk]), reverse("event_progress", args=[event.pk])

    def ask(client: Client):
        solver.requests.add(threading.get_ident())
        return [
            client.get(page).status_code,
            client.get(poll, {"status": "finished"}).status_code,
        ]

    answers = together(*(lambda c=client: ask(c) for client in clients))
    assert answers == [[200, 204]] * len(clients)
    solver.gate.set()
    background.wait()
    again = together(*(lambda c=client: ask(c) for client in clients))
    assert again == [[200, 204]] * len(clients)  # ready: each poll asks for a reload
    background.wait()
    assert len(solver.calls) == DealReview.objects.count() == played_deals(event)
    assert solver.most == 1 and solver.requests.isdisjoint(solver.calls)


def test_another_process_claim_keeps_this_one_off_until_it_lapses(solver):
    players, event = registered_event(rounds=1, deals=2)
    running.start(event, players[0])
    event.refresh_from_db()
    # The event's reviews are another process's to work out...
    cache.set(par.claim_key(event.pk), "another process", timeout=par.CLAIM_SECONDS)
    assert finish_round(event, 1).finished
    solver.gate.set()
    client = Client()
    client.force_login(players[0])
    poll = reverse("event_progress", args=[event.pk])
    assert PENDING in client.get(reverse("event", args=[event.pk])).content.decode()
    assert client.get(poll, {"status": "finished"}).status_code == 204
    background.wait()
    assert not solver.calls and not DealReview.objects.exists()
    # ... which dies: its claim lapses, and the next asking takes the event up here.
    cache.delete(par.claim_key(event.pk))
    assert client.get(poll, {"status": "finished"}).status_code == 204
    background.wait()
    assert DealReview.objects.count() == played_deals(event) == len(solver.calls) > 0
    assert client.get(poll, {"status": "finished"})["HX-Refresh"] == "true"
    assert PENDING not in client.get(reverse("event", args=[event.pk])).content.decode()
