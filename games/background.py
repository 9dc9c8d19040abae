"""A thread of this process for work no request waits for (an over event's deal reviews):
one job at a time, each queued at most once however often it is asked for."""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable, Hashable

from django.db import connections

logger = logging.getLogger(__name__)

_jobs: queue.Queue[tuple[Hashable, Callable[[], None]]] = queue.Queue()
_queued: set[Hashable] = set()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def run_later(key: Hashable, work: Callable[[], None]) -> bool:
    """Have ``work()`` run in this process's background thread, unless the job ``key`` is
    queued or running already (then False)."""
    global _thread
    with _lock:
        if key in _queued:
            return False
        _queued.add(key)
        _jobs.put((key, work))
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="cardroom-background", daemon=True)
            _thread.start()
    return True


def _run() -> None:
    while True:
        key, work = _jobs.get()
        try:
            work()
        except Exception:
            logger.exception("background job %s failed", key)
        finally:
            # This thread's own connections: none stays open between jobs.
            connections.close_all()
            with _lock:
                _queued.discard(key)
            _jobs.task_done()


def _forget() -> None:
    """A forked process starts with no jobs and no thread of its own yet."""
    global _jobs, _queued, _lock, _thread
    _jobs, _queued, _lock, _thread = queue.Queue(), set(), threading.Lock(), None


os.register_at_fork(after_in_child=_forget)


def wait() -> None:
    """Return once every job queued so far is done (tests, and a command before it exits)."""
    _jobs.join()
