"""A server killed under a table in Chromium: the page says so, reconnects on its own, and the
match goes on from where it was (the browser variant of ``tests/test_faults.py``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import expect

from games.models import Match, Move
from games.tables import rows, seating

from ..live import session_cookie
from ..servers import ServerProcess
from ..test_autoplay import start_with_dealer
from ..test_table_live import OPTIONS

#: Long enough for the server to restart and the page to reconnect (htmx backs off).
RECONNECT_TIMEOUT = 30_000


@pytest.mark.services
def test_the_page_reconnects_after_a_sigkill_and_play_goes_on(transactional_db, new_page):
    owner = get_user_model().objects.create_user("owner", password="pw-123456789")
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True)
    seating.take_seat(table.pk, owner, 0)
    for seat in (1, 2, 3):
        seating.set_bot(table.pk, owner, seat, "easy")
    match = start_with_dealer(table, owner, dealer=3)  # the owner acts first
    name, _, value = session_cookie(owner).decode().partition("=")
    connections.close_all()  # the server process opens its own
    # Computer players wait a second before they move: the kill falls before the next one.
    server = ServerProcess(TEST_BOT_DELAY_SECONDS="1")
    # The browser reports the dropped socket and any request made while the server is down,
    # and htmx logs its error event as it is.
    page = new_page(expected=("WebSocket", "[object Event]", "ERR_CONNECTION_REFUSED"))
    try:
        server.start()
        page.context.add_cookies([{"name": name, "value": value, "url": server.url}])
        page.goto(server.url + table.get_absolute_url())
        expect(page.locator("#connection")).to_have_text("Connected")
        expect(page.locator(".your-turn")).to_have_text("Your turn")
        page.evaluate("window.sameDocument = true")  # gone if the page were reloaded
        page.locator(".auction-panel button").first.click()
        version = str(match.version + 1)
        expect(page.locator("#play-version input")).to_have_attribute("value", version)

        server.kill()  # a computer player's turn is pending
        expect(page.locator("#connection")).to_have_text("Connection lost. Reconnecting…")
        assert Match.objects.get(pk=match.pk).version == match.version + 1
        server.start()  # same port: the page reconnects to it by itself
        expect(page.locator("#connection")).to_have_text("Connected", timeout=RECONNECT_TIMEOUT)
        assert page.evaluate("window.sameDocument") is True

        # The pending computer turns resume, and the owner's turn comes back and plays.
        expect(page.locator(".your-turn")).to_have_text("Your turn", timeout=RECONNECT_TIMEOUT)
        before = Match.objects.get(pk=match.pk).version
        assert before > match.version + 1  # the computers moved after the restart
        page.locator(".auction-panel button, .hand button.playable").first.click()
        expect(page.locator("#play-version input")).to_have_attribute("value", str(before + 1))

        # A close the page does not come back from (here as a ban's, 4403) says to reload.
        page.evaluate(
            """document.querySelector("[ws-connect]").dispatchEvent(new CustomEvent(
                "htmx:wsClose", {bubbles: true, detail: {event: {code: 4403}}}))"""
        )
        expect(page.locator("#connection")).to_have_text(
            "Disconnected. Reload the page to connect again."
        )
    finally:
        page.close()  # before the server, so it reaches for nothing stopped
        server.close()
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [move.seq for move in moves] == list(range(1, before + 2))  # nothing accepted lost
    assert moves[0].user == owner and moves[-1].user == owner
    assert {move.seat for move in moves[1:-1]} <= {1, 2, 3}
