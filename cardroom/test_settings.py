"""Settings for the test suite: development defaults plus fast password hashing.

``DATABASE_URL`` and ``REDIS_URL`` still apply, so the same suite runs against PostgreSQL
and Redis in CI.
"""

import os

os.environ.setdefault("DEBUG", "1")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Computer players move at once and think briefly in tests (server processes started by the
# fault tests ask for a pause, so that a bot's turn is pending when they kill the server).
BOT_DELAY_SECONDS = float(os.environ.get("TEST_BOT_DELAY_SECONDS", "0"))
BOT_BUDGET = 0.02
# They think in a thread of the test's own process; the tests of the pool and the workers
# (tests/test_thinking.py) switch these on themselves.
BOT_PROCESSES = 0
BOTS_IN_WORKERS = False
# The suite creates many accounts, tables and reports from one address; the tests of each
# limit set it low themselves.
SIGNUPS_PER_ADDRESS_PER_HOUR = 10_000
MAX_OPEN_TABLES_PER_ACCOUNT = 10_000
REPORTS_PER_USER_PER_HOUR = 10_000
# A daily Belote of two deals keeps the tests that play one short.
DAILY_DEALS = int(os.environ.get("TEST_DAILY_DEALS", "2"))
