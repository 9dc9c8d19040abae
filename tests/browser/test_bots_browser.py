"""One player fills a Belote table with computer players and plays with them in Chromium."""

from __future__ import annotations

from playwright.sync_api import expect

from games.engines import belote
from games.models import Match, Move

from .steps import sign_up


def test_play_with_three_computer_players(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "solo")
    page.goto(live_server_url + "/")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator("#seats")).to_contain_text("solo (you)")  # the creator sits already
    # The levels the benchmarks tell apart, weakest first; hard is offered first.
    levels = page.get_by_label("Computer level")
    expect(levels.locator("option")).to_have_text(["easy", "normal", "hard"])
    expect(levels).to_have_value("hard")
    levels.select_option("normal")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    expect(page.locator("#seats .seat-name", has_text="computer, normal")).to_have_count(3)
    for name in ("Ivan", "Elena", "Georgi"):  # partner and opponents told apart
        expect(page.locator("#seats")).to_contain_text(f"{name} · computer, normal")
    page.get_by_role("button", name="Start the match").click()

    for _ in range(6):  # six of my own actions; the computers answer in between
        expect(page.locator(".your-turn")).to_have_text("Your turn")
        version = Match.objects.get().version
        calls = page.locator(".auction-panel button")
        if calls.count():
            calls.first.click()  # "Pass" or the lowest bid, both legal
        else:
            page.locator(".hand button.playable").first.click()
        expect(page.locator("#play-version input")).not_to_have_attribute("value", str(version))
    match = Match.objects.get()
    bot_moves = Move.objects.filter(match=match, user=None)
    assert {move.seat for move in bot_moves} == {1, 2, 3}
    assert Move.objects.filter(match=match).exclude(user=None).count() == 6
    assert belote.loads(match.state).to_act is not None
