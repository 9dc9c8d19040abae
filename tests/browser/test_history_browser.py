"""A finished match's replay in Chromium: next, the slider and last, swapped in by htmx."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.steps import settled
from tests.factories import make_players
from tests.test_history import start_and_finish


def test_step_through_a_replay(live_server_url, new_page):
    users = make_players(4)
    match = start_and_finish(users, seed=7)
    total = match.version
    page = new_page()
    page.goto(f"{live_server_url}/m/{match.pk}/")
    page.get_by_role("link", name="Replay the match move by move").click()
    position = page.locator("#replay-position")
    expect(position).to_contain_text(f"Move 0 of {total}")
    page.get_by_role("link", name="Next").click()
    expect(position).to_contain_text(f"Move 1 of {total}")
    expect(page).to_have_url(re.compile(r"\?step=1$"))
    settled(page.locator("#replay"))
    page.get_by_label("Move", exact=True).fill("5")
    expect(position).to_contain_text(f"Move 5 of {total}")
    page.get_by_role("link", name="Last").click()
    expect(position).to_contain_text(f"Move {total} of {total}")
    expect(page.locator(".replay-proof")).to_contain_text("leads exactly")
