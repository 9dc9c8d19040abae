"""The table in one screen. On a phone (390 by 844), at every turn start and trick end, the
player's hand and actions, the whole felt with its trick and taker (Belote), the stocks and the
centre (Grabush) are in the viewport together and the hand covers none of them, in English,
Bulgarian and Russian; the header is one row, its links behind a menu that works by keyboard.
On a desktop (1280 by 800), bringing the player's turn into view keeps what they must read in
view: the others' latest turns (Grabush) and a deal's result while its countdown runs (Belote).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .steps import (
    SIMPLE_MOVE,
    next_deal_or_move,
    sign_up,
    start_grabush_with_computers,
    switch_language,
    words,
)
from .test_accessibility import serious_violations

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LANGUAGES = ["en", "bg", "ru"]

#: One atomic look at the page once it has come to rest at a turn start: the boxes of every
#: element each selector matches, or null while it is not the player's turn or a card moves.
LOOK = """(selectors) => {
  if (!document.querySelector('#table-status .your-turn, #my-area .next-deal')) return null;
  if (document.getAnimations().length) return null;
  const boxes = {};
  for (const [name, selector] of Object.entries(selectors)) {
    boxes[name] = [...document.querySelectorAll(selector)].map((element) => {
      const box = element.getBoundingClientRect();
      return {top: box.top, left: box.left, bottom: box.bottom, right: box.right};
    });
  }
  return {boxes, width: innerWidth, height: innerHeight,
          trickEnd: !!document.querySelector('#felt .trick-note'),
          auction: !!document.querySelector('#my-area .call-button')};
}"""


def look(page: Page, selectors: dict[str, str]) -> dict:
    """The boxes of ``selectors`` at the player's turn, all read at one moment."""
    return page.wait_for_function(LOOK, arg=selectors).json_value()


def assert_in_view(seen: dict, *names: str) -> None:
    for name in names:
        boxes = seen["boxes"][name]
        assert boxes, f"no {name} on the page"
        for box in boxes:
            inside = (
                box["top"] >= 0
                and box["left"] >= 0
                and box["bottom"] <= seen["height"]
                and box["right"] <= seen["width"]
            )
            assert inside, f"{name} is not all in view: {box}"


def assert_apart(seen: dict, name: str, others: tuple[str, ...]) -> None:
    """No box of ``name`` overlaps a box of any of ``others``."""
    for mine in seen["boxes"][name]:
        for other in others:
            for box in seen["boxes"][other]:
                overlap = (
                    mine["left"] < box["right"]
                    and box["left"] < mine["right"]
                    and mine["top"] < box["bottom"]
                    and box["top"] < mine["bottom"]
                )
                assert not overlap, f"{name} {mine} overlaps {other} {box}"


def phone_player(new_page, base: str, name: str, language: str) -> Page:
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size(PHONE)
    sign_up(page, base, name)
    if language != "en":
        switch_language(page, language)
    return page


def play_now(page: Page, game: str, language: str = "en") -> None:
    """Press "Play now" for ``game``: a quick table with computers, the match running."""
    page.locator(f"form[data-contribute]:has(input[value='{game}']) button").click()
    expect(page.locator("#connection")).to_have_text(words(language)("Connected"))
    expect(page.locator("#board")).to_be_visible()


BELOTE = {
    "hand": "#my-area .hand .playing-card",
    "actions": "#my-area .call-button, #my-area .announce-choice",
    "my_area": "#my-area",
    "felt": "#felt",
    "trick": "#felt .trick-card, #felt .trick-note",
    "places": "#felt .player",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_belote_turn_and_trick_end_fit_a_phone(live_server_url, new_page, language):
    page = phone_player(new_page, live_server_url, f"phone-belote-{language}", language)
    play_now(page, "belote", language)
    seen_kinds: set[str] = set()
    for _ in range(150):
        seen = look(page, BELOTE)
        if seen["boxes"]["hand"]:  # a turn (not a deal's end)
            assert_in_view(seen, "hand", "my_area", "felt", "places")
            if seen["auction"]:
                assert_in_view(seen, "actions")
            if seen["boxes"]["trick"]:
                assert_in_view(seen, "trick")
            assert_apart(seen, "my_area", ("felt",))
            seen_kinds.add("auction" if seen["auction"] else "play")
            if seen["trickEnd"]:
                seen_kinds.add("trick end")
        if seen_kinds == {"auction", "play", "trick end"}:
            break
        next_deal_or_move(page)
    assert seen_kinds == {"auction", "play", "trick end"}, seen_kinds


GRABUSH = {
    "hand": "#my-area .hand .playing-card",
    "my_area": "#my-area",
    "piles": ".gplayers.mine .slot > :first-child",
    "stocks": "#stocks .stock",
    "centre": "#centre",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_grabush_turn_fits_a_phone(live_server_url, new_page, language):
    page = phone_player(new_page, live_server_url, f"phone-grabush-{language}", language)
    play_now(page, "grabush", language)
    for _ in range(3):  # three turns: the centre and the table piles fill
        expect(page.locator("#my-area .hand .source").first).to_be_visible()
        seen = look(page, GRABUSH)
        assert page.evaluate("scrollY") == 0, "the page was scrolled"
        assert len(seen["boxes"]["stocks"]) == 2
        assert_in_view(seen, "hand", "my_area", "piles", "stocks", "centre")
        assert_apart(seen, "my_area", ("stocks", "centre", "piles"))
        end_grabush_turn(page)


def end_grabush_turn(page: Page) -> None:
    """Put the last card of the hand but an Ace (it starts a centre pile) on the player's
    first table pile, by clicking."""
    version = page.locator("#play-version input").get_attribute("value")
    page.locator("#my-area .hand .source:not([data-pick^='hand:A'])").last.click()
    page.locator(".gplayers.mine .slot-target").first.click()
    expect(page.locator("#play-version input")).not_to_have_attribute("value", version or "")
    expect(page.locator("#table-status .your-turn")).to_be_visible()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_is_one_row_on_a_phone_with_its_menu_by_keyboard(
    live_server_url, new_page, language
):
    page = phone_player(new_page, live_server_url, f"phone-menu-{language}", language)
    play_now(page, "belote", language)
    header = page.locator(".site-header")
    toggle = page.locator(".menu-toggle")
    assert header.bounding_box()["height"] < 64  # one row: the brand and the menu button
    expect(page.locator(".nav-links")).to_be_hidden()
    # By keyboard: the skip links, the brand, then the menu button.
    for _ in range(4):
        page.keyboard.press("Tab")
    expect(toggle).to_be_focused()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.locator(".nav-links")).to_be_visible()
    expect(page.locator(".language-switch")).to_be_visible()
    assert not serious_violations(page)
    page.keyboard.press("Tab")
    expect(page.locator(".nav-links a").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    expect(page.locator(".nav-links")).to_be_hidden()
    assert not serious_violations(page)
    # On a desktop the same links are in the one row, with no menu button.
    page.set_viewport_size(DESKTOP)
    expect(toggle).to_be_hidden()
    expect(page.locator(".nav-links")).to_be_visible()
    assert header.bounding_box()["height"] < 64


def test_the_invite_link_and_sound_fold_when_the_match_starts(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    sign_up(page, live_server_url, "phone-fold")
    page.goto(live_server_url + "/")
    page.get_by_label("Game").select_option("grabush")
    expect(page.get_by_label("Players")).to_be_visible()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator(".table-menu[open]")).to_have_count(1)  # the invite link, to share
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator(".table-menu[open]")).to_have_count(0)
    page.get_by_text("Invite link and sound").click()  # and it opens again when asked
    expect(page.get_by_label("Invite link")).to_be_visible()


def in_view(page: Page, selector: str) -> bool:
    """Whether every element matching ``selector`` lies wholly in the viewport."""
    return page.evaluate(
        """(selector) => {
          const found = [...document.querySelectorAll(selector)];
          return found.length > 0 && found.every((element) => {
            const box = element.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= innerHeight;
          });
        }""",
        selector,
    )


def test_a_grabush_turn_keeps_the_others_last_turns_in_view_on_a_desktop(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(DESKTOP)
    sign_up(page, live_server_url, "desk-grabush")
    start_grabush_with_computers(page, live_server_url)  # three others
    for _ in range(3):
        expect(page.locator("#my-area .hand .source").first).to_be_visible()
        end_grabush_turn(page)
        # The computers played: the player's turn again, the focus on what to play.
        expect(page.locator(".gplayers.others .last-turn")).to_have_count(3)
        page.wait_for_function("() => document.activeElement.closest('#board')")
        assert in_view(page, ".gplayers.others .last-turn"), "a last turn is out of view"
        assert in_view(page, "#my-area .hand"), "the hand is out of view"
        assert page.evaluate(
            "(() => { const box = document.activeElement.getBoundingClientRect();"
            " return box.top >= 0 && box.bottom <= innerHeight; })()"
        ), "the focus is out of view"


def test_a_belote_deal_result_stays_in_view_on_a_desktop(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(DESKTOP)
    sign_up(page, live_server_url, "desk-belote")
    play_now(page, "belote")
    deal_end = page.locator("#my-area .deal-end")
    for _ in range(60):
        if deal_end.count():
            break
        if not next_deal_or_move(page):
            page.wait_for_function(
                "(move) => document.querySelector(move + ', #my-area .next-deal')", arg=SIMPLE_MOVE
            )
    expect(page.locator("#my-area .next-deal")).to_be_focused()
    for part in ("h2", ".deal-end-figures", ".deal-summary", ".countdown", ".next-deal"):
        assert in_view(page, f"#my-area .deal-end {part}"), f"{part} is out of view"
