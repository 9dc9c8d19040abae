"""The installable site in Chromium: the manifest and its icons, a service worker that controls
the pages and keeps only static files and the offline page, the offline page when the server is
down, and notifications turned on and off from the settings page (the push itself checked by a
push service on 127.0.0.1 that decrypts it with the subscription's keys)."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterator

import pytest
from django.db import connections
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import PushSubscription

from ..factories import make_players, table_with_bots
from ..live import session_cookie
from ..pushes import PushService, b64
from ..servers import ServerProcess
from ..test_autoplay import start_with_dealer
from .conftest import CHROMIUM_ARGS, CHROMIUM_PATH, PAGE_TIMEOUT
from .steps import switch_language

CACHED_URLS = """caches.keys().then(names => Promise.all(names.map(name =>
    caches.open(name).then(cache => cache.keys()).then(requests => requests.map(r => r.url))
))).then(lists => lists.flat())"""


@pytest.fixture
def service() -> Iterator[PushService]:
    running = PushService()
    yield running
    running.close()


def log_in(page: Page, base: str, user) -> None:
    name, _, value = session_cookie(user).decode().partition("=")
    page.context.add_cookies([{"name": name, "value": value, "url": base}])


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page (from the next load on)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def profile_page(browser, tmp_path) -> Iterator[Page]:
    """A page in a browser profile of its own: Chromium installs no site from an incognito
    context (every other test's)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS
    )
    problems: list[str] = []
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT)
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    yield page
    context.close()
    assert not problems, f"errors in the browser console: {problems}"


def test_the_site_is_installable_and_its_worker_keeps_no_page(live_server_url, profile_page):
    [ana] = make_players(1)
    table = table_with_bots(ana)
    start_with_dealer(table, ana, dealer=3)
    page = profile_page
    log_in(page, live_server_url, ana)
    page.goto(live_server_url + "/")

    answer = page.request.get(live_server_url + "/manifest.webmanifest")
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Cardroom — Belote and Grabush" and manifest["lang"] == "en"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    sizes = {}
    for icon in manifest["icons"]:
        image = page.request.get(live_server_url + icon["src"])
        assert image.headers["content-type"] == "image/png"
        size = png_size(image.body())
        assert f"{size[0]}x{size[1]}" == icon["sizes"]
        sizes.setdefault(icon.get("purpose", "any"), []).append(size)
    assert sizes == {"any": [(192, 192), (512, 512)], "maskable": [(512, 512)]}

    controlled(page)
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    assert cdp.send("Page.getAppManifest")["errors"] == []

    # Pages with a table's state, a player's name or a form's token are never kept.
    for path in (table.get_absolute_url(), "/", "/notifications/", "/friends/"):
        page.goto(live_server_url + path)
    expect(page.locator("h1")).to_have_text("Friends")
    kept = [url.removeprefix(live_server_url) for url in page.evaluate(CACHED_URLS)]
    assert "/offline/" in kept and "/static/css/site.css" in kept
    assert all(url == "/offline/" or url.startswith("/static/") for url in kept), kept

    # In the player's language.
    switch_language(page, "bg")
    manifest = page.request.get(live_server_url + "/manifest.webmanifest").json()
    assert manifest["lang"] == "bg" and manifest["name"] == "Cardroom — Белот и Грабуш"


@pytest.mark.services
def test_the_offline_page_shows_when_the_server_is_down(transactional_db, new_page):
    [ana] = make_players(1)
    table = table_with_bots(ana)
    connections.close_all()  # the server process opens its own
    server = ServerProcess()
    page = new_page(
        expected=("WebSocket", "[object Event]", "ERR_CONNECTION_REFUSED", "Failed to fetch")
    )
    try:
        server.start()
        log_in(page, server.url, ana)
        page.goto(server.url + "/")
        controlled(page)
        server.kill()
        page.goto(server.url + table.get_absolute_url())
        expect(page.locator("h1")).to_have_text("Cardroom cannot be reached")
        assert ana.username not in page.content() and table.code not in page.content()
        # Back up: the same navigation reaches the table.
        server.start()
        page.get_by_role("link", name="Try again").click()
        expect(page).to_have_url(server.url + "/")
        expect(page.locator(".nav")).to_contain_text(ana.username)
    finally:
        page.close()
        server.close()


def test_notifications_turned_on_in_chromium_reach_the_device_and_turn_off(
    live_server_url, profile_page, new_page, service
):
    ana, bob = make_players(2)
    page = profile_page
    page.context.grant_permissions(["notifications"], origin=live_server_url)
    log_in(page, live_server_url, ana)
    page.goto(live_server_url + "/notifications/")
    controlled(page)
    expect(page.locator(".push-state")).to_have_text("Notifications are off on this device.")
    # Chromium's own PushManager.subscribe registers with its maker's push service (FCM),
    # which this machine cannot reach: in a profile it never answers, and an incognito context
    # refuses it outright. The test's device stands in behind the same Push API, so that what
    # the page does with a subscription, and what reaches the device, are the real thing.
    device = service.device("chromium")
    page.add_init_script(
        f"""(() => {{
        const json = {device.json()!r};
        const fake = {{endpoint: json.endpoint, toJSON: () => json, unsubscribe: () => {{
            localStorage.removeItem("subscribed"); return Promise.resolve(true); }}}};
        PushManager.prototype.subscribe = function (options) {{
            const key = new Uint8Array(options.applicationServerKey);
            window.subscribedWith = btoa(String.fromCharCode(...key));
            localStorage.setItem("subscribed", "yes");
            return Promise.resolve(fake);
        }};
        PushManager.prototype.getSubscription = function () {{
            return Promise.resolve(localStorage.getItem("subscribed") ? fake : null);
        }};
        }})();"""
    )
    switch_language(page, "bg")
    page.get_by_role("button", name="Включи известията на това устройство").click()
    expect(page.locator(".push-state")).to_have_text("Известията на това устройство са включени.")
    [subscription] = PushSubscription.objects.filter(user=ana)
    assert subscription.endpoint == device.endpoint and subscription.auth == b64(device.auth)
    server_key = page.locator("#push-device").get_attribute("data-key")
    assert b64(base64.b64decode(page.evaluate("window.subscribedWith"))) == server_key

    # With no page of the site open, a friend request reaches the device, in Bulgarian.
    page.goto("about:blank")
    other = new_page()
    log_in(other, live_server_url, bob)
    other.goto(live_server_url + "/friends/")
    other.locator("form[action='/friends/request/'] input[name=username]").fill(ana.username)
    other.get_by_role("button", name="Send a friend request").click()
    expect(other.locator(".messages")).to_be_visible()
    [payload] = service.wait_for("chromium")
    assert payload["body"] == "player1 иска да ти е приятел."
    assert payload["url"] == "/invitations/"

    # The service worker shows it as the device's notification, tagged by kind and request.
    page.goto(live_server_url + "/notifications/")
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("navigator.serviceWorker.controller !== null")  # events arrive meanwhile
    [registration] = [r for r in registrations if r["scopeURL"] == live_server_url + "/"]
    # Each poll asks the worker again and answers with what the previous one found.
    shown_so_far = """() => {
        navigator.serviceWorker.ready.then(r => r.getNotifications()).then(list => {
            window.shown = list.map(n => [n.title, n.body, n.tag, n.data.url]);
        });
        return window.shown && window.shown.length ? window.shown : null;
    }"""
    for _ in range(6):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server_url,
                "registrationId": registration["registrationId"],
                "data": json.dumps(payload),
            },
        )
        try:
            # polling: ms between polls; the predicate is not tied to painting frames.
            shown = page.wait_for_function(shown_so_far, polling=100, timeout=5_000).json_value()
            break
        except PlaywrightTimeoutError:
            # On a busy machine a message DevTools delivers while the worker is still starting
            # can be dropped: deliver it again (the same tag replaces, never adds).
            continue
    else:
        pytest.fail("the service worker showed no notification")
    assert shown == [["Cardroom", payload["body"], payload["tag"], "/invitations/"]]

    # Turned off: the device is forgotten.
    page.get_by_role("button", name="Изключи известията на това устройство").click()
    expect(page.locator(".push-state")).to_have_text("Известията на това устройство са изключени.")
    assert not PushSubscription.objects.filter(user=ana).exists()
