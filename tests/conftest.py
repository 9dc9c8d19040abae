"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connections
from django.utils import translation

from games.live import autoplay, presence, regions, snapshots
from games.tables import play, rows, seating

from .servers import ServerProcess


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own channel layer: channels-redis keeps per-event-loop receive state
    (a lock, a count of receivers), and every async test runs on a new loop."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language: a request, or a frame rendered for a
    page in another language, leaves that language active in the thread."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with empty counters: on Redis they outlive the test and the run."""
    cache.clear()


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
    play.start_match(table.pk, users[0])
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
    """After an async test, stop this process's computer players and presence heartbeat and
    wait for their database work in progress: the test database is flushed next, and a move
    still running in a thread would race the flush (on PostgreSQL, a deadlock)."""
    yield
    await autoplay.stop_all()
    await presence.stop()
    # The database thread's connection too: left open, it outlives the test database.
    await sync_to_async(connections.close_all)()


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """Server processes a test starts; all stopped (and their logs removed) afterwards."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.close()
