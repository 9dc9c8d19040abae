"""A whole Grabush game by keyboard alone in Chromium, with the page in Russian (the language the
game comes to us in): a player against a computer picks each
card and its target with Tab, Shift+Tab, Enter and Space until the game ends (a picked card
named in the case the sentence needs), and after every
swap of the board the focus is on a control that makes sense (the picked card, or something to
play when it is the player's turn again), never lost to the page's body."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games.bots import grabush as bots
from games.engines import grabush
from games.live import consumers
from games.models import Match, Move
from games.presenters.grabush import split_action
from games.presenters.words import card_name, card_object
from tests.engines.grabush_helpers import craft

from .steps import open_grabush_table, sign_up, skip_to_hand, switch_language, words

#: Focusable controls in the order Tab visits them (the page sets no positive tabindex).
NEXT_TAB = """(wanted) => {
  const all = [...document.querySelectorAll(
    "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, "
    + "textarea, summary, [tabindex]:not([tabindex='-1'])")].filter((e) => e.checkVisibility());
  const at = all.indexOf(document.activeElement);
  const to = all.findIndex((e) => e.matches(wanted));
  if (to < 0) return "missing";
  if (at === to) return "here";
  return at >= 0 && at > to ? "Shift+Tab" : "Tab";
}"""
SENSIBLE = "#board .source, #board .target, #my-area button"
#: A bound on the player's moves: a game of two takes about 230 moves, some 130 of them his
#: (about 700 key presses, half a minute here).
MOST_MOVES = 600


def focused(page: Page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement.matches(s)", selector)


def tab_to(page: Page, selector: str) -> None:
    """Move the focus to the first control matching ``selector`` with Tab or Shift+Tab, as a
    player who sees where it is would (no control of the board is 40 presses away)."""
    for _ in range(40):
        step = page.evaluate(NEXT_TAB, selector)
        assert step != "missing", selector
        if step == "here":
            return
        page.keyboard.press(step)
    raise AssertionError(f"Tab never reached {selector}")


def settle(page: Page, seat: int) -> grabush.State:
    """Wait until the page shows the match as the database holds it, with this player to act or
    the game over; return that state."""
    version_input = page.locator("#play-version input")
    while True:
        page.wait_for_selector(".your-turn, .result-banner", state="attached")
        match = Match.objects.get()
        state = grabush.loads(match.state)
        shown = version_input.get_attribute("value")
        if shown == str(match.version) and (state.over or state.to_act == seat):
            if state.over:
                expect(page.locator(".result-banner .result")).to_be_visible()
            else:
                expect(page.locator(".your-turn")).to_be_visible()
            return state
        page.wait_for_function(
            "(v) => document.querySelector('#play-version input').value !== v", arg=shown
        )


@pytest.fixture
def quick_hands(monkeypatch):
    """Let the server take frames faster than a person sends them: the test's player presses
    keys without pause, and the flood limit (5 frames a second) would close its socket.
    Requested before ``live_server_url``, so that the forked server inherits it."""
    monkeypatch.setattr(consumers, "FRAME_RATE", 100.0)


@pytest.mark.timeout(300)  # a whole game, some 700 key presses: a busy machine takes a while
def test_a_whole_grabush_game_in_russian_against_a_computer_by_keyboard_alone(
    quick_hands, live_server_url, new_page
):
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_up(page, live_server_url, "keys")
    switch_language(page, "ru")  # the game in Russian, the language it comes to us in
    say = words("ru")
    page.goto(live_server_url + "/")  # loaded: htmx swaps in the options of the game chosen
    page.get_by_label(say("Game"), exact=True).select_option("grabush")
    expect(page.get_by_label(say("Players"), exact=True)).to_have_value(
        "2"
    )  # the shortest game: 2 players,
    expect(page.get_by_label(say("Stock size"), exact=True)).to_have_value(
        "20"
    )  # the smallest stocks
    page.get_by_role("button", name=say("Open the table")).click()
    expect(page.locator("#connection")).to_have_text(say("Connected"))
    page.get_by_label(say("Computer level"), exact=True).select_option("easy")
    page.get_by_role("button", name=say("Fill empty seats with computers")).click()
    page.get_by_role("button", name=say("Start the match")).click()
    expect(page.locator(".grabush-board")).to_be_visible()
    seat = Match.objects.get().players.get(user__username="keys").seat
    skip_to_hand(page, say)
    expect(page.locator("#my-area")).to_be_focused()

    rng = random.Random(7)
    moves = 0
    for _ in range(MOST_MOVES):
        state = settle(page, seat)
        if state.over:
            break
        # The focus is on something to play: it came back after the swaps of the last move
        # and of the computer's turn (at first, the hand the skip link led to).
        expected = SENSIBLE if moves else "#my-area"
        assert focused(page, expected), page.evaluate("document.activeElement.outerHTML")
        action = bots.choose_normal(grabush.view(state, seat), rng, 0.05)
        version = page.locator("#play-version input").get_attribute("value")
        pair = split_action(action)
        if pair is None:  # "end": an empty hand and an empty supply
            tab_to(page, "#my-area button[value='end']")
            page.keyboard.press("Enter")
        else:
            source = pair[0]
            tab_to(page, f"#board .source[value='{source}']")
            page.keyboard.press("Enter")
            # The swap lit the targets; the focus stayed on the card just picked, now pressed.
            expect(page.locator(f"#board .target[value='{action}']")).to_be_visible()
            assert focused(page, f"#board .source[data-pick='{source}'][aria-pressed='true']")
            if source.startswith("hand:"):  # "Вы выбрали даму пик": the card as an object
                with translation.override("ru"):
                    code = source.removeprefix("hand:")
                    picked, nominative = card_object(code), card_name(code)
                told = say("You picked %(c)s: now choose where it goes.") % {"c": picked}
                expect(page.locator("#my-area .picked")).to_contain_text(told)
                assert picked != nominative and picked[0].islower()
            tab_to(page, f"#board .target[value='{action}']")
            page.keyboard.press("Space")
        page.wait_for_function(
            "(v) => document.querySelector('#play-version input').value !== v", arg=version
        )
        moves += 1
    else:
        raise AssertionError("the game did not end")
    result = page.locator(".result-banner .result")
    outcomes = "|".join(
        re.escape(say(text)) for text in ("You won!", "You lost.", "The game is drawn.")
    )
    expect(result).to_have_text(re.compile(outcomes))
    assert Move.objects.filter(user__username="keys").count() == moves


@pytest.mark.services
def test_the_focus_goes_to_end_the_turn_when_nothing_else_is_left(live_server_url, new_page):
    """A player who plays his last card with an empty supply can only end the turn: the focus
    lands on that button, not on the page's body."""
    pages = [new_page(), new_page()]
    open_grabush_table(pages, live_server_url, ["vera", "yana"], players=2)
    Match.objects.update(
        state=grabush.dumps(
            craft(
                2,
                0,
                stocks=[["KC"], ["KD"]],
                hands=[["2S"], ["5C", "6C"]],
                centre=[["AS"]],
            )
        )
    )
    vera = pages[0]
    vera.reload()
    expect(vera.locator(".your-turn")).to_be_visible()
    skip_to_hand(vera)
    tab_to(vera, "#board .source[value='hand:2S']")
    vera.keyboard.press("Enter")
    expect(vera.locator("#centre .target")).to_be_visible()
    tab_to(vera, "#centre .target")
    vera.keyboard.press("Space")
    expect(vera.locator(".centre")).to_contain_text("A→2")
    end = vera.get_by_role("button", name="End the turn", exact=True)
    expect(end).to_be_focused()
    expect(vera.locator("#my-area")).to_contain_text("Nothing more to play: end your turn.")
    vera.keyboard.press("Enter")
    expect(vera.locator(".your-turn")).to_have_count(0)  # the turn was ended
