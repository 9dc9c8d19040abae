"""The load benchmark's server side: the floor, and a collection before each measured window.

Routed only by the benchmarks' own ASGI application (``benchmarks.asgi``), which
``python manage.py loadtest`` starts its servers with. The floor is a bare group fan-out with
no database, engine or templates: a client frame is sent to the connection's group; every
member of the group sends it back to its own socket unchanged.
"""

from __future__ import annotations

import gc
import json
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from cardroom.restart import ClosesOnRestart
from games.live.dispatch import DirectDispatchMixin

#: Largest frame the floor relays, in characters.
MAX_FRAME = 200


class FanOutConsumer(ClosesOnRestart, DirectDispatchMixin, AsyncWebsocketConsumer):
    """One socket of a floor "table": ``/ws/bench/<group>/``."""

    group = ""

    async def connect(self) -> None:
        self.group = f"bench.{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if text_data and len(text_data) <= MAX_FRAME:
            event = {"type": "bench.echo", "text": text_data}
            await self.channel_layer.group_send(self.group, event)

    async def bench_echo(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


class CollectConsumer(ClosesOnRestart, AsyncWebsocketConsumer):
    """``/ws/bench-collect/``: run a full garbage collection now and say how long it took.

    A benchmark step connects all its sockets at once; the collector pays for what they leave
    behind in collections of up to several hundred milliseconds, and without this the next of
    them may fall inside the measured window or not (the knee then moves between runs). The
    load benchmark asks for it once the server is idle after connecting, and reports the pause.
    """

    async def connect(self) -> None:
        await self.accept()
        started = time.perf_counter()
        collected = gc.collect()
        elapsed_ms = (time.perf_counter() - started) * 1000
        await self.send(text_data=json.dumps({"collected": collected, "ms": elapsed_ms}))
        await self.close()
