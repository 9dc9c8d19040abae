"""Fair deals and deal reviews in Chromium: the fingerprint at the table, the browser's own
contribution found again on the record, the log that checks out, and a finished deal's review
opened from the record and read by keyboard."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import fair_deals, tables
from games.models import Match, Table
from games.verify import verify
from tests.browser.test_accessibility import check, logged_in
from tests.factories import OPTIONS, make_players
from tests.test_history import start_and_finish


def test_the_table_shows_the_fingerprint_and_the_record_finds_my_contribution(
    live_server_url, new_page
):
    owner = make_players(1)[0]
    table = tables.create_table(owner, "belote", OPTIONS, is_private=True)
    tables.fill_with_bots(table.pk, owner, "easy")
    committed = fair_deals.commitment(table.next_secret)
    page = logged_in(new_page, owner, live_server_url)
    page.goto(f"{live_server_url}{table.get_absolute_url()}")
    expect(page.locator("#connection")).to_have_text("Connected")
    fair = page.locator("#fair-deals")
    fair.locator("summary").click()
    expect(fair).to_contain_text(committed)
    expect(fair).to_contain_text("will be fixed by a secret the site has already chosen")

    page.get_by_role("button", name="Start the match").click()
    expect(fair).to_contain_text("This match's deals were fixed")
    match = Match.objects.get(table=table)
    assert [c["seat"] for c in match.contributions] == [0]  # the computers add none
    assert fair_deals.is_contribution(match.contributions[0]["value"])
    assert match.commitment == committed
    assert match.secret not in page.content() and match.seed not in page.content()

    # A moderator aborts it (set here directly: the service tells the sockets, from an event
    # loop of its own). Ended, its record shows how the deals were fixed.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABORTED)
    page.goto(f"{live_server_url}/m/{match.pk}/")
    record = page.locator(".fair-record")
    expect(record.locator("#my-contribution")).to_be_visible()
    expect(record).to_contain_text(match.secret)
    expect(record).to_contain_text(match.seed)
    log = page.request.get(f"{live_server_url}/m/{match.pk}/log.json")
    assert all(finding.ok for finding in verify(json.loads(log.body())))
    # Another browser contributed nothing here: it is not told it did.
    someone = get_user_model().objects.create_user("stranger", password="pw-123456789")
    stranger = logged_in(new_page, someone, live_server_url)
    Table.objects.filter(pk=table.pk).update(is_private=False)
    stranger.goto(f"{live_server_url}/m/{match.pk}/")
    expect(stranger.locator(".fair-record")).to_contain_text(match.secret)
    expect(stranger.locator("#my-contribution")).to_be_hidden()


def test_a_finished_deal_is_reviewed_from_the_record_by_keyboard(live_server_url, new_page):
    users = make_players(4)
    match = start_and_finish(users, seed=3)
    page = new_page()
    page.goto(f"{live_server_url}/m/{match.pk}/")
    played = page.locator(".deal-summary:has(a[href*='/deals/'])").first
    played.locator("summary").click()
    link = played.get_by_role("link", name="Review this deal")
    review_url = link.get_attribute("href")
    link.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("reviewed")
    expect(
        page.get_by_role("heading", name="Par: perfect play from the first card")
    ).to_be_visible()
    expect(page.locator(".review-cards tbody tr")).to_have_count(32)
    expect(page.locator(".hand-list li")).to_have_count(4)
    # Keyboard: from the top, the skip link, the header, then the review's own links.
    page.keyboard.press("Tab")
    back = page.get_by_role("link", name="Back to the match record")
    for _ in range(30):
        if page.evaluate("document.activeElement.textContent") == "Back to the match record":
            break
        page.keyboard.press("Tab")
    expect(back).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server_url}/m/{match.pk}/")
    # The review and the pages around it pass axe-core at phone and desktop size.
    check(page, f"{live_server_url}{review_url}", ready=".deal-review")
    check(page, f"{live_server_url}/m/{match.pk}/", ready=".fair-record")
    check(page, f"{live_server_url}/fair-deals/", ready=".fair-page")
