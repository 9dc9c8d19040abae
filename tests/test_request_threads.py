"""HTTP requests run their sync code on reused threads, not a new thread each."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started

from cardroom.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

#: Requests sent at once: several times the threads a process runs them on.
REQUESTS = 30


@pytest.mark.asyncio
async def test_requests_run_on_reused_threads() -> None:
    served_on: list[str] = []

    def note_thread(**kwargs: object) -> None:
        served_on.append(threading.current_thread().name)

    request_started.connect(note_thread)
    try:
        answers = await asyncio.gather(
            *(
                HttpCommunicator(
                    application, "GET", "/rules/belote/", headers=[(b"host", b"localhost")]
                ).get_response(timeout=120)
                for _ in range(REQUESTS)
            )
        )
    finally:
        request_started.disconnect(note_thread)

    assert [answer["status"] for answer in answers] == [200] * REQUESTS
    assert len(served_on) == REQUESTS
    assert all(name.startswith("http-") for name in served_on), set(served_on)

    # One after another, the requests reuse one idle thread rather than start their own.
    served_on.clear()
    request_started.connect(note_thread)
    try:
        for _ in range(5):
            answer = await HttpCommunicator(
                application, "GET", "/rules/belote/", headers=[(b"host", b"localhost")]
            ).get_response(timeout=120)
            assert answer["status"] == 200
    finally:
        request_started.disconnect(note_thread)
    assert len(set(served_on)) == 1, served_on
