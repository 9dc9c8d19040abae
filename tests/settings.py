"""The suite's settings: ``cardroom.test_settings``, with a Redis database of its own for each
pytest-xdist worker.

Workers run side by side, each with a test database of its own (pytest-django names them
apart). On Redis they would share everything: the cache (each test empties it), the channel
layer's groups (table ids repeat from one test database to the other) and the bot workers'
channel. Worker ``gwN`` uses database N after the one ``REDIS_URL`` names; the server and worker
processes a test starts inherit the changed ``REDIS_URL``.
"""

import os
from urllib.parse import urlsplit, urlunsplit


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` with its database moved on by the number of pytest-xdist worker ``worker``."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{database}"))


if os.environ.get("REDIS_URL") and os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["REDIS_URL"] = worker_redis_url(
        os.environ["REDIS_URL"], os.environ["PYTEST_XDIST_WORKER"]
    )

from cardroom.test_settings import *  # noqa: E402, F403
