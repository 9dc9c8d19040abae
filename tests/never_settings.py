"""Test settings whose URLs add a view that never answers (for daphne's HTTP timeout)."""

from cardroom.test_settings import *  # noqa: F403

ROOT_URLCONF = "tests.never_urls"
