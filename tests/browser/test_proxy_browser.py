"""The site as deployed: nginx from ``deploy/nginx/cardroom.conf`` in front of two server
processes. A Belote deal is played through it, and a server stopped under a table (SIGTERM, as
systemd stops one) is a restart the page gets over by itself, with no move lost or doubled."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from games.models import Match, Move, Table

from .conftest import ProxiedSite
from .steps import SIMPLE_MOVE, next_deal_or_move, sign_up

# Two servers and nginx start before each test: a busy machine takes a while.
pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]

#: A hang guard only: each step ends as soon as its condition holds.
DEADLINE = 300
LOST = "Connection lost. Reconnecting…"


def play_until_the_deal_ends(page: Page) -> None:
    """Make the simplest move at each turn until the first deal's result is written."""
    end = time.monotonic() + DEADLINE
    rows = page.locator(".score-sheet .deal-row")
    while time.monotonic() < end:
        if rows.count():
            return
        if not next_deal_or_move(page):
            page.wait_for_timeout(100)  # computers think: look again
    raise AssertionError("the deal did not end")


def both_show_the_tables_version(pages: list[Page], table: Table) -> None:
    """Wait until every page shows the match's version in the database (after a deal all
    pass, the computers may open the next one: the table rests at the player's turn)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        version = str(Match.objects.get(table=table).version)
        if {page.locator("#play-version input").get_attribute("value") for page in pages} == {
            version
        }:
            return
        pages[0].wait_for_timeout(100)  # a frame on its way: look again
    raise AssertionError("the pages do not show the table's version")


def status(url: str) -> tuple[int, dict[str, str]]:
    """The status and headers nginx answers ``url`` with."""
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, dict(reply.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def test_a_belote_deal_through_nginx_with_a_watcher(proxied_site: ProxiedSite, new_page):
    base = proxied_site.url
    player, watcher = new_page(), new_page()
    sign_up(player, base, "dealer")
    player.get_by_role("button", name="Play Belote now").click()
    expect(player.locator("#connection")).to_have_text("Connected")
    expect(player.locator("#seats")).to_contain_text("dealer (you)")
    table = Table.objects.get()
    sign_up(watcher, base, "kibitzer")
    watcher.goto(base + table.get_absolute_url())
    expect(watcher.locator("#connection")).to_have_text("Connected")

    play_until_the_deal_ends(player)
    expect(watcher.locator(".score-sheet .deal-row")).to_have_count(1)
    both_show_the_tables_version([player, watcher], table)

    # nginx serves the static files itself and keeps what is not public to itself.
    code, headers = status(base + "/static/css/site.css")
    assert code == 200 and "immutable" in headers.get("Cache-Control", "")
    assert status(base + "/metrics")[0] == 403
    assert status(base + "/healthz")[0] == 200


def test_a_server_stopped_under_a_table_is_a_restart_nobody_notices(
    proxied_site: ProxiedSite, new_page
):
    base = proxied_site.url
    page = new_page(expected=("WebSocket",))  # the browser reports the socket's close
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    sign_up(page, base, "steady")
    page.get_by_role("button", name="Play Belote now").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    table = Table.objects.get()
    # What the connection line says, and every close code the page sees, from now on.
    page.evaluate(
        """() => {
            window.said = [];
            window.closes = [];
            window.sameDocument = true;
            // A frame replaces the line itself: watch the table's live region around it.
            const live = document.querySelector(".table-live");
            new MutationObserver(() => {
                const words = document.getElementById("connection").textContent;
                if (window.said[window.said.length - 1] !== words) window.said.push(words);
            }).observe(live, {childList: true, characterData: true, subtree: true});
            document.addEventListener("htmx:wsClose", (event) => {
                if (event.target.closest(".table-live")) {
                    window.closes.push(event.detail.event.code);
                }
            });
        }"""
    )
    expect(page.locator(".your-turn")).to_have_text("Your turn")
    path = f"WSCONNECT /ws/table/{table.code}/"
    (serving,) = [s for s in proxied_site.servers if path in s.output()]

    # My move goes out as the server that holds my socket is told to stop.
    before = Match.objects.get(table=table).version
    opened = len(sockets)
    page.locator(SIMPLE_MOVE).first.click()
    serving.terminate()
    assert serving.process is not None and serving.process.wait(timeout=30) == 0

    expect(page.locator("#connection")).to_have_text("Connected")
    said = page.evaluate("window.said")
    assert LOST in said and said[-1] == "Connected", said
    assert page.evaluate("window.closes") == [1012]  # a restart: the page reconnects
    # It reconnected naming what it showed (a page showing the table as it is needs no render).
    again = sockets[opened:]  # the notices' socket may have been on that server as well
    assert any("/ws/table/" in url and "?token=" in url for url in again), sockets
    assert page.evaluate("window.sameDocument") is True
    # The move was committed before the socket closed, or dropped unread: never half-done.
    mine = Move.objects.filter(match__table=table, user__username="steady")
    if not mine.exists():
        expect(page.locator(".your-turn")).to_have_text("Your turn")
        page.locator(SIMPLE_MOVE).first.click()
    # Nothing but my move follows my turn: the page shows it once it is applied.
    expect(page.locator("#play-version input")).not_to_have_attribute("value", str(before))
    assert mine.count() == 1  # exactly once
    seqs = list(Move.objects.filter(match__table=table).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))
