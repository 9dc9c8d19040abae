"""The channel layers: the in-memory layer's bounded sweep, the Redis layer's pool in a burst and
its queue for a busy process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets

import pytest
from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer
from redis.exceptions import MaxConnectionsError

from cardroom import layers


@pytest.mark.asyncio
async def test_expired_messages_and_groups_are_swept_at_most_once_per_interval(monkeypatch):
    clock = {"wall": 1000.0, "mono": 50.0}
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock["mono"])
    monkeypatch.setattr("channels.layers.time.time", lambda: clock["wall"])
    layer = layers.InMemoryChannelLayer(expiry=10)
    await layer.group_add("table.1", "a.inmemory!x")
    await layer.group_send("table.1", {"type": "table.changed"})  # sweeps (first time)
    assert "a.inmemory!x" in layer.channels

    clock["wall"] += 11  # the message has expired...
    half = layer.sweep_interval / 2
    clock["mono"] += half  # ...but the last sweep was half an interval ago: nothing is swept
    layer._clean_expired()
    assert "a.inmemory!x" in layer.channels
    assert "a.inmemory!x" in layer.groups["table.1"]

    clock["mono"] += half + 0.1  # past the interval: the next look sweeps it and its membership
    layer._clean_expired()
    assert "a.inmemory!x" not in layer.channels
    assert "a.inmemory!x" not in layer.groups["table.1"]


@pytest.mark.asyncio
async def test_a_group_message_reaches_every_member_as_its_own_copy():
    layer = layers.InMemoryChannelLayer(capacity=1)
    members = ["a.inmemory!x", "a.inmemory!y", "a.inmemory!z"]
    for name in members:
        await layer.group_add("table.1", name)
    await layer.send("a.inmemory!z", {"type": "filler"})  # z is full (capacity 1)
    await layer.group_send("table.1", {"type": "table.changed", "version": 3})
    got = [await layer.receive(name) for name in members]
    assert got[:2] == [{"type": "table.changed", "version": 3}] * 2
    assert got[0] is not got[1]
    assert got[2] == {"type": "filler"}  # a full channel misses the group message, no error
    assert layer.channels == {}  # drained channels are dropped
    nested = {"type": "chat", "lines": [{"text": "hi"}]}
    await layer.group_send("table.1", nested)
    first = await layer.receive("a.inmemory!x")
    first["lines"][0]["text"] = "changed"
    assert (await layer.receive("a.inmemory!y"))["lines"] == [{"text": "hi"}]
    with pytest.raises(ChannelFull):
        await layer.send("a.inmemory!z", {"type": "one"})
        await layer.send("a.inmemory!z", {"type": "two"})


REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(
    not REDIS_URL, reason="the Redis layer tests run with REDIS_URL set (the second CI pass)"
)


async def _join_and_leave(layer: ChannelsRedisChannelLayer, sockets: int) -> None:
    """``sockets`` channels join a group and leave it all at once, as sockets do after a restart."""
    try:
        names = [await layer.new_channel() for _ in range(sockets)]
        await asyncio.gather(*(layer.group_add("burst", name) for name in names))
        await asyncio.gather(*(layer.group_discard("burst", name) for name in names))
    finally:
        await layer.flush()
        await layer.close_pools()


def _layer(cls: type[ChannelsRedisChannelLayer]) -> ChannelsRedisChannelLayer:
    prefix = f"test-burst-{secrets.token_hex(4)}"
    return cls(hosts=[{"address": REDIS_URL, "max_connections": 2}], prefix=prefix)


@needs_redis
@pytest.mark.services
def test_a_burst_larger_than_the_pool_waits_for_free_connections():
    asyncio.run(_join_and_leave(_layer(layers.RedisChannelLayer), sockets=40))


@needs_redis
@pytest.mark.services
def test_channels_redis_own_pool_refuses_the_same_burst():
    """Why the layer exists: the stock pool fails group changes once every connection is busy."""
    with pytest.raises(MaxConnectionsError):
        asyncio.run(_join_and_leave(_layer(ChannelsRedisChannelLayer), sockets=40))


@needs_redis
@pytest.mark.services
def test_a_command_gives_up_when_no_connection_is_released_in_time():
    async def second_command_while_the_only_connection_is_held() -> None:
        pool = layers.WaitingConnectionPool.from_url(REDIS_URL, max_connections=1, timeout=0.2)
        held = await pool.get_connection()
        try:
            with pytest.raises(MaxConnectionsError):
                await pool.get_connection()
        finally:
            await pool.release(held)
            await pool.aclose()

    asyncio.run(second_command_while_the_only_connection_is_held())


@needs_redis
@pytest.mark.services
def test_a_receive_on_an_idle_channel_outlasts_its_blocking_wait():
    """The layer waits ``brpop_timeout`` seconds for a message at a time; a read of the socket
    must not give up first (redis-py's own default equals that wait)."""

    async def wait_on_an_idle_channel() -> None:
        layer = layers.RedisChannelLayer(
            hosts=[{"address": REDIS_URL}], prefix=f"test-idle-{secrets.token_hex(4)}"
        )
        try:
            pool = layer.create_pool(0)
            assert pool.connection_kwargs["socket_timeout"] > layer.brpop_timeout
            await pool.aclose()
            channel = await layer.new_channel()
            with pytest.raises(TimeoutError):  # ours: the layer's receive kept waiting
                async with asyncio.timeout(layer.brpop_timeout + 1.5):
                    await layer.receive(channel)
        finally:
            await layer.flush()
            await layer.close_pools()

    asyncio.run(wait_on_an_idle_channel())


async def _table_changes_while_busy(layer: ChannelsRedisChannelLayer, changes: int) -> int:
    """Send ``changes`` table changes to a group of one process's sockets that reads none of
    them meanwhile (a busy server), then count what one socket receives."""
    try:
        sockets = [await layer.new_channel() for _ in range(4)]
        for name in sockets:
            await layer.group_add("table.1", name)
        for version in range(changes):
            await layer.group_send("table.1", {"type": "table.changed", "version": version})
        received = 0
        with contextlib.suppress(TimeoutError):
            while received < changes:
                async with asyncio.timeout(2):
                    assert (await layer.receive(sockets[0]))["version"] == received
                received += 1
        return received
    finally:
        await layer.flush()
        await layer.close_pools()


def _plain_layer(cls: type[ChannelsRedisChannelLayer]) -> ChannelsRedisChannelLayer:
    return cls(hosts=[{"address": REDIS_URL}], prefix=f"test-busy-{secrets.token_hex(4)}")


@needs_redis
@pytest.mark.services
def test_a_busy_process_still_receives_every_change_of_its_tables():
    layer = _plain_layer(layers.RedisChannelLayer)
    assert asyncio.run(_table_changes_while_busy(layer, 300)) == 300


@needs_redis
@pytest.mark.services
def test_channels_redis_drops_the_changes_past_its_default_capacity():
    """Why the layer raises it: every socket of a process shares one queue of 100 messages."""
    layer = _plain_layer(ChannelsRedisChannelLayer)
    assert asyncio.run(_table_changes_while_busy(layer, 300)) == 100


class _Counted:
    """A layer's Redis connection that counts the commands sent through it."""

    def __init__(self, connection: object, counts: list[int]) -> None:
        self._connection = connection
        self._counts = counts

    def __getattr__(self, name: str) -> object:
        command = getattr(self._connection, name)

        def counted(*args: object, **kwargs: object) -> object:
            self._counts[0] += 1
            return command(*args, **kwargs)

        return counted


async def _changes_received(layer: ChannelsRedisChannelLayer, changes: int) -> tuple[int, int]:
    """Send ``changes`` table changes to two sockets of one process (one Redis message each),
    then receive them all: the number received in order, and the Redis commands it took."""
    try:
        sockets = [await layer.new_channel() for _ in range(2)]
        for name in sockets:
            await layer.group_add("table.1", name)
        for version in range(changes):
            await layer.group_send("table.1", {"type": "table.changed", "version": version})
        counts = [0]
        connection = layer.connection
        layer.connection = lambda index: _Counted(connection(index), counts)  # type: ignore[method-assign]
        received = 0
        for version in range(changes):
            for name in sockets:
                async with asyncio.timeout(10):
                    assert (await layer.receive(name))["version"] == version
                received += 1
        return received, counts[0]
    finally:
        await layer.flush()
        await layer.close_pools()


@needs_redis
@pytest.mark.services
def test_a_process_takes_its_sockets_messages_off_redis_many_at_a_time():
    received, commands = asyncio.run(_changes_received(_plain_layer(layers.RedisChannelLayer), 40))
    assert received == 80
    assert commands <= 2


@needs_redis
@pytest.mark.services
def test_channels_redis_takes_one_message_in_several_commands():
    """Why the layer takes many: one at a time, a crowded process fell behind its sockets."""
    received, commands = asyncio.run(_changes_received(_plain_layer(ChannelsRedisChannelLayer), 40))
    assert received == 80
    assert commands >= 40 * 3


async def _receive_while_a_socket_closes(layer: ChannelsRedisChannelLayer, changes: int) -> list:
    """Two sockets of a process receive ``changes`` messages each while a third keeps starting
    and abandoning receives (a socket closing mid-receive); what the two got, in order."""
    try:
        closing, *sockets = [await layer.new_channel() for _ in range(3)]
        for name in (closing, *sockets):
            await layer.group_add("table.1", name)
        got: dict[str, list[int]] = {name: [] for name in sockets}
        done = asyncio.Event()

        async def read(name: str) -> None:
            while len(got[name]) < changes:
                got[name].append((await layer.receive(name))["version"])

        async def abandon() -> None:
            while not done.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.0005):
                        await layer.receive(closing)

        quitter = asyncio.ensure_future(abandon())
        readers = [asyncio.ensure_future(read(name)) for name in sockets]
        for version in range(changes):
            await layer.group_send("table.1", {"type": "table.changed", "version": version})
        async with asyncio.timeout(60):
            await asyncio.gather(*readers)
        done.set()
        await quitter
        return [got[name] for name in sockets]
    finally:
        await layer.flush()
        await layer.close_pools()


@needs_redis
@pytest.mark.services
def test_a_receive_abandoned_mid_way_loses_no_other_socket_s_message():
    layer = _plain_layer(layers.RedisChannelLayer)
    got = asyncio.run(_receive_while_a_socket_closes(layer, 200))
    assert got == [list(range(200))] * 2
