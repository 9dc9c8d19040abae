"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model

from games import snapshots


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own channel layer: channels-redis keeps per-event-loop receive state
    (a lock, a count of receivers), and every async test runs on a new loop."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def make_user(db):
    """Create users with a known password: ``make_user("alice")``."""

    def make(username: str, password: str = "a-Long-secret-42", **extra):
        return get_user_model().objects.create_user(username, password=password, **extra)

    return make


@pytest.fixture(autouse=True)
def fresh_snapshots():
    """Table ids repeat between tests (each test's rows are rolled back): forget the reads of
    tables that this process keeps between change events."""
    snapshots.forget()
    yield
    snapshots.forget()
