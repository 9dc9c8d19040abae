"""Playing by keyboard alone in Chromium: the skip link leads to the hand, and after every move
the focus comes back to the hand or the calls when it is the player's turn again."""

from __future__ import annotations

from playwright.sync_api import expect

from games.models import Match, Move

from .steps import sign_up, skip_to_hand

ON_A_PLAY = "document.activeElement.matches('#my-area .playable, #my-area .call-button')"


def test_a_belote_player_bids_and_plays_by_keyboard_alone(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "keys")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".your-turn")).to_have_text("Your turn")
    # The start button is gone: the focus went on to the first call.
    page.wait_for_function(ON_A_PLAY)
    skip_to_hand(page)
    page.keyboard.press("Tab")
    assert page.evaluate(ON_A_PLAY)
    for _ in range(8):  # bids and cards, each answered by the computers
        expect(page.locator(".your-turn")).to_have_text("Your turn")
        page.wait_for_function(ON_A_PLAY)  # the focus is back on something to play
        version = Match.objects.get().version
        page.keyboard.press("Enter")
        expect(page.locator("#play-version input")).not_to_have_attribute("value", str(version))
    assert Move.objects.exclude(user=None).count() == 8
