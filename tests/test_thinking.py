"""Computer players think off the web process: in a process pool of the server, or in Channels
workers (``manage.py runworker bot-moves``) with Redis; a thinker that dies loses no move."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.utils import timezone

from games import processes
from games.catalog import get_game
from games.engines import belote
from games.live import autoplay, notify, thinking
from games.live.workers import BotWorker
from games.models import Match, Seat
from games.tables import matches, play, rows

from . import servers, thinking_bots
from .factories import OPTIONS, make_players, match_of
from .live import LIVE_MARKS, connect

pytestmark = LIVE_MARKS


def bot_table(owner, level: str = "normal"):
    """A Belote table: ``owner`` in seat 0, computers in the others, its match started with a
    computer to act first."""
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True)
    Seat.objects.filter(table=table).exclude(index=0).update(bot_level=level)
    match = matches.start_match(table.pk, owner)
    state = belote.new_game(seed=match.seed, dealer=0, **OPTIONS)  # seat 1 calls first
    Match.objects.filter(pk=match.pk).update(state=belote.dumps(state))
    return table


async def until_my_turn(socket, table) -> Match:
    """Frames until the computers have called round to seat 0 (a worker process may be
    starting: its first move can take longer than a frame usually does)."""
    async with asyncio.timeout(60):
        while True:
            match = await sync_to_async(match_of)(table)
            if belote.loads(match.state).to_act == 0:
                return match
            # receive_nothing() waits without cancelling the application.
            if not await socket.receive_nothing(timeout=0.5):
                await socket.receive_from()


@pytest.fixture
def pool(settings):
    settings.BOT_PROCESSES = 1
    yield
    processes.shutdown()


async def computers_call_round(monkeypatch, bot) -> Match:
    """A table whose normal computers play ``bot`` (from ``tests.thinking_bots``, which the
    pool's processes import), once they have called round to the human in seat 0."""
    monkeypatch.setitem(get_game("belote").bots, "normal", bot)
    owner = (await sync_to_async(make_players)(1))[0]
    table = await sync_to_async(bot_table)(owner)
    socket = await connect(owner, f"/ws/table/{table.code}/")
    try:
        return await until_my_turn(socket, table)
    finally:
        await socket.disconnect()


async def test_the_pool_thinks_in_another_process(pool, monkeypatch, tmp_path):
    marker = tmp_path / "thinker"
    monkeypatch.setenv("THINKER_MARKER", str(marker))
    match = await computers_call_round(monkeypatch, thinking_bots.where)
    assert match.version == 3  # three computers called
    assert int(marker.read_text()) != os.getpid()


async def test_a_pool_process_that_dies_mid_thought_loses_no_move(pool, monkeypatch, tmp_path):
    marker = tmp_path / "died"
    monkeypatch.setenv("DIES_ONCE_MARKER", str(marker))
    match = await computers_call_round(monkeypatch, thinking_bots.dies_once)
    assert marker.exists()  # a thinking process died once
    assert match.version == 3  # and every computer's call was made all the same


def start_worker() -> subprocess.Popen:
    """``manage.py runworker bot-moves`` over the test database and Redis."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.test_settings",
        "DATABASE_URL": servers.test_database_url(),
        "LOG_LEVEL": "WARNING",
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "runworker", thinking.CHANNEL],
        cwd=servers.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def unanswered_request(table, version: int | None = None) -> dict:
    """The next request for a computer's move at ``table`` (at ``version``, if given), taken
    off the workers' channel and left unanswered, as a worker that dies at once would."""
    layer = get_channel_layer()
    async with asyncio.timeout(30):
        while True:
            message = await layer.receive(thinking.CHANNEL)
            if message["table"] == table.pk and (version is None or message["version"] == version):
                return message


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="bot workers need a shared channel layer")
async def test_workers_think_and_move_and_a_lost_request_is_asked_again(settings):
    settings.BOTS_IN_WORKERS = True
    settings.BOT_ANSWER_SECONDS = 1
    owner = (await sync_to_async(make_players)(1))[0]
    table = await sync_to_async(bot_table)(owner)
    socket = await connect(owner, f"/ws/table/{table.code}/")
    # No worker runs yet: the request goes unanswered, and the driver asks again.
    first = await unanswered_request(table)
    assert await unanswered_request(table) == first
    assert (await sync_to_async(match_of)(table)).version == first["version"] == 0
    worker = start_worker()
    try:
        match = await until_my_turn(socket, table)
        assert match.version == 3
        # The worker dies; a new one takes over the next requests.
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        state = belote.loads(match.state)
        call = belote.legal_actions(state, 0)[0]
        await sync_to_async(play.apply_action)(table.pk, owner, call, match.version)
        await notify.send(notify.table_group(table.pk), notify.table_changed())
        # The next request is lost, as if it had reached the dead worker.
        to_act = belote.loads((await sync_to_async(match_of)(table)).state).to_act
        assert (await unanswered_request(table, version=4))["seat"] == to_act
        assert (await sync_to_async(match_of)(table)).version == 4
        worker = start_worker()
        match = await until_my_turn(socket, table)
        assert match.version > 4  # the computers called again, round to seat 0
    finally:
        worker.kill()
        worker.wait(timeout=10)
        await socket.disconnect()


async def test_a_worker_whose_match_ended_while_it_thought_drops_the_move_quietly(
    monkeypatch, caplog
):
    """The match may end (or be aborted) while a worker thinks: the worker drops the move, as
    it does one another move overtook, without logging an error."""
    owner = (await sync_to_async(make_players)(1))[0]
    table = await sync_to_async(bot_table)(owner)
    match = await sync_to_async(match_of)(table)
    choose = autoplay.choose_action

    def choose_while_the_match_is_aborted(pending):
        action = choose(pending)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
        return action

    monkeypatch.setattr(autoplay, "choose_action", choose_while_the_match_is_aborted)
    pending = autoplay.Pending(table.pk, match.version, 1, "normal", timezone.now(), False)
    await BotWorker().bot_move(autoplay.request(pending))
    ended = await sync_to_async(match_of)(table)
    assert (ended.version, ended.state) == (match.version, match.state)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
