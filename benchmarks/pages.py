"""The benchmark behind ``python manage.py bench pages``: the CPU an anonymous page view costs.

Each page the soak's visitors open (:func:`benchmarks.soak.visitor_paths`) is served many times
by the site's ASGI application in this process, as daphne would call it, and by Django's
synchronous handler (the test client), the floor that the ASGI handler's thread hops add to.
Only this process's CPU time is counted, so a busy machine moves the figures little.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass
from typing import Any

from django.test import Client

from .soak import visitor_paths

#: Views of each page before the count starts (templates compiled, caches warm).
WARM_UP = 5
HOST = "127.0.0.1"


@dataclass
class PageCost:
    """One page's status and CPU milliseconds a view, through each handler."""

    path: str
    status: int
    asgi_ms: float
    sync_ms: float


async def _asgi_get(application: Any, path: str) -> int:
    """GET ``path`` from ``application`` as an anonymous visitor; the answer's status."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", HOST.encode()), (b"accept-language", b"en")],
        "client": (HOST, 40000),
        "server": (HOST, 8000),
    }
    asked = False
    answers: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the visitor stays until answered
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    await application(scope, receive, send)
    return answers[0]["status"]


async def _asgi_cost(application: Any, path: str, views: int) -> tuple[int, float]:
    for _ in range(WARM_UP):
        await _asgi_get(application, path)
    started = time.process_time()
    for _ in range(views):
        status = await _asgi_get(application, path)
    return status, (time.process_time() - started) * 1000 / views


def _sync_cost(client: Client, path: str, views: int) -> float:
    for _ in range(WARM_UP):
        client.get(path)
    started = time.process_time()
    for _ in range(views):
        client.get(path)
    return (time.process_time() - started) * 1000 / views


def run(views: int) -> list[PageCost]:
    """Serve each visitor page ``views`` times through each handler."""
    from cardroom.asgi import application

    client = Client(HTTP_HOST=HOST, HTTP_ACCEPT_LANGUAGE="en")
    costs = []
    for path in visitor_paths():
        status, asgi_ms = asyncio.run(_asgi_cost(application, path, views))
        costs.append(PageCost(path, status, asgi_ms, _sync_cost(client, path, views)))
    return costs


def format_costs(costs: list[PageCost]) -> str:
    """The table the command prints, with the mean over the pages."""
    lines = [f"{'page':<28} {'status':>6} {'asgi ms':>8} {'sync ms':>8}"]
    for cost in costs:
        lines.append(f"{cost.path:<28} {cost.status:>6} {cost.asgi_ms:>8.2f} {cost.sync_ms:>8.2f}")
    asgi = sum(cost.asgi_ms for cost in costs) / len(costs)
    sync = sum(cost.sync_ms for cost in costs) / len(costs)
    lines.append(f"{'mean':<28} {'':>6} {asgi:>8.2f} {sync:>8.2f}")
    return "\n".join(lines)


def as_dicts(costs: list[PageCost]) -> list[dict[str, Any]]:
    return [asdict(cost) for cost in costs]
