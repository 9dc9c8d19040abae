"""Two new players in two browsers, through the real server: they become friends, see each
other online, one invites the other to a private table from the table, the other accepts from
the page they are on (told at once, without reloading) and sits; both leave and find the table
under My tables, and resume it. A player they block can do none of it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.models import Seat, Table

from .steps import sign_up
from .test_accessibility import SIZES, serious_violations


def request_friend(page: Page, base: str, name: str) -> None:
    page.goto(base + "/friends/")
    page.get_by_label("Username").first.fill(name)
    page.get_by_role("button", name="Send a friend request").click()


def no_serious_violations(page: Page) -> None:
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        found = serious_violations(page)
        assert not found, f"{page.url} at {width}x{height}: {found}"


@pytest.mark.services
def test_friends_meet_invite_play_and_come_back(live_server_url, new_page):
    base = live_server_url
    ana, bob, eve = new_page(), new_page(), new_page()
    sign_up(ana, base, "ana")
    sign_up(bob, base, "bob")
    sign_up(eve, base, "eve")

    # Bob is on the lobby page: Ana's request reaches him there, live.
    request_friend(ana, base, "bob")
    expect(ana.locator(".messages")).to_contain_text("Friend request sent to bob.")
    notice = bob.locator("#notices .notice")
    expect(notice).to_contain_text("ana wants to be your friend.")
    notice.get_by_role("button", name="Accept").click()
    expect(bob.locator("#notices")).to_contain_text("You and ana are friends now.")

    # Each sees the other online on the friends page.
    expect(bob.locator(".notices-live")).to_have_attribute("data-connected", "true")
    ana.goto(base + "/friends/")
    expect(ana.locator(".friend", has_text="bob")).to_contain_text("online")
    no_serious_violations(ana)
    bob.goto(base + "/")

    # Ana opens a private table and invites Bob to seat 3 from the table.
    ana.goto(base + "/")
    ana.get_by_label("Private table (only people with the link can join)").check()
    ana.get_by_role("button", name="Open the table").click()
    expect(ana.locator("#connection")).to_have_text("Connected")
    panel = ana.locator(".invite-friends")
    expect(panel).to_contain_text("bob")
    panel.get_by_label("Their seat").select_option("2")
    panel.get_by_role("button", name="Invite bob").click()
    expect(panel.locator("#invite-said")).to_have_text("Invitation sent to bob.")
    no_serious_violations(ana)

    invitation = bob.locator("#notices .notice", has_text="invites you")
    expect(invitation).to_contain_text("ana invites you to a Belote table. Seat 3 is kept for you.")
    no_serious_violations(bob)
    invitation.get_by_role("button", name="Accept").click()
    expect(bob.locator("#connection")).to_have_text("Connected")
    expect(bob.locator("#seats")).to_contain_text("bob (you)")
    table = Table.objects.get()
    assert Seat.objects.get(table=table, index=2).user.username == "bob"
    expect(ana.locator("#notices")).to_contain_text("bob accepted your invitation.")
    expect(ana.locator("#seats")).to_contain_text("bob")

    # Both leave; My tables brings each back.
    for page in (ana, bob):
        page.goto(base + "/")
        mine = page.locator(".my-tables")
        expect(mine).to_contain_text("Belote")
        mine.get_by_role("link", name="Resume the Belote table").click()
        expect(page.locator("#connection")).to_have_text("Connected")
    ana.goto(base + "/u/ana/")
    expect(ana.locator(".my-tables")).to_contain_text("waiting for players")

    # Eve is Ana's friend too, until Ana blocks her: then Eve no longer sees Ana, isn't offered
    # at Ana's table, can't ask again and can't open, watch or sit at Ana's private table.
    request_friend(eve, base, "ana")
    ana.goto(base + "/friends/")
    ana.locator("form", has_text="Accept").first.get_by_role("button", name="Accept").click()
    expect(ana.locator(".notices-live")).to_have_attribute("data-connected", "true")
    eve.goto(base + "/friends/")
    expect(eve.locator(".friend", has_text="ana")).to_contain_text("online")
    ana.goto(base + "/u/eve/")
    ana.get_by_role("button", name="Block").click()
    eve.goto(base + "/friends/")
    expect(eve.locator(".friend")).to_have_count(0)
    ana.goto(base + table.get_absolute_url())
    expect(ana.locator(".invite-friends")).to_contain_text("bob")
    expect(ana.locator(".invite-friends")).not_to_contain_text("eve")
    request_friend(eve, base, "ana")
    expect(eve.locator(".messages")).to_contain_text("You cannot send ana a friend request.")
    # Nor can she open Ana's private table, or watch it through its socket.
    response = eve.request.get(base + table.get_absolute_url())  # with her browser's cookies
    assert response.status == 404 and "Sit in seat" not in response.text()
    closed = eve.evaluate(
        """code => new Promise(done => {
            const socket = new WebSocket(`ws://${location.host}/ws/table/${code}/`);
            socket.onclose = event => done(event.code);
        })""",
        table.code,
    )
    assert closed == 4404
    assert not Seat.objects.filter(table=table, user__username="eve").exists()
