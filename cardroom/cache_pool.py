"""One Redis connection pool a process for the cache.

Django's ``caches`` is context-local: every socket's task (and the threads it calls into) gets
a cache object of its own, and each ``RedisCache`` builds its own pool, so a process held one
Redis connection for every open socket and opened a new one for each arrival. Every cache
object of a process takes its connections from one pool here instead; the pool waits for a
free connection once ``max_connections`` are busy (``REDIS_CACHE_CONNECTIONS``).
"""

from __future__ import annotations

import threading
from typing import Any

from redis import BlockingConnectionPool

_lock = threading.Lock()
_pools: dict[tuple[str, tuple[tuple[str, Any], ...]], BlockingConnectionPool] = {}


class ProcessPool(BlockingConnectionPool):
    """A ``pool_class`` for Django's ``RedisCache``: one pool a process and address."""

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> BlockingConnectionPool:
        key = (url, tuple(sorted(kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = BlockingConnectionPool.from_url(url, **kwargs)
            return pool
