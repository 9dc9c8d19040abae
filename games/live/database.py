"""The live thread's database connection: kept, where every other one is closed after its work.

Every socket of a process reaches the database through ``database_sync_to_async``, which runs
each call, one after the other, on one thread (asgiref's single thread executor). Taking a
connection from the pool for each call and handing it back after made a move's round trip four
times slower under load (``manage.py loadtest``, docs/benchmarks.md), so that thread keeps the
connection it opens: one a process, inside the pool's bound (``DB_POOL_SIZE``). Requests run in
threads of their own and close theirs when they end (``CONN_MAX_AGE`` 0), and so do a socket's
first reads on PostgreSQL (:func:`run_arrival`).
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple, Unpack

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

T = TypeVar("T")
Args = TypeVarTuple("Args")


#: True inside an arrival's work (:func:`run_arrival`), which runs beside the live thread.
_arriving: contextvars.ContextVar[bool] = contextvars.ContextVar("arriving", default=False)


def on_live_thread() -> bool:
    """Whether this is the thread that runs the sockets' database work."""
    # asgiref marks the work it hands its one shared thread so, and the caller's context with
    # it, which an arrival's work copies; a request's thread has its own.
    return SyncToAsync.deadlock_context.get(False) and not _arriving.get()


def keep_on_live_thread(
    sender: type[BaseDatabaseWrapper], connection: BaseDatabaseWrapper, **kwargs: object
) -> None:
    """Let a connection opened on the live thread outlive its work (``connection_created``)."""
    if on_live_thread():
        connection.close_at = None


def connect() -> None:
    connection_created.connect(keep_on_live_thread, dispatch_uid="keep-on-live-thread")


#: The threads arrivals (a socket's first reads: who it is, its presence, its first frame) run
#: on beside the live thread, each on a pooled connection of its own while it works.
ARRIVAL_THREADS = 3
#: The arrivals' threads, and the process they belong to (a forked child starts its own).
_arrivals: tuple[int, ThreadPoolExecutor] | None = None


def _arrival_threads() -> ThreadPoolExecutor:
    global _arrivals
    if _arrivals is None or _arrivals[0] != os.getpid():
        _arrivals = (os.getpid(), ThreadPoolExecutor(ARRIVAL_THREADS, "arrivals"))
    return _arrivals[1]


def arrivals_in_parallel() -> bool:
    """Whether arrivals run beside the live thread: only where the database serves several
    connections at once from a bounded pool (PostgreSQL); SQLite's writers queue anyway."""
    database = settings.DATABASES["default"]
    return "pool" in database.get("OPTIONS", {})


async def run_arrival(func: Callable[[Unpack[Args]], T], *args: *Args) -> T:
    """Run an arrival's database work; beside the live thread where :func:`arrivals_in_parallel`.

    After a server's restart every page it held reconnects to the others at once: on the one
    live thread their reads would queue ahead of every move.
    """
    if not arrivals_in_parallel():
        return await database_sync_to_async(func)(*args)
    threads = _arrival_threads()
    return await database_sync_to_async(_arrival, thread_sensitive=False, executor=threads)(
        func, *args
    )


def _arrival(func: Callable[[Unpack[Args]], T], *args: *Args) -> T:
    _arriving.set(True)  # in this call's own copy of the caller's context
    return func(*args)


def stop_arrival_threads() -> None:
    """Close the arrival threads' connections and stop them (a test run's end: its
    communicators never let the threads close their connections)."""
    global _arrivals
    if _arrivals is None or _arrivals[0] != os.getpid():
        return
    threads, _arrivals = _arrivals[1], None
    together = threading.Barrier(ARRIVAL_THREADS)  # so that each thread takes one

    def close_here() -> None:
        together.wait()
        connections.close_all()

    for done in [threads.submit(close_here) for _ in range(ARRIVAL_THREADS)]:
        done.result()
    threads.shutdown()
