"""Signing up in Chromium: a new player lands in the lobby, an invited friend at the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .steps import PASSWORD, sign_up


def test_sign_up_and_land_in_the_lobby(live_server_url, new_page):
    page = new_page()
    page.goto(live_server_url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill("a-Long-secret-42")
    page.get_by_label("Password confirmation").fill("a-Long-secret-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(live_server_url + "/")
    expect(page.get_by_role("heading", name="Open a table")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Welcome to Cardroom, alice!")
    # The stylesheet and htmx are served (whitenoise), not 404s.
    page.wait_for_load_state("load")  # deferred scripts have run by the load event
    assert page.evaluate("typeof htmx") == "object"


@pytest.mark.services
def test_an_invited_friend_signs_up_and_sits_at_the_table(live_server_url, new_page):
    host = new_page(permissions=["clipboard-read", "clipboard-write"])
    sign_up(host, live_server_url, "host")
    host.get_by_role("button", name="Open the table").click()
    expect(host.locator("#connection")).to_have_text("Connected")
    expect(host.locator("#seats")).to_contain_text("host (you)")  # the creator sits already
    host.get_by_role("button", name="Copy invite link").click()
    expect(host.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    invite = host.evaluate("navigator.clipboard.readText()")
    assert invite == host.url + "?from=host"  # the link names who sent it

    friend = new_page()
    friend.goto(invite)  # not logged in: who invites them, Sign up first
    expect(friend.get_by_role("heading", level=1)).to_have_text(
        "host invites you to a Belote table"
    )
    friend.get_by_role("main").get_by_role("link", name="Sign up").click()
    friend.get_by_label("Username").fill("friend")
    friend.get_by_label("Password", exact=True).fill(PASSWORD)
    friend.get_by_label("Password confirmation").fill(PASSWORD)
    friend.get_by_role("button", name="Sign up").click()
    expect(friend).to_have_url(invite)
    expect(friend.locator("#connection")).to_have_text("Connected")
    friend.get_by_role("button", name="Sit in seat 2").click()
    expect(host.locator("#seats")).to_contain_text("friend")
    # One click each, and they are friends.
    friend.get_by_role("button", name="Add host as a friend").click()
    host.locator("#notices .notice", has_text="friend wants to be your friend").get_by_role(
        "button", name="Accept"
    ).click()
    expect(host.locator("#notices")).to_contain_text("You and friend are friends now.")
