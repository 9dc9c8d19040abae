"""Our consumers dispatch without Channels' per-message database hop, from long-lived source
tasks (see games.live.dispatch)."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest
from channels.exceptions import StopConsumer

from games.live.consumers import LobbyConsumer, TableConsumer
from games.live.dispatch import dispatch_from


@pytest.mark.parametrize("consumer", [TableConsumer, LobbyConsumer])
@pytest.mark.asyncio
async def test_dispatch_calls_the_handler_without_a_database_hop(consumer, monkeypatch):
    await dispatches_without_a_database_hop(consumer, monkeypatch)


async def dispatches_without_a_database_hop(consumer, monkeypatch) -> None:
    """``consumer`` hands a message to its handler with no database hop (the benchmarks' floor
    is checked the same way, in tests/benchmarks)."""
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


async def _source(queue: asyncio.Queue):
    return await queue.get()


@pytest.mark.asyncio
async def test_dispatch_from_hands_over_each_source_in_order_one_message_at_a_time():
    client, layer = asyncio.Queue(), asyncio.Queue()
    handled, running, overlaps, left = [], [], [], []
    finished = asyncio.Event()

    async def dispatch(message):
        running.append(message)
        overlaps.append(len(running) > 1)
        left.append((client.qsize(), layer.qsize()))  # not yet taken from each source
        await asyncio.sleep(0)  # a handler that awaits: the next message waits for it
        handled.append(message["n"])
        running.pop()
        if len(handled) == 6:
            finished.set()

    task = asyncio.ensure_future(
        dispatch_from([partial(_source, client), partial(_source, layer)], dispatch)
    )
    for n in range(3):  # all queued before the loop first runs
        client.put_nowait({"n": f"c{n}"})
        layer.put_nowait({"n": f"l{n}"})
    await asyncio.wait_for(finished.wait(), 5)
    assert not any(overlaps)  # one message at a time, as Channels' loop
    assert [n for n in handled if n[0] == "c"] == ["c0", "c1", "c2"]
    assert [n for n in handled if n[0] == "l"] == ["l0", "l1", "l2"]
    # While the first message is handled, each source has given at most one more (the loop
    # does not drain the channel layer's bounded queue into a buffer of its own).
    assert left[0][0] >= 1 and left[0][1] >= 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.asyncio
async def test_dispatch_from_stops_its_sources_when_the_consumer_stops():
    client, layer = asyncio.Queue(), asyncio.Queue()
    waiting = []

    async def watched(queue):
        waiting.append(queue)
        try:
            return await queue.get()
        finally:
            waiting.remove(queue)

    async def dispatch(message):
        raise StopConsumer

    client.put_nowait({"type": "websocket.disconnect"})
    with pytest.raises(StopConsumer):
        await dispatch_from([partial(watched, client), partial(watched, layer)], dispatch)
    assert waiting == []  # no source is left receiving


@pytest.mark.asyncio
async def test_dispatch_from_raises_a_source_error():
    async def broken():
        raise RuntimeError("layer down")

    async def dispatch(message):
        pass

    never = asyncio.Queue()
    with pytest.raises(RuntimeError, match="layer down"):
        await asyncio.wait_for(dispatch_from([partial(_source, never), broken], dispatch), 5)
