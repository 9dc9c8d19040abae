"""A pool of processes for work too heavy for the web process: computer players' thinking
(``games.live.thinking``) and deal reviews (``games.records.reviews``)."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar, TypeVarTuple, Unpack

from django.conf import settings

T = TypeVar("T")
Args = TypeVarTuple("Args")

_pool: concurrent.futures.ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def pool() -> concurrent.futures.ProcessPoolExecutor:
    """This process's pool (started on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=settings.BOT_PROCESSES,
                mp_context=multiprocessing.get_context("spawn"),
            )
        return _pool


def forget(broken: concurrent.futures.ProcessPoolExecutor) -> None:
    """Drop a pool whose process died; the next :func:`pool` starts a new one."""
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def in_pool(work: Callable[[Unpack[Args]], T], *args: *Args) -> T:
    """``work(*args)`` worked out in the pool while this thread waits (in this thread when
    ``BOT_PROCESSES`` is 0); asked again, in a new pool, when a process died. For work a
    request needs that is too heavy for the web process (deal reviews)."""
    if not settings.BOT_PROCESSES:
        return work(*args)
    for attempt in range(3):
        running = pool()
        try:
            return running.submit(work, *args).result()
        except BrokenProcessPool:
            forget(running)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def shutdown() -> None:
    """Stop the pool's processes (tests, shutdown)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
