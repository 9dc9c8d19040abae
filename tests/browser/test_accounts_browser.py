"""A new user signs up in Chromium and lands on their profile."""

from __future__ import annotations

from playwright.sync_api import expect


def test_sign_up_and_land_on_profile(live_server_url, new_page):
    page = new_page()
    page.goto(live_server_url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill("a-Long-secret-42")
    page.get_by_label("Password confirmation").fill("a-Long-secret-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(live_server_url + "/u/alice/")
    expect(page.get_by_role("heading", level=1)).to_have_text("alice")
    expect(page.get_by_role("status")).to_contain_text("Welcome to Cardroom, alice!")
    # The stylesheet and htmx are served (whitenoise), not 404s.
    page.wait_for_load_state("load")  # deferred scripts have run by the load event
    assert page.evaluate("typeof htmx") == "object"
