"""A whole Belote deal by keyboard alone in Chromium, with the page in Bulgarian and three
computer players: bids, eight cards, the deal's result on the table, and "Next deal" starting
the next auction."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.engines import belote
from games.models import Match, Move

from .steps import sign_up, switch_language, words
from .test_accessibility import SIZES, serious_violations

PLAYABLE = "#my-area .playable, #my-area .call-button"
FOCUSED_PLAY = f"document.activeElement.matches('{PLAYABLE}')"
#: The deal has ended, or the focus is on something to play.
PLAY_OR_END = f"() => document.querySelector('.deal-end') || {FOCUSED_PLAY}"


def tab_to(page: Page, selector: str, most: int = 60) -> None:
    """Press Tab until the focus is on an element matching ``selector``."""
    for _ in range(most):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_belote_deal_in_bulgarian_by_keyboard_alone(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "keys")
    switch_language(page, "bg")
    say = words("bg")
    page.get_by_label(say("After each deal")).select_option("20")
    page.get_by_role("button", name=say("Open the table")).click()
    expect(page.locator("#connection")).to_have_text(say("Connected"))
    page.get_by_role("button", name=say("Fill empty seats with computers")).focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name=say("Start the match")).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_be_visible()
    bid = False
    while not page.locator(".deal-end").is_visible():
        page.wait_for_function(PLAY_OR_END)
        if page.locator(".deal-end").is_visible():
            break
        match = Match.objects.get()
        state = belote.loads(match.state)
        auction = belote.view(state, 0)["phase"] == "auction"
        # Bid once, then pass (a pass too when the computers' calls left nothing else).
        if auction and not bid and page.locator("#my-area .call-button:not(.call-pass)").count():
            tab_to(page, "#my-area .call-button:not(.call-pass)")
            bid = True
        elif page.locator("#my-area .call-button").count():
            tab_to(page, "#my-area .call-pass")
        page.keyboard.press("Enter")
        expect(page.locator("#play-version input")).not_to_have_attribute(
            "value", str(match.version)
        )
    humans = Move.objects.exclude(user=None)
    assert humans.filter(action__regex=r"^[789TJQKA][CDHS]$").count() == 8  # all eight cards
    end = page.locator(".deal-end")
    expect(end).to_contain_text(say("Deal %(n)s is over") % {"n": 1})
    expect(end.locator(".deal-summary")).to_be_visible()
    expect(page.locator("#felt .trick-card.resting")).to_have_count(4)  # the last trick stays
    expect(page.locator(".score-sheet .new-row")).to_have_count(1)
    expect(page.locator("#my-area .hand")).to_have_count(0)  # the next deal waits
    page.wait_for_function("() => document.activeElement.matches('.next-deal')")

    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        found = serious_violations(page)
        assert not found, f"the deal's end at {width}x{height}: {found}"

    page.keyboard.press("Enter")  # "Next deal"
    expect(page.locator(".deal-end")).to_have_count(0)
    expect(page.locator("#my-area .playing-card")).to_have_count(5)
    expect(page.locator(".score-sheet .new-row")).to_have_count(0)
    assert Match.objects.get().paused_until is None
