"""Deal reviews are worked out off the web process, and a reviewer may have only so many
worked out an hour; a review already kept is always shown."""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse

from games import processes
from games.catalog import get_game
from games.engines import belote
from games.models import DealReview, Match
from games.records import reviews

from . import reviewers
from .factories import make_players
from .test_deal_review import finished
from .test_history import start_and_finish

pytestmark = pytest.mark.django_db


def played_deals(match: Match) -> list[int]:
    state = belote.loads(match.state)
    return [n for n, d in enumerate(belote.deal_results(state), start=1) if d["contract"]]


@pytest.fixture
def pool(settings):
    """A pool of one process, started by this test (so it has the test's environment)."""
    processes.shutdown()
    settings.BOT_PROCESSES = 1
    yield
    processes.shutdown()


def test_a_review_is_worked_out_in_another_process(pool, monkeypatch, tmp_path):
    marker = tmp_path / "reviewer"
    monkeypatch.setenv("REVIEWER_MARKER", str(marker))
    monkeypatch.setattr(reviews, "work_out", reviewers.where, raising=False)
    # The web process's own copy of the game may not be asked.
    spec = type(get_game("belote"))
    monkeypatch.setattr(spec, "review_deal", lambda *args: pytest.fail("reviewed in the web"))
    match = finished()
    number = played_deals(match)[0]
    page = Client().get(reverse("deal_review", args=[match.pk, number]))
    assert page.status_code == 200
    assert "Par: perfect play from the first card" in page.content.decode()
    assert int(marker.read_text()) != os.getpid()
    assert DealReview.objects.filter(match=match, deal=number).count() == 1


def test_new_reviews_are_limited_per_hour_and_kept_ones_are_not(make_user, settings):
    settings.REVIEWS_PER_HOUR = 2
    users = make_players(4)
    matches = [start_and_finish(users, seed=seed) for seed in (1, 2, 3)]
    first, second, third = (
        reverse("deal_review", args=[match.pk, played_deals(match)[0]]) for match in matches
    )
    anonymous = Client(REMOTE_ADDR="203.0.113.7")
    no_deal = reverse("deal_review", args=[matches[0].pk, 99])
    assert anonymous.get(no_deal).status_code == 404  # nothing worked out, nothing counted
    assert anonymous.get(first).status_code == 200
    assert anonymous.get(second).status_code == 200
    refused = anonymous.get(third)
    assert refused.status_code == 429
    assert "Try again later" in refused.content.decode()
    assert not DealReview.objects.filter(match=matches[2]).exists()
    assert anonymous.get(first).status_code == 200  # kept: shown all the same
    elsewhere = Client(REMOTE_ADDR="198.51.100.1")
    assert elsewhere.get(third).status_code == 200
    assert anonymous.get(third).status_code == 200  # now kept
    # Signed in, the account is counted, not the address.
    player = Client(REMOTE_ADDR="203.0.113.7")
    player.force_login(make_user("reviewer"))
    DealReview.objects.all().delete()
    assert [player.get(url).status_code for url in (first, second, third)] == [200, 200, 429]


def test_the_refusal_is_translated(settings):
    settings.REVIEWS_PER_HOUR = 0
    match = finished()
    url = reverse("deal_review", args=[match.pk, played_deals(match)[0]])
    page = Client(HTTP_ACCEPT_LANGUAGE="bg").get(url)
    assert page.status_code == 429
    assert "Опитай отново по-късно" in page.content.decode()
