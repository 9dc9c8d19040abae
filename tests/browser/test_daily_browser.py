"""The daily Belote through the real server, as three new players: Ana plays the whole set,
Bob stops half way and resumes in another browser, Cid never starts. The standings, the
travellers, the resume, and nothing of the deals for a player who has not finished; axe-core
clean on the daily's page and a traveller, at both sizes."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from games.events import daily
from games.models import Match

from .steps import PASSWORD, next_deal_or_move, sign_up
from .test_friends_browser import no_serious_violations

#: A hang guard only: each step ends as soon as its condition holds.
DEADLINE = 600
DONE = "You have played every deal of this daily Belote."


def play(page: Page, deals: int | None = None) -> None:
    """Play at the daily's table: pass in the auction, play the first playable card, "Next
    deal" after a deal; until the set is over, or (``deals``) until that many deals ended."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if DONE in page.locator("#table-status").inner_text():
            return
        next_deal = page.locator("#my-area .next-deal")
        shown = next_deal.count() and next_deal.is_visible()
        # A deal played shows its result (a thrown-in one moves straight on to the next).
        if deals is not None and (
            shown or f"deal {deals + 1} of" in page.locator("#board-top").inner_text()
        ):
            return
        if next_deal_or_move(page):
            continue
        page.wait_for_timeout(100)  # computers think: look again
    raise AssertionError("the daily did not get that far")


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{base}/")


def sees_nothing_of_the_deals(page: Page, base: str, day: str, others: list[int]) -> None:
    page.goto(f"{base}/daily/{day}/")
    deals = page.get_by_role("region", name="The deals")
    expect(deals).to_contain_text("show here once you have played your set")
    expect(deals.get_by_role("link")).to_have_count(0)
    for path in (
        [f"/daily/{day}/deals/1/", f"/daily/{day}/log.json"]
        + [f"/m/{match}/" for match in others]
        + [f"/m/{match}/deals/1/" for match in others]
    ):
        assert page.request.get(base + path).status == 404, path  # the browser's cookies
    page.goto(f"{base}/daily/{day}/")


def test_the_daily_as_three_new_players(live_server_url, new_page):
    base = live_server_url
    ana, bob, cid = new_page(), new_page(), new_page()
    for page, name in ((ana, "ana"), (bob, "bob"), (cid, "cid")):
        sign_up(page, base, name)
    day = daily.day_of().isoformat()

    # The home page says what today's daily is; Ana plays it through.
    home = ana.get_by_role("region", name="Daily Belote")
    expect(home).to_contain_text("0 players have played it so far.")
    home.get_by_role("link", name="Play the daily").click()
    expect(ana.get_by_role("heading", level=1)).to_contain_text("Daily Belote of")
    expect(ana.locator("code.hash").first).to_have_text(daily.today().commitment)
    no_serious_violations(ana)
    ana.get_by_role("button", name="Play today's deals").click()
    expect(ana.locator("#connection")).to_have_text("Connected")
    play(ana)
    ana.get_by_role("link", name="See the standings and the travellers").click()
    standings = ana.get_by_role("region", name="Standings")
    expect(standings.locator("tbody tr")).to_have_count(1)
    expect(standings).to_contain_text("ana")
    ana_match = Match.objects.get(table__daily_entry__user__username="ana")

    # Bob plays one deal, then leaves: his place waits, nothing of the deals shows to him.
    bob.goto(f"{base}/daily/{day}/")
    bob.get_by_role("button", name="Play today's deals").click()
    expect(bob.locator("#connection")).to_have_text("Connected")
    play(bob, deals=1)
    bob.context.close()
    bob = new_page()
    log_in(bob, base, "bob")
    bob.get_by_role("region", name="Daily Belote").get_by_role(
        "link", name="Resume the daily"
    ).click()
    expect(bob.locator(".daily-state")).to_have_text("You have played 1 deal of 2.")
    sees_nothing_of_the_deals(bob, base, day, [ana_match.pk])
    standings = bob.get_by_role("region", name="Standings")
    expect(standings).to_contain_text("ana")  # her total, and no more
    expect(standings).to_contain_text("Your place shows once your last deal is played.")

    # Cid never starts: the standings' totals, nothing of the deals.
    sees_nothing_of_the_deals(cid, base, day, [ana_match.pk])
    expect(cid.get_by_role("button", name="Play today's deals")).to_be_visible()

    # Bob resumes where he left off, in the new browser, and finishes.
    bob.get_by_role("link", name="Resume the daily").click()
    expect(bob.locator("#connection")).to_have_text("Connected")
    play(bob)
    bob.get_by_role("link", name="See the standings and the travellers").click()
    standings = bob.get_by_role("region", name="Standings")
    expect(standings.locator("tbody tr")).to_have_count(2)
    deals = bob.get_by_role("region", name="The deals")
    expect(deals.locator("tbody tr")).to_have_count(2)
    deals.get_by_role("link", name="Deal 1's traveller").click()
    traveller = bob.locator("table.daily-traveller")
    counts = [int(cell) for cell in traveller.locator("tbody tr td:last-child").all_inner_texts()]
    assert sum(counts) == 2
    expect(traveller.locator("tr.me")).to_have_count(1)
    no_serious_violations(bob)
    assert bob.request.get(f"{base}/m/{ana_match.pk}/").status == 200  # others' records too

    # Ana's home page now says her place; Cid still sees nothing.
    ana.goto(base + "/")
    expect(ana.get_by_role("region", name="Daily Belote")).to_contain_text("of 2.")
    sees_nothing_of_the_deals(cid, base, day, [ana_match.pk])
    no_serious_violations(cid)
