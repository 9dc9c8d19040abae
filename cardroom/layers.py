"""The channel layers: in memory when no ``REDIS_URL`` is set (one server process), else Redis.

Channels' own in-memory layer sweeps every channel and every group for expired entries on each
``receive`` and ``group_send``: work that grows with the open sockets, for every message. This
layer sweeps at most once per :attr:`sweep_interval` seconds instead; a message may then
outlive its expiry by up to that interval. It also delivers a group message to its members one
after the other (Channels starts a task per member and waits for them with ``as_completed``,
though a send never waits), builds a queue only for a channel that has none, and copies a
message of plain values with ``dict()`` rather than ``deepcopy`` (each receiver still gets its
own copy).

channels-redis gives each process a pool of Redis connections that refuses a command once
``max_connections`` are busy (redis-py's plain pool raises ``MaxConnectionsError``). A burst of
more sockets than that leaving or joining at once then loses group changes and connections.
This layer's pool makes such a command wait for a free connection instead. (redis-py's
``BlockingConnectionPool`` does that too, but takes a lock and a timeout for every command;
this pool pays only when every connection is busy.)
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer
from redis.asyncio import ConnectionPool
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import MaxConnectionsError


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    """Channels' in-memory layer with a time-bounded sweep of expired messages and groups."""

    #: Seconds between two sweeps of expired messages and group memberships.
    sweep_interval = 5.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def send(self, channel: str, message: dict[str, object]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    def _put(self, channel: str, message: dict[str, object]) -> None:
        """Queue a copy of ``message`` for ``channel`` (a name checked already)."""
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, _copied(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel: str) -> dict[str, object]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty():
                self.channels.pop(channel, None)
        return message

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        assert "__asgi_channel__" not in message
        self._clean_expired()
        # The members' names were checked as they joined.
        for channel in list(self.groups.get(group, ())):
            # As in Channels' layer, a full channel misses the group message.
            with contextlib.suppress(ChannelFull):
                self._put(channel, message)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _copied(message: dict[str, object]) -> dict[str, object]:
    """A receiver's own copy of ``message``, as if it had been serialized."""
    if _PLAIN.issuperset(map(type, message.values())):
        return dict(message)
    return copy.deepcopy(message)


class WaitingConnectionPool(ConnectionPool):
    """redis-py's connection pool, except that a command finding every connection busy waits.

    It waits for a connection to be released, up to ``timeout`` seconds, then raises
    ``MaxConnectionsError`` as the plain pool does at once.
    """

    def __init__(self, *args: object, timeout: float = 20.0, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.timeout = timeout
        self._released: asyncio.Event | None = None

    async def get_connection(self, *args: object, **kwargs: object) -> AbstractConnection:
        deadline: float | None = None
        while True:
            try:
                return await super().get_connection(*args, **kwargs)
            except MaxConnectionsError:
                if deadline is None:
                    deadline = asyncio.get_running_loop().time() + self.timeout
                if self._released is None:
                    self._released = asyncio.Event()
                try:
                    async with asyncio.timeout_at(deadline):
                        await self._released.wait()
                except TimeoutError:
                    raise MaxConnectionsError("Too many connections") from None

    async def release(self, connection: AbstractConnection) -> None:
        await super().release(connection)
        if self._released is not None:
            self._released.set()
            self._released = None


class RedisChannelLayer(ChannelsRedisChannelLayer):
    """channels-redis's layer whose connection pools wait for a free connection when all are busy,
    whose processes each queue up to :attr:`process_capacity` messages, and take them off Redis
    :attr:`receive_batch` at a time.

    Each entry of ``hosts`` is a dict with an ``address`` (a ``redis://`` URL) and optionally
    ``max_connections`` and ``timeout`` (seconds to wait for a free connection, default 20).
    """

    #: Messages waiting for one process's sockets, at most. channels-redis keeps them all in one
    #: Redis key per process and silently drops a group message past the channel capacity (100
    #: by default): a server busy for half a second under a crowd lost its players' frames.
    process_capacity = 5000
    #: Messages for one process's sockets taken off Redis in one round trip, at most.
    #: channels-redis takes one in four round trips (it keeps a copy against a cancelled
    #: receive), and a crowded process then read its sockets' messages slower than they came.
    receive_batch = 100

    def __init__(
        self, *args: object, channel_capacity: dict | None = None, **kwargs: object
    ) -> None:
        capacities = {"specific.*": self.process_capacity, **(channel_capacity or {})}
        super().__init__(*args, channel_capacity=capacities, **kwargs)
        #: Per process channel, the messages taken off Redis and not yet handed out.
        self._taken: dict[str, collections.deque[tuple[str, dict]]] = {}
        self._taking: dict[str, asyncio.Future[None]] = {}

    async def receive_single(self, channel: str) -> tuple[str, dict]:
        """The next message of ``channel``: for a process's sockets, from a batch taken off
        Redis in one round trip; for other channels (the bot workers'), as channels-redis does,
        one at a time, so that an idle worker is not left waiting while another holds many."""
        if "!" not in channel:
            return await super().receive_single(channel)
        taken = self._taken.setdefault(channel, collections.deque())
        while not taken:
            taking = self._taking.get(channel)
            if taking is None or taking.done():
                taking = self._taking[channel] = asyncio.ensure_future(self._take(channel, taken))
            # A receive cancelled meanwhile leaves the batch to the next: nothing taken is lost.
            await asyncio.shield(taking)
        return taken.popleft()

    async def _take(self, channel: str, taken: collections.deque[tuple[str, dict]]) -> None:
        key = self.prefix + channel
        connection = self.connection(self.consistent_hash(channel))
        members = await connection.zpopmin(key, self.receive_batch)
        if not members:
            popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            members = [] if popped is None else [(popped[1], popped[2])]
        for member, _score in members:
            message = self.deserialize(member)
            taken.append((message.pop("__asgi_channel__", channel), message))

    async def flush(self) -> None:
        for taking in self._taking.values():
            taking.cancel()
        self._taking.clear()
        self._taken.clear()
        await super().flush()

    def create_pool(self, index: int) -> WaitingConnectionPool:
        host = dict(self.hosts[index])
        # redis-py times a read out after 5 s by default, as long as the layer's blocking
        # receive waits on an idle channel: that receive would fail instead of returning empty.
        host.setdefault("socket_timeout", 3 * self.brpop_timeout)
        return WaitingConnectionPool.from_url(host.pop("address"), **host)
