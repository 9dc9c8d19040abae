"""A club through the real server: one player founds it, another joins by its invite link, a
club table is opened for the members, and the club's page shows members online, the
announcement and the table; the owner hands the club over to another admin, the only one who
could then ban her; axe-core clean at both sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Table

from .steps import sign_up
from .test_friends_browser import no_serious_violations


@pytest.mark.services
def test_a_club_with_its_members_table_and_announcement(live_server_url, new_page):
    base = live_server_url
    ana, bob = new_page(), new_page()
    sign_up(ana, base, "ana")
    sign_up(bob, base, "bob")
    ana.get_by_role("link", name="Clubs").click()
    ana.get_by_label("Club name").fill("Tuesday Belote")
    ana.get_by_label("Belote").check()
    ana.get_by_label("Who may join").select_option("invitation")
    ana.get_by_role("button", name="Found the club").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Tuesday Belote")
    ana.get_by_label("New announcement").fill("Tuesdays at eight.")
    ana.get_by_role("button", name="Post").click()
    expect(ana.locator(".announcements")).to_contain_text("Tuesdays at eight.")

    # The club takes members by invitation: Ana sends Bob its invite link.
    link = ana.get_by_label("The club's invite link").input_value()
    bob.goto(link)
    expect(bob.locator("main")).to_contain_text("You were sent this club's invite link")
    bob.get_by_role("button", name="Join the club").click()
    expect(bob.locator(".messages")).to_contain_text("Welcome to Tuesday Belote!")
    bob.get_by_role("button", name="Open a club table").click()
    expect(bob.locator("#connection")).to_have_text("Connected")
    table = Table.objects.get()
    assert table.club.name == "Tuesday Belote" and table.is_private

    ana.reload()
    expect(ana.locator(".notices-live")).to_have_attribute("data-connected", "true")
    tables = ana.get_by_role("region", name="The club's tables")
    expect(tables).to_contain_text("bob")
    members = ana.get_by_role("region", name="Members")
    expect(members).to_contain_text("bob")
    no_serious_violations(ana)
    tables.get_by_role("link", name="Join").click()
    expect(ana.locator("#connection")).to_have_text("Connected")
    ana.get_by_role("button", name="Sit in seat 2").click()
    expect(ana.locator("#seats")).to_contain_text("ana (you)")
    ana.goto(base + "/clubs/")
    no_serious_violations(ana)

    # Ana makes Bob an admin: he may not remove or ban her, the club's owner, until she hands
    # the club over to him.
    club = base + table.club.get_absolute_url()
    ana.goto(club)
    ana.get_by_role("region", name="Members").get_by_role("button", name="Make admin").click()
    expect(ana.locator(".messages")).to_contain_text("bob is an admin now.")
    bob.goto(club)
    expect(bob.get_by_role("region", name="Members")).to_contain_text("owner")
    expect(bob.get_by_role("button", name="Ban")).to_have_count(0)
    ana.get_by_label("Hand the club over to").select_option("bob")
    no_serious_violations(ana)
    ana.get_by_role("button", name="Hand over").click()
    expect(ana.locator(".messages")).to_contain_text("bob owns the club now.")
    bob.reload()
    expect(bob.get_by_role("button", name="Ban")).to_have_count(1)
