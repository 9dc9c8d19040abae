"""A whole Belote deal by keyboard alone in Chromium, with the page in Bulgarian and three
computer players: bids, eight cards, who took each trick, the computers' short names on the
felt, the deal's result on the table, and "Next deal" starting the next auction."""

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


#: Whether the taker's note on the felt overlaps no card of the trick and shows all its text.
NOTE_CLEAR = """() => {
  const note = document.querySelector('#felt .trick-note');
  const box = note.getBoundingClientRect();
  const apart = r => r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left
    || r.left >= box.right;
  const cards = [...document.querySelectorAll('#felt .trick-card .playing-card')];
  return cards.every(c => apart(c.getBoundingClientRect())) && note.scrollWidth <= note.clientWidth;
}"""


def seat_name(page: Page, seat: int, whole: bool = False) -> str:
    """The name shown at ``seat``'s place on the felt (without its "(you)"); ``whole``: a
    computer's whole name, with its level, from the place's tooltip."""
    name = page.locator(f"#felt .player.at-{seat} .player-name")
    shown = name.evaluate("element => element.firstChild.textContent")
    return (name.get_attribute("title") or shown) if whole else shown


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
        view = belote.view(state, 0)
        auction = view["phase"] == "auction"
        if view["last_trick"] and page.locator("#my-area .playable").count():
            # Named short, as on the felt; a computer with words for screen readers, not its level.
            winner = view["last_trick"]["winner"]
            taker = seat_name(page, winner)
            if seat_name(page, winner, whole=True) != taker:
                taker += f" ({say('computer player')})"
            summary = page.locator("#board-history summary").last
            expect(summary).to_have_text(say("Last trick, taken by %(name)s") % {"name": taker})
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
    because = end.locator(".deal-because")  # why the written points are what they are
    expect(because).to_be_visible()
    expect(because.get_by_role("link", name=say("How a deal is scored"))).to_be_visible()
    expect(page.locator("#felt .trick-card.resting")).to_have_count(4)  # the last trick stays
    for seat in (1, 2, 3):  # a computer's first name on the felt, its level in a tooltip
        shown, whole = seat_name(page, seat), seat_name(page, seat, whole=True)
        assert whole.startswith(shown) and len(whole) > len(shown), (shown, whole)
    won = page.locator("#felt .trick-card.won")
    expect(won).to_have_count(1)
    taker = seat_name(page, int(won.get_attribute("class").split("at-")[1].split()[0]))
    note = page.locator("#felt .trick-note")
    expect(note).to_have_text(say("%(name)s took the trick") % {"name": taker})
    expect(page.locator(".score-sheet .new-row")).to_have_count(1)
    expect(page.locator("#my-area .hand")).to_have_count(0)  # the next deal waits
    page.wait_for_function("() => document.activeElement.matches('.next-deal')")

    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        note.scroll_into_view_if_needed()  # the focus on "Next deal" may have scrolled it away
        expect(note).to_be_in_viewport()
        assert page.evaluate(NOTE_CLEAR), f"a card covers the taker's name at {width}x{height}"
        found = serious_violations(page)
        assert not found, f"the deal's end at {width}x{height}: {found}"

    page.keyboard.press("Enter")  # "Next deal"
    expect(page.locator(".deal-end")).to_have_count(0)
    expect(page.locator("#my-area .playing-card")).to_have_count(5)
    expect(page.locator(".score-sheet .new-row")).to_have_count(0)
    assert Match.objects.get().paused_until is None
