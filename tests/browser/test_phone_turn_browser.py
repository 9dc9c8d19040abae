"""On a phone (390 by 844), a turn that starts is on the screen: the player's cards and what they
may play are in the viewport without scrolling, in Belote's auction and in a Grabush game of
four."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .steps import sign_up, start_grabush_with_computers

PHONE = {"width": 390, "height": 844}
#: Whether every element matching the selector lies wholly inside the viewport.
IN_VIEW = """(selector) => {
  const found = [...document.querySelectorAll(selector)];
  return found.length > 0 && found.every((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
  });
}"""


def assert_on_screen(page: Page, selector: str) -> None:
    # Where the cards come to rest: a dealt hand slides in (static/js/motion.js).
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.evaluate("scrollY") == 0, "the page was scrolled"
    assert page.evaluate(IN_VIEW, selector), f"{selector} is not all on the screen"


def test_the_belote_auction_turn_is_on_a_phone_screen(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    sign_up(page, live_server_url, "phone")
    page.get_by_role("button", name="Play Belote now").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator("#my-area .call-button").first).to_be_visible()  # my first call
    assert_on_screen(page, "#my-area .playing-card")
    assert_on_screen(page, "#my-area .call-button")


def test_a_grabush_turn_of_four_players_is_on_a_phone_screen(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    sign_up(page, live_server_url, "phone4")
    start_grabush_with_computers(page, live_server_url)
    expect(page.locator("#my-area .hand .source").first).to_be_visible()  # my turn's cards
    page.evaluate("scrollTo(0, 0)")  # as the page opens
    assert_on_screen(page, "#my-area .hand .playing-card")
