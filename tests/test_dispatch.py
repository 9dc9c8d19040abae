"""Our consumers dispatch without Channels' per-message database hop (see games.dispatch)."""

from __future__ import annotations

import pytest

from games.consumers import LobbyConsumer, TableConsumer
from games.consumers_bench import FanOutConsumer


@pytest.mark.parametrize("consumer", [TableConsumer, LobbyConsumer, FanOutConsumer])
@pytest.mark.asyncio
async def test_dispatch_calls_the_handler_without_a_database_hop(consumer, monkeypatch):
    hops = []

    async def close_old_connections_hop():
        hops.append(1)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", close_old_connections_hop)
    instance = consumer()
    seen = []

    async def handler(message):
        seen.append(message)

    instance.table_changed = handler
    await instance.dispatch({"type": "table.changed", "event": "e1"})
    assert seen == [{"type": "table.changed", "event": "e1"}]
    assert hops == []
    with pytest.raises(ValueError, match="No handler"):
        await instance.dispatch({"type": "no.such.event"})
