"""Screenshots of the daily's pages (not committed)."""

from playwright.sync_api import expect

from games.events import daily
from games.models import Daily

from .steps import sign_up, switch_language
from .test_daily_browser import play
from ..test_daily import finish, make_players

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def shoot(page, name):
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=f"/tmp/daily-shots/{name}-{label}.png", full_page=True)


def test_shots(live_server_url, new_page):
    base = live_server_url
    others = make_players(6)
    today = daily.today()
    for i, p in enumerate(others):
        finish(daily.start(today, p), lambda a, i=i: a[i % len(a)])
    ana = new_page()
    sign_up(ana, base, "ana")
    shoot(ana, "home-before")
    ana.goto(f"{base}/daily/")
    shoot(ana, "daily-before")
    ana.get_by_role("button", name="Play today's deals").click()
    expect(ana.locator("#connection")).to_have_text("Connected")
    shoot(ana, "table")
    play(ana)
    shoot(ana, "table-done")
    ana.goto(f"{base}/daily/")
    shoot(ana, "daily-after")
    ana.goto(f"{base}/daily/{today.day.isoformat()}/deals/1/")
    shoot(ana, "traveller")
    ana.goto(f"{base}/")
    shoot(ana, "home-after")
    ana.goto(f"{base}/u/ana/")
    shoot(ana, "profile")
    for lang in ("bg", "ru"):
        ana.goto(f"{base}/daily/")
        switch_language(ana, lang)
        shoot(ana, f"daily-{lang}")
        ana.goto(f"{base}/daily/{today.day.isoformat()}/deals/1/")
        shoot(ana, f"traveller-{lang}")
