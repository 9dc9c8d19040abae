"""What players do in the browser, step by step, shared by the browser tests."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils import translation
from playwright.sync_api import Locator, Page, expect

PASSWORD = "a-Long-secret-42"


def sign_up(page: Page, base: str, username: str) -> None:
    """Create an account through the sign-up form; the player lands in the lobby."""
    page.goto(base + "/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{base}/")


def join_and_sit(pages: list[Page], invite: str, names: list[str]) -> None:
    """Everyone opens the invite link and sits in turn (the host, who created the table, sits
    in the first seat already)."""
    for index, page in enumerate(pages):
        if index:
            page.goto(invite)
        expect(page.locator("#connection")).to_have_text("Connected")
        if index:
            page.get_by_role("button", name=f"Sit in seat {index + 1}").click()
        expect(page.locator("#seats")).to_contain_text(f"{names[index]} (you)")


def settled(region: Locator) -> None:
    """Wait until htmx has wired up a region it swapped in: until then its controls are inert."""
    expect(region).not_to_have_class(re.compile(r"\bhtmx-added\b"))


def words(language: str) -> Callable[[str], str]:
    """What the site says for an English source text in ``language`` (its catalogue's entry)."""

    def say(text: str) -> str:
        with translation.override(language):
            return translation.gettext(text)

    return say


def switch_language(page: Page, language: str) -> None:
    """Pick ``language`` with the switcher in the page's header (on a phone, in its menu)."""
    toggle = page.locator(".menu-toggle")
    page.wait_for_load_state()  # the menu's script is wired
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
    page.locator(f".language-switch button[value='{language}']").click()
    expect(page.locator("html")).to_have_attribute("lang", language)


def skip_to_hand(page: Page, say: Callable[[str], str] = str) -> None:
    """Reload (the focus starts at the top) and follow the table's skip link to the hand by
    keyboard: the site's skip link first, then the table's."""
    page.reload()
    expect(page.locator("#connection")).to_have_text(say("Connected"))
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text(say("Skip to your hand"))
    page.keyboard.press("Enter")


def open_grabush_table(pages: list[Page], base: str, names: list[str], players: int) -> None:
    """Sign everyone up; the first opens a Grabush table for ``players``; all sit; start."""
    for page, name in zip(pages, names, strict=True):
        sign_up(page, base, name)
    host = pages[0]
    host.goto(base + "/")
    host.get_by_label("Game").select_option("grabush")
    expect(host.get_by_label("Players")).to_be_visible()
    host.get_by_label("Players").select_option(str(players))
    host.get_by_role("button", name="Open the table").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Grabush")
    join_and_sit(pages, host.get_by_label("Invite link").input_value(), names)
    host.get_by_role("button", name="Start the match").click()
    for page in pages:
        expect(page.locator("#board")).to_be_visible()


def start_grabush_with_computers(page: Page, base: str) -> None:
    """From the lobby, open a Grabush table for four, fill it with computers and start."""
    page.goto(base + "/")  # loaded: htmx swaps in the options of the game chosen
    page.get_by_label("Game").select_option("grabush")
    expect(page.get_by_label("Players")).to_be_visible()
    page.get_by_label("Players").select_option("4")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()


#: A Belote player's simplest move: the first card they may play, or pass in the auction.
SIMPLE_MOVE = "#my-area .playable, #my-area .call-pass"


def next_deal_or_move(page: Page) -> bool:
    """Press "Next deal" after a deal, or on the player's turn make :data:`SIMPLE_MOVE` and
    wait until the page has the move; whether anything was done."""
    next_deal = page.locator("#my-area .next-deal")
    if next_deal.count() and next_deal.is_visible():
        next_deal.click()
        expect(next_deal).to_have_count(0)
        return True
    if not page.locator("#table-status .your-turn").count():
        return False
    version = page.locator("#play-version input").get_attribute("value")
    move = page.locator(SIMPLE_MOVE).first
    if not move.count():
        return False
    move.click()
    expect(page.locator("#play-version input")).not_to_have_attribute("value", version or "")
    return True
