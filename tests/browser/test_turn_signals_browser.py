"""Turn signals in Chromium: the tab's title says "(Your turn)", the countdown goes with the seat
on turn (a bar for its player, a ring beside its name on the felt for the others, nothing
without a turn timer), the turn sound is off by default and remembered, and the live region
stays in the page and says "Your turn."."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Match, MatchPlayer

from .steps import settled, sign_up

TITLE = "Belote · Cardroom"
YOUR_TURN = re.compile(r"^\(Your turn\) Belote · Cardroom$")
#: Counts what the page asks of the Web Audio API (the tone itself cannot be heard here).
AUDIO_SPY = """
window.audioUse = {contexts: 0, tones: 0};
(function () {
  var Real = window.AudioContext;
  window.AudioContext = function (options) {
    window.audioUse.contexts += 1;
    return new Real(options);
  };
  var create = Real.prototype.createOscillator;
  Real.prototype.createOscillator = function () {
    window.audioUse.tones += 1;
    return create.call(this);
  };
})();
"""
MOVE = "#my-area .call-button:not(.call-pass), #my-area .playable"


def open_table(page: Page, base: str, turn_timer: str) -> None:
    page.goto(base + "/")
    page.get_by_label("Turn timer").select_option(turn_timer)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")


def on_turn(pages: list[Page], timeout: float = 30) -> tuple[Page, Page]:
    """The page whose player is on turn, and the other, once a human is on turn."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for page in pages:
            if page.locator("#table-status .your-turn").count():
                return page, next(other for other in pages if other is not page)
        pages[0].wait_for_timeout(100)
    raise AssertionError("no human's turn came")


def move_and_wait_for_my_turn(page: Page) -> None:
    """Make the first bid or card, then wait until another seat's move begins the player's
    turn again (a trick the player wins as its last card continues the turn: move again)."""
    while True:
        version = Match.objects.get(
            status=Match.Status.RUNNING, table__owner__username="solo"
        ).version
        moves = page.locator(MOVE)
        # A pass when the auction leaves nothing else (the computers' calls vary with the deal).
        (moves.first if moves.count() else page.locator("#my-area .call-pass")).click()
        # Usually three computers move before the player's next turn; more when the deal was
        # thrown in, none when the player's card took the trick as its last.
        expect(page.locator("#play-version input")).not_to_have_value(str(version))
        expect(page.locator("#table-status .your-turn")).to_be_visible()
        if page.locator("#play-version[data-turn-began]").count():
            return


@pytest.mark.services
def test_the_countdown_and_the_title_go_with_the_seat_on_turn(live_server_url, new_page):
    host, guest = new_page(), new_page()
    sign_up(host, live_server_url, "hosta")
    sign_up(guest, live_server_url, "guesta")
    open_table(host, live_server_url, "60")
    guest.goto(host.get_by_label("Invite link").input_value())
    expect(guest.locator("#connection")).to_have_text("Connected")
    guest.get_by_role("button", name="Sit in seat 2").click()
    # The host's page has the guest seated (and its controls wired) before the host acts on it.
    expect(host.locator("#seats")).to_contain_text("guesta")
    settled(host.locator("#seats"))
    host.get_by_role("button", name="Fill empty seats with computers").click()
    host.get_by_role("button", name="Start the match").click()
    names = {id(host): "hosta", id(guest): "guesta"}

    for _ in range(2):  # a turn, then the other player's
        mine, theirs = on_turn([host, guest])
        expect(mine).to_have_title(YOUR_TURN)
        expect(theirs).to_have_title(TITLE)
        # The player on turn: a bar beside "Your turn", and no second countdown.
        bar = mine.locator("#table-status .turn-timer.bar")
        expect(bar).to_be_visible()
        expect(bar.locator(".countdown")).to_have_text(re.compile(r"^([1-5]?[0-9]|60) s$"))
        expect(mine.locator(".turn-timer:visible")).to_have_count(1)
        left = float(bar.evaluate("el => el.style.getPropertyValue('--left')"))
        assert 0 < left <= 1
        # The other: a ring beside the name of the player on turn, on the felt.
        expect(theirs.locator("#table-status .turn-timer")).to_have_count(0)
        expect(theirs.locator(".turn-timer:visible")).to_have_count(1)
        active = theirs.locator("#felt .player.active")
        expect(active.locator(".player-name")).to_have_text(names[id(mine)], use_inner_text=True)
        expect(active.locator(".turn-timer.ring")).to_be_visible()
        # A pass when the auction leaves nothing else (the computers' calls vary with the deal).
        expect(mine.locator(f"{MOVE}, #my-area .call-pass").first).to_be_visible()
        moves = mine.locator(MOVE)
        (moves.first if moves.count() else mine.locator("#my-area .call-pass")).click()
        expect(mine).to_have_title(TITLE)  # the turn moved on: the title is back


def test_no_countdown_without_a_turn_timer_and_the_sound_is_remembered(live_server_url, new_page):
    page = new_page()
    page.context.add_init_script(AUDIO_SPY)
    sign_up(page, live_server_url, "solo")
    open_table(page, live_server_url, "0")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#table-status .your-turn")).to_be_visible()
    expect(page).to_have_title(YOUR_TURN)
    expect(page.locator(".turn-timer")).to_have_count(0)  # a table without a turn timer

    # The live region stays in the page (swapped inside) and tells the player on turn.
    page.evaluate("window.liveRegion = document.getElementById('announcer')")
    sound = page.get_by_label("Sound when my turn starts")
    expect(sound).not_to_be_checked()  # off by default
    assert page.evaluate("localStorage.getItem('cardroom.turnSound')") is None
    move_and_wait_for_my_turn(page)
    assert page.evaluate("document.getElementById('announcer') === window.liveRegion")
    expect(page.locator("#announcer")).to_contain_text("Your turn.")
    assert page.evaluate("window.audioUse") == {"contexts": 0, "tones": 0}  # off: no audio

    page.get_by_text("Invite link and sound").click()  # folded when the match started
    sound.check()  # a sample tone, and the gesture that lets the later ones play
    assert page.evaluate("localStorage.getItem('cardroom.turnSound')") == "on"
    assert page.evaluate("window.audioUse.tones") == 1
    page.reload()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(sound).to_be_checked()  # remembered
    move_and_wait_for_my_turn(page)
    # One tone, for the turn that began; none for opening the page on one's turn.
    assert page.evaluate("window.audioUse.tones") == 1

    expect(sound).to_be_hidden()  # folded into the table's menu while the match runs
    page.get_by_text("Invite link and sound").click()
    sound.uncheck()
    assert page.evaluate("localStorage.getItem('cardroom.turnSound')") == "off"
    page.reload()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(sound).not_to_be_checked()
    move_and_wait_for_my_turn(page)
    assert page.evaluate("window.audioUse") == {"contexts": 0, "tones": 0}


@pytest.mark.services
def test_a_run_out_timer_makes_one_move_and_the_page_says_so(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "late")
    open_table(page, live_server_url, "15")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#table-status .your-turn")).to_be_visible()
    match = Match.objects.get()
    # The player sat idle past the timer; a second tab opening makes the driver look again.
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=20))
    second = new_page()
    second.context.add_cookies(page.context.cookies())
    second.goto(page.url)
    note = page.locator("#table-status .timeout-note")
    expect(note).to_contain_text("a computer made that move for you (1 of 3)")
    expect(note).to_contain_text("After 3 in a row, it plays on for you")
    expect(page.locator(".covered-banner")).to_have_count(0)  # the seat is still the player's
    expect(page.locator("#table-status .your-turn")).to_be_visible()  # and so is the next turn
    assert MatchPlayer.objects.get(match=match, user__username="late").timeouts == 1
    page.locator(MOVE).first.click()
    expect(note).to_have_count(0)  # the player's own move starts the count again
    assert MatchPlayer.objects.get(match=match, user__username="late").timeouts == 0
