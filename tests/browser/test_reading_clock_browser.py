"""The turn clock waits while its player reads the rules: the rules link of a table with a clock
opens the rules in a new tab, the table then says the clock waits and shows no countdown, and
closing the rules runs the clock again."""

from __future__ import annotations

from playwright.sync_api import expect

from games.models import Table

from .steps import sign_up
from .test_accessibility import SIZES, serious_violations


def test_reading_the_rules_holds_the_turn_clock(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "reader")
    page.get_by_label("Turn timer").select_option("60")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#table-status .your-turn")).to_be_visible()
    assert Table.objects.get().turn_seconds == 60
    clock = page.locator("#table-status .turn-timer")
    expect(clock).to_be_visible()
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Rules of Belote").click()
    rules = opened.value
    expect(rules.locator(".reading-note")).to_be_visible()
    expect(page.locator("#table-status")).to_contain_text(
        "Your clock waits while you read the rules."
    )
    expect(clock).to_have_count(0)
    for width, height in SIZES.values():
        for shown in (page, rules):
            shown.set_viewport_size({"width": width, "height": height})
            found = serious_violations(shown)
            assert not found, f"{shown.url} at {width}x{height}: {found}"
    rules.close()
    expect(page.locator("#table-status .reading-note")).to_have_count(0)
    expect(page.locator("#table-status .turn-timer")).to_be_visible()
