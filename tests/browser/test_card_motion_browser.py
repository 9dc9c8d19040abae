"""Cards move in Chromium: a card played travels to the trick, a finished trick goes to its
taker, a dealt hand arrives, a Grabush card travels to its pile (``static/js/motion.js``), and
nothing moves for a player who asks for reduced motion."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .steps import sign_up

MOVED = "Number(document.body.dataset.cardsMoved || 0)"
#: Something to do on my turn: a card to play, else a pass.
MINE = "#my-area .playable, #my-area .call-pass"


def play_until(page: Page, done: str, most: int = 40) -> None:
    """Make my moves (pass in the auction, the first playable card in play) until ``done``."""
    for _ in range(most):
        if page.evaluate(done):
            return
        page.wait_for_function(f"() => ({done}) || document.querySelector('{MINE}')")
        if page.evaluate(done):
            return
        version = page.locator("#play-version input").get_attribute("value")
        page.locator(MINE).first.click()
        page.wait_for_function(
            "(v) => document.querySelector('#play-version input').value !== v", arg=version
        )
    raise AssertionError(f"never: {done}")


def open_quick_belote(page: Page, base: str, name: str) -> None:
    sign_up(page, base, name)
    page.goto(base + "/")
    page.get_by_role("button", name="Play Belote now").click()
    expect(page.locator("#connection")).to_have_text("Connected")


def test_played_cards_travel_to_the_trick(live_server_url, new_page):
    page = new_page()
    open_quick_belote(page, live_server_url, "mover")
    play_until(page, f"{MOVED} >= 2 && document.querySelector('#felt .trick-card')")
    assert page.locator(".card-in-flight").count() <= 4  # copies of a collected trick only


def test_nothing_moves_for_a_player_who_asks_for_reduced_motion(live_server_url, new_page):
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    open_quick_belote(page, live_server_url, "still")
    # Cards were played and a trick was taken, and nothing moved.
    play_until(
        page,
        "document.querySelectorAll('#felt .trick-card.resting, #felt .trick-card').length >= 4",
    )
    assert page.evaluate(MOVED) == 0
    assert page.evaluate("document.getAnimations().length") == 0


def test_a_grabush_card_travels_to_its_pile_which_is_lit_for_a_moment(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "lit")
    page.goto(live_server_url + "/")
    page.get_by_role("button", name="Play Grabush now").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    lit = "Number(document.body.dataset.cardsLit || 0)"
    done = f"{lit} > 0 && {MOVED} > 0"
    for _ in range(30):  # pick a card and play it, until a card travelled to a centre pile
        if page.evaluate(done):
            break
        page.wait_for_function("() => document.querySelector('#board .source')")
        page.locator("#board .source").first.click()
        target = page.locator("#board .target").first
        expect(target).to_be_visible()
        version = page.locator("#play-version input").get_attribute("value")
        target.click()
        page.wait_for_function(
            "(v) => document.querySelector('#play-version input').value !== v", arg=version
        )
    page.wait_for_function(f"() => {done}")
    # For a moment only: the light goes out again.
    expect(page.locator(".just-moved")).to_have_count(0)
