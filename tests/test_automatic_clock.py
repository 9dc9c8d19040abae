"""When an automatic move is due follows from the table alone: sockets opening and closing at
the table (a spectator reconnecting over and over) never postpone a computer's move, a run-out
turn timer or the end of a deal's pause; and a table waiting on bot workers keeps asking, a full
channel of requests included, until its move is made."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.utils import timezone

from games.live import autoplay, thinking
from games.live.workers import BotWorker
from games.models import Match, Move, Table
from games.tables import matches, rows, seating

from .factories import make_players, match_of, start_with_dealer, table_with_bots
from .live import LIVE_MARKS, connect
from .test_deal_pause import PAUSED, play_deal
from .test_thinking import bot_table, until_my_turn

pytestmark = LIVE_MARKS

needs_redis = pytest.mark.skipif(
    not django_settings.REDIS_URL, reason="bot workers need a shared channel layer (REDIS_URL)"
)

#: Longer than any of these tests takes on a busy machine: only a guard against a hang.
HANG_GUARD = 60
#: The delay before a computer's move: far longer than a reconnect takes, even on a busy
#: machine (each reconnect used to start it again).
DELAY = 3.0
EASY_BOTS = ("easy", "easy", "easy")


async def churn_until(user, table: Table, done: Callable[[], bool]) -> int:
    """Open and close ``user``'s socket at ``table`` over and over, as fast as they go, until
    ``done()`` (called in a thread) holds; how many times it connected."""
    loop = asyncio.get_running_loop()
    guard = loop.time() + HANG_GUARD
    connects = 0
    while not await sync_to_async(done)():
        # Not asyncio.timeout: a communicator's own timeouts may swallow its cancellation.
        if loop.time() > guard:
            pytest.fail(f"still waiting after {connects} reconnects")
        socket = await connect(user, f"/ws/table/{table.code}/")
        await socket.disconnect()
        connects += 1
    return connects


def automatic_moves(table: Table) -> int:
    return Move.objects.filter(match__table=table, user=None).count()


@contextlib.asynccontextmanager
async def own_redis_layer(settings, **config: Any) -> AsyncIterator[Any]:
    """A Redis channel layer under a key prefix of this test's own (nothing else using the same
    Redis reads its channels), with ``config`` added; its keys are deleted afterwards."""
    default = settings.CHANNEL_LAYERS["default"]
    prefix = f"clock-{uuid.uuid4().hex[:12]}:"
    settings.CHANNEL_LAYERS = {
        "default": {**default, "CONFIG": {**default["CONFIG"], "prefix": prefix, **config}}
    }
    layer = get_channel_layer()
    try:
        yield layer
    finally:
        await layer.flush()


@contextlib.asynccontextmanager
async def bot_worker(layer) -> AsyncIterator[None]:
    """A bot worker (``games.live.workers.BotWorker``) on this test's event loop, reading the
    bot-moves channel of ``layer``; on leaving, a move it is making is finished first."""
    stopping = False

    async def work() -> None:
        while True:
            message = await layer.receive(thinking.CHANNEL)
            if stopping:
                return
            await BotWorker().bot_move(message)

    task = asyncio.ensure_future(work())
    try:
        yield
    finally:
        stopping = True
        # Wake a receive rather than cancel it: a cancelled Redis receive may not return.
        with contextlib.suppress(ChannelFull):  # full: the worker has a message to wake it
            await layer.send(thinking.CHANNEL, {"type": "stop"})
        await task


def watch_sends(monkeypatch, layer) -> tuple[list[dict[str, Any]], asyncio.Event]:
    """The requests ``layer`` sends to the bot workers, and an event set once one found the
    channel full."""
    sent: list[dict[str, Any]] = []
    full = asyncio.Event()
    send = layer.send

    async def watched(channel: str, message: dict[str, Any]) -> None:
        try:
            await send(channel, message)
        except ChannelFull:
            full.set()
            raise
        if channel == thinking.CHANNEL and message["type"] == "bot.move":
            sent.append(message)

    monkeypatch.setattr(layer, "send", watched)
    return sent, full


async def test_a_computers_move_is_due_a_delay_after_the_last_move_however_often_it_is_read(
    settings,
):
    settings.BOT_DELAY_SECONDS = 5
    owner, spectator = await sync_to_async(make_players)(2)
    table = await sync_to_async(table_with_bots)(owner, EASY_BOTS)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=0)  # seat 1, a computer
    due = max(match.moved_at, match.turn_started_at) + timedelta(seconds=5)  # its start
    assert (await sync_to_async(autoplay.pending_move)(table.pk)).due == due
    socket = await connect(spectator, f"/ws/table/{table.code}/")
    await socket.disconnect()
    assert (await sync_to_async(autoplay.pending_move)(table.pk)).due == due


async def test_computers_keep_moving_while_a_spectator_reconnects(settings):
    settings.BOT_DELAY_SECONDS = DELAY
    owner, spectator = await sync_to_async(make_players)(2)
    table = await sync_to_async(table_with_bots)(owner, EASY_BOTS)
    await sync_to_async(start_with_dealer)(table, owner, dealer=0)  # seat 1, a computer
    await churn_until(spectator, table, lambda: automatic_moves(table) >= 2)


@needs_redis
async def test_computers_keep_moving_on_workers_while_a_spectator_reconnects(settings, monkeypatch):
    """Each reconnect makes the table's driver look again: it waits for the worker it asked,
    rather than asking again at once."""
    settings.BOT_DELAY_SECONDS = DELAY
    settings.BOTS_IN_WORKERS = True
    settings.BOT_ANSWER_SECONDS = HANG_GUARD  # a request is never asked again for want of answer
    async with own_redis_layer(settings) as layer:
        sent, _ = watch_sends(monkeypatch, layer)
        owner, spectator = await sync_to_async(make_players)(2)
        table = await sync_to_async(table_with_bots)(owner, EASY_BOTS)
        await sync_to_async(start_with_dealer)(table, owner, dealer=0)  # seat 1, a computer
        async with bot_worker(layer):
            await churn_until(spectator, table, lambda: automatic_moves(table) >= 2)
        versions = [message["version"] for message in sent]
        assert versions[:2] == [0, 1] and len(set(versions)) == len(versions)  # each asked once


async def test_a_turn_timer_runs_out_while_a_spectator_reconnects(settings):
    settings.BOT_DELAY_SECONDS = DELAY
    owner, spectator = await sync_to_async(make_players)(2)
    table = await sync_to_async(table_with_bots)(owner, EASY_BOTS, turn_seconds=15)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=3)  # the human first
    # The owner's turn runs out in a second (a shorter timer than a table may have).
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_started_at=timezone.now() - timedelta(seconds=14)
    )
    await churn_until(spectator, table, lambda: Move.objects.filter(match=match, seat=0).exists())
    move = await sync_to_async(Move.objects.get)(match=match, seat=0)
    assert move.user_id is None  # a computer made it for the owner


async def test_a_deals_pause_ends_while_a_spectator_reconnects(settings):
    settings.BOT_DELAY_SECONDS = DELAY
    owner, spectator = await sync_to_async(make_players)(2)

    def paused() -> tuple[Table, Match]:
        table = rows.create_table(owner, "belote", PAUSED, is_private=True)
        seating.fill_with_bots(table.pk, owner, "easy")
        matches.start_match(table.pk, owner)
        match = play_deal(table, [owner, None, None, None])
        # The result shows for another second (a shorter pause than a table may have).
        Match.objects.filter(pk=match.pk).update(paused_until=timezone.now() + timedelta(seconds=1))
        return table, match

    table, match = await sync_to_async(paused)()
    assert match.paused_until is not None
    await churn_until(
        spectator,
        table,
        lambda: Match.objects.get(pk=match.pk).paused_until is None,
    )


@needs_redis
async def test_a_table_asks_again_once_a_full_channel_of_requests_has_room(
    settings, monkeypatch, caplog
):
    """The workers were away for longer than their channel holds requests: the table's driver
    keeps asking, and once a worker is back the computers move, though nobody reconnected."""
    settings.BOTS_IN_WORKERS = True
    settings.BOT_ANSWER_SECONDS = 0.5
    async with own_redis_layer(settings, channel_capacity={thinking.CHANNEL: 1}) as layer:
        _, full = watch_sends(monkeypatch, layer)
        owner = (await sync_to_async(make_players)(1))[0]
        table = await sync_to_async(bot_table)(owner)
        # The channel holds a request no worker can answer any more (the match moved on).
        stale = autoplay.Pending(table.pk, -1, 1, "normal", timezone.now(), False)
        await layer.send(thinking.CHANNEL, autoplay.request(stale))
        socket = await connect(owner, f"/ws/table/{table.code}/")
        try:
            async with asyncio.timeout(HANG_GUARD):
                await full.wait()
            assert (await sync_to_async(match_of)(table)).version == 0
            async with bot_worker(layer):
                match = await until_my_turn(socket, table)
            assert match.version == 3  # the three computers called
        finally:
            await socket.disconnect()
    assert "asks again later" in caplog.text
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
