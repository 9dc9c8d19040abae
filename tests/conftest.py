"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.db import connections
from django.utils import translation

from games.live import autoplay, presence, regions, snapshots
from games.tables import matches, rows, seating

from . import communicators, live
from .servers import ServerProcess

#: Fixtures that reach the database (and so, through the site's code, the channel layer and the
#: cache): PostgreSQL and Redis in CI's second pass. pytest-django refuses the database to a
#: test without one of them.
SERVICE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "django_db_setup",
        "live_server",
        "servers",
    }
)
#: What a test module uses to open sockets or reach the channel layer without the database.
LAYER_USERS = (WebsocketCommunicator, get_channel_layer, live.connect, live.open_socket)
BROWSER_TESTS = Path(__file__).parent / "browser"
#: Performance contracts in files whose marks are kept by others.
CONTRACTS = ("tests/test_dispatch.py::test_dispatch_calls_the_handler_without_a_database_hop",)


def reaches_services(item: pytest.Item) -> bool:
    if item.get_closest_marker("services") or item.get_closest_marker("django_db"):
        return True
    if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    return module is not None and any(
        value is user for value in vars(module).values() for user in LAYER_USERS
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``services`` every test that reaches the database, the channel layer or the cache
    (the second CI pass runs just those, on PostgreSQL and Redis); pure ones (engines, bots,
    analysis, text) run once. Browser tests all use a live server: the ones that matter on
    Redis are marked by hand (``tests/browser``). :func:`fresh_channel_layer` and
    :func:`fresh_cache` fail a test that reached the layer or the cache unmarked."""
    for item in items:
        if BROWSER_TESTS not in item.path.parents and reaches_services(item):
            item.add_marker(pytest.mark.services)
        if item.nodeid.startswith(CONTRACTS):
            item.add_marker(pytest.mark.contract)


@pytest.fixture(autouse=True, scope="session")
def patient_communicators() -> Iterator[None]:
    """Channels' test clients wait as long as a busy machine needs (``tests.communicators``)."""
    with communicators.patched():
        yield


def kept_to_itself(request: pytest.FixtureRequest) -> bool:
    """Whether the test is one that must not reach the channel layer or the cache: neither
    marked ``services`` nor a browser test (whose server is another process, where the site's
    code reaches them; those that the second CI pass runs are marked by hand)."""
    node = request.node
    return node.get_closest_marker("services") is None and BROWSER_TESTS not in node.path.parents


@pytest.fixture(autouse=True)
def fresh_channel_layer(request: pytest.FixtureRequest):
    """Each test gets its own channel layer: channels-redis keeps per-event-loop receive state
    (a lock, a count of receivers), and every async test runs on a new loop."""
    channel_layers.backends.clear()
    yield
    used = bool(channel_layers.backends)
    channel_layers.backends.clear()
    if used and kept_to_itself(request):
        pytest.fail(
            "this test reached the channel layer (Redis in CI's second pass) but is not marked "
            "services: see reaches_services() in tests/conftest.py",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language: a request, or a frame rendered for a
    page in another language, leaves that language active in the thread."""
    translation.deactivate()
    yield
    translation.deactivate()


def locmem_entries() -> int:
    """How many entries the in-memory caches of this process hold (0 with Redis)."""
    return sum(len(entries) for entries in locmem._caches.values())


@pytest.fixture(autouse=True)
def fresh_cache(request: pytest.FixtureRequest):
    """Each test that may reach the cache starts with empty counters: on Redis they outlive
    the test and the run. Any other test must leave the cache alone."""
    if kept_to_itself(request):
        yield
        if locmem_entries():
            cache.clear()
            pytest.fail(
                "this test wrote to the cache (Redis in CI's second pass) but is not marked "
                "services: see reaches_services() in tests/conftest.py",
                pytrace=False,
            )
        return
    cache.clear()
    yield
    cache.clear()  # what the next test finds, whichever it is


@pytest.fixture
def make_user(db):
    """Create users with a known password: ``make_user("alice")``."""

    def make(username: str, password: str = "a-Long-secret-42", **extra):
        return get_user_model().objects.create_user(username, password=password, **extra)

    return make


@pytest.fixture
def started(db):
    """A private Belote table of four players whose first match has started: (table, users)."""
    users = [
        get_user_model().objects.create_user(f"seated{i}", password="pw-123456789")
        for i in range(4)
    ]
    options = {"target": 151, "declarations": "separate", "finish_with_hanging": True}
    table = rows.create_table(users[0], "belote", options, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    return table, users


@pytest.fixture(autouse=True)
def fresh_snapshots():
    """Table ids repeat between tests (each test's rows are rolled back): forget the reads of
    tables that this process keeps between change events."""
    snapshots.forget()
    regions.forget_recurring()
    yield
    snapshots.forget()
    regions.forget_recurring()


@pytest_asyncio.fixture
async def background_stopped():
    """After an async test, close the sockets it left open, stop this process's computer
    players and presence heartbeat, and wait for their database work in progress: the test
    database is flushed next, and a clean-up or a move still running in a thread would race
    the flush (on PostgreSQL, a deadlock)."""
    yield
    await communicators.close_open()
    await autoplay.stop_all()
    await presence.stop()
    # The database thread's connection too: left open, it outlives the test database.
    await sync_to_async(connections.close_all)()


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """Server processes a test starts; all stopped (and their logs removed) afterwards. The end
    of each one's log is printed: pytest shows it with a failure (a server's errors, a computer
    player's retries), and keeps it to itself otherwise."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        if server.process is not None:
            print(f"--- the end of the log of daphne on port {server.port} ---\n{server.output()}")
        server.close()
