"""``/healthz``: checks the database and the channel layer for real."""

from __future__ import annotations

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

#: How long the channel-layer round trip may take before it counts as down.
LAYER_TIMEOUT = 2.0


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _check_channel_layer() -> None:
    """Send a message to a fresh group and read it back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    group = f"healthz.{uuid.uuid4().hex}"
    nonce = uuid.uuid4().hex
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "health.ping", "nonce": nonce})
        message = await asyncio.wait_for(layer.receive(channel), LAYER_TIMEOUT)
    finally:
        await layer.group_discard(group, channel)
    if message.get("nonce") != nonce:
        raise RuntimeError("channel layer returned a different message")


async def healthz(request: HttpRequest) -> JsonResponse:
    """Return ``{"status": "ok", "checks": {...}}`` with 200, or 503 when a check fails."""
    checks: dict[str, str] = {}
    try:
        await sync_to_async(_check_database)()
        checks["database"] = "ok"
    except Exception as exc:
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        await _check_channel_layer()
        checks["channel_layer"] = "ok"
    except Exception as exc:
        checks["channel_layer"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks},
        status=200 if healthy else 503,
    )
