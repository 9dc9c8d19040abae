"""The cache's Redis connections: one pool a process, however many sockets are open."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches

from games.people import online

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not settings.REDIS_URL, reason="the cache is Redis only with REDIS_URL"),
]


def pool_of(cache) -> object:
    return cache._cache._get_connection_pool(True)


def test_every_cache_object_of_a_process_shares_one_pool():
    # Django makes one for each thread and each socket's context.
    assert pool_of(caches.create_connection("default")) is pool_of(caches["default"])


@pytest.mark.asyncio
async def test_many_sockets_claiming_places_use_a_few_connections():
    pool = pool_of(caches["default"])

    async def socket(number: int) -> None:  # a context of its own, as each socket's task
        place = await sync_to_async(online.claim_socket, thread_sensitive=False)(
            10_000 + number, f"channel!{number}"
        )
        assert place is not None
        await sync_to_async(online.release_socket, thread_sensitive=False)(
            place, f"channel!{number}"
        )

    await asyncio.gather(*(asyncio.create_task(socket(n)) for n in range(40)))
    # The threads that ran them at most (asgiref's default executor), not one a socket.
    assert len(pool._connections) <= 8
