"""Dates in Chromium as Bulgarian and Russian players write them, on a match's record and a
player's profile (not the American pattern Django falls back to for Bulgarian)."""

from __future__ import annotations

import datetime

from playwright.sync_api import expect

from games.models import Match
from tests.browser.steps import switch_language
from tests.factories import make_players
from tests.test_history import start_and_finish

WHEN = datetime.datetime(2026, 12, 3, 19, 38, tzinfo=datetime.UTC)


def test_bulgarian_and_russian_dates_on_the_record_and_the_profile(live_server_url, new_page):
    users = make_players(4)
    match = start_and_finish(users, seed=3)
    Match.objects.filter(pk=match.pk).update(started_at=WHEN, finished_at=WHEN)
    users[0].date_joined = WHEN
    users[0].save(update_fields=["date_joined"])
    page = new_page()
    page.goto(f"{live_server_url}/m/{match.pk}/")
    switch_language(page, "bg")
    record = page.locator("main")
    expect(record).to_contain_text("3 декември 2026 г., 19:38")
    expect(record).not_to_contain_text("след обяд")
    page.goto(f"{live_server_url}/u/{users[0].username}/")
    profile = page.locator("main")
    expect(profile).to_contain_text("Играе от 3 декември 2026 г.")
    expect(profile).to_contain_text("03.12.2026 19:38")  # the match list: day first
    expect(profile).not_to_contain_text("12/03/2026")
    expect(profile).not_to_contain_text("г..")

    switch_language(page, "ru")
    expect(profile).to_contain_text("Играет с 3 декабря 2026 г.")
    expect(profile).not_to_contain_text("г..")
    page.goto(f"{live_server_url}/m/{match.pk}/")
    expect(page.locator("main")).to_contain_text("3 декабря 2026 г. 19:38")
