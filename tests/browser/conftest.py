"""Browser tests: real Chromium (Debian's package) through a live daphne server.

They run in their own pytest process (see the Makefile): Playwright's sync API keeps an event
loop in the main thread, which is why Django's async-safety check is relaxed here only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import override_settings
from playwright.sync_api import expect

from cardroom.nginx import Proxy, nginx_missing

from ..servers import ServerProcess

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_TIMEOUT = 30
#: How long a step waits for the page, an action or an expectation (Playwright's own default
#: for an expectation is 5 s): a busy machine may take a while. A step ends as soon as its
#: condition holds; only a failing one waits this long.
PAGE_TIMEOUT = 30_000
expect.set_options(timeout=PAGE_TIMEOUT)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session; each player gets a context of its own."""
    if not Path(CHROMIUM_PATH).exists():
        reason = (
            f"Chromium not found at {CHROMIUM_PATH} "
            "(install the chromium package or set CHROMIUM_PATH)"
        )
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; REQUIRE_BROWSER=1 makes this a failure")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def close_connections() -> None:
    """Close this process's database connections (and a pool's) before forking servers."""
    connections.close_all()
    for alias in connections:
        # Nor a pool's (PostgreSQL): closed connections go back to it, still open.
        close_pool = getattr(connections[alias], "close_pool", None)
        if close_pool is not None:
            close_pool()


@pytest.fixture
def live_server_url(transactional_db) -> Iterator[str]:
    """Start daphne with the real ASGI application on a free port, over the test database.

    The server is a forked process, so it inherits settings that already name the test
    database (pytest-django switched them before this fixture runs).
    """
    close_connections()  # the server process must not share our open connections
    server = DaphneProcess(
        "127.0.0.1",
        partial(make_application, static_wrapper=None),  # whitenoise serves static files
    )
    server.start()
    if not server.ready.wait(timeout=SERVER_START_TIMEOUT):
        server.terminate()
        error = "" if server.errors.empty() else server.errors.get_nowait()[1]
        raise RuntimeError(f"daphne did not start: {error}")
    try:
        yield f"http://127.0.0.1:{server.port.value}"
    finally:
        server.terminate()
        server.join(timeout=10)


@dataclass
class ProxiedSite:
    """The site as production runs it: nginx from ``deploy/`` in front of two servers."""

    url: str
    servers: list[ServerProcess]
    proxy: Proxy


@pytest.fixture(scope="session")
def static_root(tmp_path_factory: pytest.TempPathFactory):
    """``manage.py collectstatic``'s output, which nginx serves."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def proxied_site(transactional_db, static_root) -> Iterator[ProxiedSite]:
    """nginx with the repository's site file (rendered for a local port, no TLS) in front of
    two server processes that share the tables through PostgreSQL and Redis."""
    missing = nginx_missing()
    if missing:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(missing + "; REQUIRE_BROWSER=1 makes this a failure")
        pytest.skip(missing)
    if not settings.REDIS_URL:
        pytest.skip("two server processes share the tables through Redis (set REDIS_URL)")
    close_connections()
    # Unbuffered: each server's log shows the sockets it accepted as they come.
    servers = [ServerProcess(TRUSTED_PROXIES="1", PYTHONUNBUFFERED="1") for _ in range(2)]
    proxy: Proxy | None = None
    try:
        for server in servers:
            server.start()
        proxy = Proxy([server.port for server in servers], static_root)
        proxy.start()
        yield ProxiedSite(proxy.url, servers, proxy)
    finally:
        if proxy is not None:
            print(f"--- the end of nginx's error log ---\n{proxy.log()}")
            proxy.close()
        for server in servers:
            if server.process is not None:
                print(f"--- the end of the log of the server on {server.port} ---")
                print(server.output())
            server.close()


@pytest.fixture
def new_page(browser):
    """Open a page in a fresh browser context (a separate player with its own cookies).

    Every page is watched for Content-Security-Policy violations and script errors: a test
    that triggers one fails, so each browser test also proves the pages work under the CSP.
    """
    contexts = []
    problems: list[str] = []

    def open_page(expected: tuple[str, ...] = (), permissions: list[str] | None = None):
        """A new player's page; console errors containing one of ``expected`` are allowed
        (a test that kills the server expects the browser to report the dropped socket);
        ``permissions`` are granted to the page (``"clipboard-read"``)."""

        def watch(message) -> None:
            if message.type == "error" and not any(text in message.text for text in expected):
                problems.append(message.text)

        context = browser.new_context(permissions=permissions or [])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        page.on("console", watch)
        page.on("pageerror", lambda error: problems.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    blocking = [text for text in problems if "favicon" not in text]
    assert not blocking, f"errors in the browser console: {blocking}"
