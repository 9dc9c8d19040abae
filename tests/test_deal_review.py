"""A finished deal's review on the site: offered by the record and the replay, worked out once
and kept, and shown only for ended matches their viewers may see."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.catalog import get_game
from games.engines import belote
from games.models import DealReview, Match, Table
from games.records import history
from games.tables import matches, rows, seating

from .factories import OPTIONS, make_players
from .test_history import start_and_finish

pytestmark = pytest.mark.django_db


def finished(private: bool = False) -> Match:
    """A Belote match played to its end with random legal actions."""
    match = start_and_finish(make_players(4), seed=8)
    Table.objects.filter(matches=match).update(is_private=private)
    return match


def test_the_record_offers_a_review_of_each_played_deal_and_it_is_kept(monkeypatch):
    match = finished()
    state = belote.loads(match.state)
    played = [n for n, deal in enumerate(belote.deal_results(state), start=1) if deal["contract"]]
    record = Client().get(reverse("match", args=[match.pk])).content.decode()
    for number in played:
        assert reverse("deal_review", args=[match.pk, number]) in record
    number = played[0]
    page = Client().get(reverse("deal_review", args=[match.pk, number]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Par: perfect play from the first card" in text
    assert text.count('class="trick-start') == 8
    assert DealReview.objects.filter(match=match, deal=number).count() == 1
    # Asked again, it is read, not worked out again.
    monkeypatch.setattr(type(get_game("belote")), "review_deal", lambda *args: pytest.fail("again"))
    assert Client().get(reverse("deal_review", args=[match.pk, number])).status_code == 200


def test_the_review_matches_the_deal_and_its_figures_add_up():
    match = finished()
    state = belote.loads(match.state)
    number, deal = next(
        (n, d) for n, d in enumerate(belote.deal_results(state), start=1) if d["contract"]
    )
    page = history.review_page(match, number)
    assert page is not None
    assert page["actual"]["raw"] == deal["raw"]
    assert [p["card"] for p in page["plays"]] == [c for trick in deal["tricks"] for _s, c in trick]
    assert sum(p["lost"] for p in page["players"]) == page["par_lost"]
    assert any(c["bid"] and c["contract"] == deal["contract"] for c in page["contracts"])


def test_thrown_in_deals_running_matches_and_grabush_have_no_review():
    match = finished()
    state = belote.loads(match.state)
    thrown = [n for n, d in enumerate(belote.deal_results(state), start=1) if not d["contract"]]
    client = Client()
    if thrown:
        assert client.get(reverse("deal_review", args=[match.pk, thrown[0]])).status_code == 404
    assert client.get(reverse("deal_review", args=[match.pk, 99])).status_code == 404
    users = [player.user for player in match.players.order_by("seat")]
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=False)
    for seat in (1, 2, 3):
        seating.take_seat(table.pk, users[seat], seat)
    running = matches.start_match(table.pk, users[0])
    assert client.get(reverse("deal_review", args=[running.pk, 1])).status_code == 404


def test_a_private_match_reviews_only_for_its_players():
    match = finished(private=True)
    state = belote.loads(match.state)
    number = next(n for n, d in enumerate(belote.deal_results(state), start=1) if d["contract"])
    url = reverse("deal_review", args=[match.pk, number])
    outsider = Client()
    outsider.force_login(get_user_model().objects.create_user("outsider", password="pw-12345678"))
    assert outsider.get(url).status_code == 404
    player = Client()
    player.force_login(match.players.get(seat=2).user)
    assert player.get(url).status_code == 200


def test_the_replay_offers_the_last_finished_deal():
    match = finished()
    state = belote.loads(match.state)
    last = [n for n, d in enumerate(belote.deal_results(state), start=1) if d["contract"]][-1]
    end = {"step": match.version}
    replay = Client().get(reverse("replay", args=[match.pk]), end).content.decode()
    assert reverse("deal_review", args=[match.pk, last]) in replay
    start = Client().get(reverse("replay", args=[match.pk]), {"step": 0}).content.decode()
    assert "/deals/" not in start
