"""A public cup through the real server: staff scheduled it; the home page lists it with its
start and its pairs; two players who sign up register, each with a computer partner; ten
minutes before the start both are reminded on the page they have open; at its time the cup
starts, the notice takes each to their table, and they play the round's deal to its end.
axe-core clean on the home page and the cup's page, at both sizes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Event

from .steps import sign_up
from .test_events_browser import play_round
from .test_friends_browser import no_serious_violations

NAMES = ["ana", "bob"]


def register_with_a_computer(page: Page, cup_url: str) -> None:
    page.goto(cup_url)
    page.wait_for_load_state()  # the page's scripts (the browser's contribution) are in
    page.get_by_label("Your partner").fill("")  # no partner named: a computer partner
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".messages")).to_contain_text("You are registered.")


@pytest.mark.services
def test_players_register_for_a_public_cup_with_computers_and_play_it(live_server_url, new_page):
    base = live_server_url
    staff = get_user_model().objects.create_user("referee", is_staff=True)
    cup = Event.objects.create(
        club=None,
        created_by=staff,
        name="Sunday cup",
        rounds=1,
        deals_per_round=1,
        turn_seconds=0,
        starts_at=timezone.now() + timedelta(hours=1),
    )
    pages = [new_page() for _name in NAMES]
    ana, bob = pages

    # A visitor sees the cup on the home page; signed up, so does the lobby.
    ana.goto(base + "/")
    cups = ana.get_by_role("region", name="Public cups")
    expect(cups).to_contain_text("Sunday cup")
    expect(cups).to_contain_text("0 pairs registered")
    for page, name in zip(pages, NAMES, strict=True):
        sign_up(page, base, name)
    cups = ana.get_by_role("region", name="Public cups")
    cups.get_by_role("link", name="Sunday cup").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Sunday cup")
    expect(ana.locator(".card").first).to_contain_text("Public cup")
    cup_url = ana.url
    for page in pages:
        register_with_a_computer(page, cup_url)
    expect(bob.get_by_role("region", name="Registered pairs")).to_contain_text("ana and a computer")
    assert all(len(pair.contribution) == 64 for pair in cup.pairs.all())
    no_serious_violations(bob)
    bob.goto(base + "/")
    expect(bob.get_by_role("region", name="Public cups")).to_contain_text("2 pairs registered")
    no_serious_violations(bob)

    # Ten minutes before the start, whoever opens the cup's page first has everyone reminded.
    expect(bob.locator(".notices-live")).to_have_attribute("data-connected", "true")
    Event.objects.filter(pk=cup.pk).update(starts_at=timezone.now() + timedelta(minutes=9))
    ana.reload()
    reminder = bob.locator(".notice").filter(has_text="Sunday cup starts in 9 minutes.")
    expect(reminder.get_by_role("link", name="Open the cup")).to_be_visible()
    reminder.get_by_role("button", name="Close").click()

    # At its time it starts: the notice takes each player to their table.
    ana.goto(base + "/")
    expect(ana.locator(".notices-live")).to_have_attribute("data-connected", "true")
    Event.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    bob.goto(cup_url)
    bob.locator("#event-progress").get_by_role("link", name="Go to your table").click()
    expect(bob.locator("#connection")).to_have_text("Connected")
    notice = ana.locator(".notice").filter(has_text="Round 1 of 1 of Sunday cup has begun")
    notice.get_by_role("link", name="Go to your table").click()
    expect(ana.locator("#connection")).to_have_text("Connected")

    play_round(pages, 1)
    notice = ana.locator(".notice").filter(has_text="Sunday cup is over")
    notice.get_by_role("link", name="See the results").click()
    standings = ana.get_by_role("region", name="Final standings")
    expect(standings).to_contain_text("ana and a computer")
    expect(standings).to_contain_text("bob and a computer")
    no_serious_violations(ana)
