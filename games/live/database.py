"""The live thread's database connection: kept, where every other one is closed after its work.

Every socket of a process reaches the database through ``database_sync_to_async``, which runs
each call, one after the other, on one thread (asgiref's single thread executor). Taking a
connection from the pool for each call and handing it back after made a move's round trip four
times slower under load (``manage.py loadtest``, docs/benchmarks.md), so that thread keeps the
connection it opens: one a process, inside the pool's bound (``DB_POOL_SIZE``). Requests run in
threads of their own and close theirs when they end (``CONN_MAX_AGE`` 0).
"""

from __future__ import annotations

from asgiref.sync import SyncToAsync
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created


def on_live_thread() -> bool:
    """Whether this is the thread that runs the sockets' database work."""
    # asgiref marks the work it hands its one shared thread so; a request's thread has its own.
    return SyncToAsync.deadlock_context.get(False)


def keep_on_live_thread(
    sender: type[BaseDatabaseWrapper], connection: BaseDatabaseWrapper, **kwargs: object
) -> None:
    """Let a connection opened on the live thread outlive its work (``connection_created``)."""
    if on_live_thread():
        connection.close_at = None


def connect() -> None:
    connection_created.connect(keep_on_live_thread, dispatch_uid="keep-on-live-thread")
