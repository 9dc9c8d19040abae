"""Browser tests: real Chromium (Debian's package) through a live daphne server.

They run in their own pytest process (see the Makefile): Playwright's sync API keeps an event
loop in the main thread, which is why Django's async-safety check is relaxed here only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.db import connections
from playwright.sync_api import expect

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


@pytest.fixture
def live_server_url(transactional_db) -> Iterator[str]:
    """Start daphne with the real ASGI application on a free port, over the test database.

    The server is a forked process, so it inherits settings that already name the test
    database (pytest-django switched them before this fixture runs).
    """
    connections.close_all()  # the server process must not share our open connections
    for alias in connections:
        # Nor a pool's (PostgreSQL): closed connections go back to it, still open.
        close_pool = getattr(connections[alias], "close_pool", None)
        if close_pool is not None:
            close_pool()
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
