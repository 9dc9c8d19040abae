"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def make_user(db):
    """Create users with a known password: ``make_user("alice")``."""

    def make(username: str, password: str = "a-Long-secret-42", **extra):
        return get_user_model().objects.create_user(username, password=password, **extra)

    return make
