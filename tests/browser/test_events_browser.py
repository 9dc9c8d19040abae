"""A small duplicate event through the real server: a club's admin schedules it, two pairs
register (each partner accepts), it starts; each round's notice takes the players to their
table, where the two pairs meet while computer pairs play the same deals at the other table;
the standings show after the first round (the computer pairs among them), and after the second
the results by pair and by deal, with the log that ``games.verify`` accepts. axe-core clean on
the club page, the event's registration, the event in progress and its results, at both
sizes."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Page, expect

from games import verify
from games.engines import duplicate
from games.models import Event, EventTable, Match

from .steps import next_deal_or_move, sign_up
from .test_friends_browser import no_serious_violations

NAMES = ["ana", "bob", "cid", "dan"]
#: A hang guard only: each step ends as soon as its condition holds.
ROUND_DEADLINE = 900


def play_round(pages: list[Page], number: int) -> None:
    """Every player plays at their table until it has finished the round: on their turn they
    pass in the auction or play their first playable card; after a deal, "Next deal"."""
    finished = f"finished round {number}"
    end = time.monotonic() + ROUND_DEADLINE
    while time.monotonic() < end:
        waiting = [
            page for page in pages if finished not in page.locator("#table-status").inner_text()
        ]
        if not waiting:
            return
        acted = False
        for page in waiting:
            acted = next_deal_or_move(page) or acted
        if not acted:
            pages[0].wait_for_timeout(100)  # computers think: look again
    raise AssertionError(f"round {number} did not finish")


def go_to_table(page: Page, number: int) -> None:
    """Follow the notice of round ``number`` to the player's table."""
    notice = page.locator(".notice").filter(has_text=f"Round {number} of 2 of Winter cup has begun")
    notice.get_by_role("link", name="Go to your table").click()
    expect(page.locator("#connection")).to_have_text("Connected")


@pytest.mark.services
def test_a_small_duplicate_event_to_its_results(live_server_url, new_page, tmp_path):
    base = live_server_url
    pages = [new_page() for _name in NAMES]
    for page, name in zip(pages, NAMES, strict=True):
        sign_up(page, base, name)
    ana, bob, cid, dan = pages
    ana.get_by_role("link", name="Clubs").click()
    ana.get_by_label("Club name").fill("Thursday Duplicate")
    ana.get_by_label("Belote").check()
    ana.get_by_label("Who may join").select_option("open")
    ana.get_by_role("button", name="Found the club").click()
    club_url = ana.url
    for page in (bob, cid, dan):
        page.goto(club_url)
        page.get_by_role("button", name="Join the club").click()
        expect(page.locator(".messages")).to_contain_text("Welcome to Thursday Duplicate!")

    # Ana schedules the event: two rounds of two deals, no turn timer, started by her.
    ana.goto(club_url)
    ana.get_by_text("Schedule an event").click()
    ana.get_by_label("Event name").fill("Winter cup")
    ana.get_by_label("Rounds").fill("2")
    ana.get_by_label("Deals per round").fill("2")
    ana.get_by_label("Turn timer").select_option("0")
    ana.get_by_role("button", name="Schedule the event").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Winter cup")
    event_url = ana.url
    ana.wait_for_load_state()  # the page's scripts (the browser's contribution) are in
    # Each partner is asked and accepts: Bob in the notice on the page he has open, Dan on
    # the event's page.
    expect(bob.locator(".notices-live")).to_have_attribute("data-connected", "true")
    ana.get_by_label("Your partner").select_option("bob")
    ana.get_by_role("button", name="Register").click()
    expect(ana.locator(".messages")).to_contain_text("bob is asked to partner you")
    expect(ana.locator(".notices-live")).to_have_attribute("data-connected", "true")
    asked = bob.locator(".notice").filter(has_text="ana asks you to be their partner in Winter cup")
    asked.get_by_role("button", name="Accept").click()
    expect(bob.locator(".notice")).to_contain_text("You and ana are registered for Winter cup.")
    expect(ana.locator(".notice")).to_contain_text("bob accepted: you are registered")
    cid.goto(event_url)
    cid.get_by_label("Your partner").select_option("dan")
    cid.get_by_role("button", name="Register").click()
    expect(cid.locator(".messages")).to_contain_text("dan is asked to partner you")
    dan.goto(event_url)
    registration = dan.get_by_role("region", name="Registered pairs")
    expect(registration).to_contain_text("cid asks you to be their partner.")
    no_serious_violations(dan)
    registration.get_by_role("button", name="Accept").click()
    expect(dan.locator(".messages")).to_contain_text("You and cid are registered for Winter cup.")
    cid.goto(event_url)
    expect(cid.get_by_role("region", name="Registered pairs")).to_contain_text("ana & bob")
    expect(cid.get_by_role("region", name="Registered pairs")).to_contain_text("cid & dan")
    event = Event.objects.get()
    assert all(len(pair.contribution) == 64 for pair in event.pairs.all())
    no_serious_violations(cid)

    # Everyone waits on some page of the site; Ana starts the event.
    for page in (bob, cid, dan):
        page.goto(base + "/")
        expect(page.locator(".notices-live")).to_have_attribute("data-connected", "true")
    ana.get_by_role("button", name="Start now").click()
    expect(ana.locator(".messages")).to_contain_text("The event has started.")
    for page in (bob, cid, dan):
        go_to_table(page, 1)
    ana.get_by_role("link", name="Go to your table").click()
    expect(ana.locator("#connection")).to_have_text("Connected")
    event.refresh_from_db()
    matches = [Match.objects.get(table=place.table) for place in EventTable.objects.filter(round=1)]
    assert {m.seed for m in matches} == {duplicate.round_seed(event.seed, 1)}

    play_round(pages, 1)
    # The first table done waits for the other; the last one starts round 2 for everyone.
    for page in pages:
        go_to_table(page, 2)
    cid.goto(event_url)
    progress = cid.get_by_role("region", name="Standings")
    expect(progress).to_contain_text("After 1 round.")
    expect(progress).to_contain_text("ana & bob")
    expect(progress.locator("table.standings tbody tr")).to_have_count(4)  # two computer pairs
    expect(progress.locator("table.standings .computer-mark")).to_have_count(2)
    expect(cid.get_by_role("heading", name="Round 2 of 2")).to_be_visible()
    no_serious_violations(cid)
    cid.go_back()
    expect(cid.locator("#connection")).to_have_text("Connected")

    play_round(pages, 2)
    notice = dan.locator(".notice").filter(has_text="Winter cup is over")
    notice.get_by_role("link", name="See the results").click()
    expect(dan.get_by_role("region", name="Final standings")).to_contain_text("cid & dan")
    deals = dan.get_by_role("region", name="Results by deal")
    expect(deals.locator("caption")).to_have_count(2)  # one round at a time
    expect(deals.locator("caption").first).to_have_text("Round 1, deal 1")
    expect(deals.locator("tbody tr")).to_have_count(4)  # two tables a deal
    expect(deals).to_contain_text("Computer pair 1")
    # The pars are worked out in the background; the page shows them once they are all kept.
    expect(deals).not_to_contain_text("Par is being worked out")
    played = deals.locator("tbody tr").filter(has=dan.get_by_role("link", name="Review"))
    expect(played.locator("td:last-child").filter(has_text="–")).to_have_count(played.count())
    no_serious_violations(dan)
    deals.get_by_role("link", name="Round 2").click()
    expect(deals.locator("caption").first).to_have_text("Round 2, deal 1")
    expect(deals.locator("caption")).to_have_count(2)

    # The published log: every table of each round got the same deals.
    with dan.expect_download() as download:
        dan.get_by_role("link", name="Download the event's log").click()
    path = tmp_path / "event.json"
    download.value.save_as(path)
    findings = verify.verify(json.loads(path.read_text()))
    assert all(f.ok for f in findings), [f.text for f in findings if not f.ok]
    assert sum("got the round's 2 deals" in f.text for f in findings) == 4

    ana.goto(club_url)
    expect(ana.get_by_role("region", name="Duplicate events")).to_contain_text("Winter cup")
    no_serious_violations(ana)
