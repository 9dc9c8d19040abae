"""Where computer players think: off the web process's event loop and threads.

Two ways, chosen by ``BOTS_IN_WORKERS`` (on by default when ``REDIS_URL`` is set):

- **Workers.** The table's driver sends the move it waits for to the :data:`CHANNEL` channel;
  a Channels worker (``manage.py runworker bot-moves``: any number, on any machine) reads the
  seat's view, asks the bot and makes its move through ``games.live.moves`` like any
  move (``games.live.workers``). A request that no move answers within
  ``BOT_ANSWER_SECONDS`` (its worker died mid-thought, or none runs yet) is sent again, as is
  one the channel was too full to take.
- **A process pool** of this server (``BOT_PROCESSES`` processes; 0 runs the bot in a thread
  of this process instead, for tests): the driver awaits the action and applies it.

Either way a bot's CPU never competes with the players' moves on the web process.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from concurrent.futures.process import BrokenProcessPool

from asgiref.sync import sync_to_async
from django.conf import settings

from cardroom import metrics

from .. import processes
from ..bots import Bot

#: The channel the bot workers read (``manage.py runworker bot-moves``).
CHANNEL = "bot-moves"


async def think(bot: Bot, view: Mapping[str, object], rng: random.Random) -> str:
    """The bot's action for ``view``, worked out in the pool (asked again, in a new pool,
    when a thinking process died)."""
    with metrics.waiting("bot"):
        return await _think(bot, view, rng)


async def _think(bot: Bot, view: Mapping[str, object], rng: random.Random) -> str:
    budget = settings.BOT_BUDGET
    if not settings.BOT_PROCESSES:
        return await sync_to_async(bot, thread_sensitive=False)(view, rng, budget)
    loop = asyncio.get_running_loop()
    for attempt in range(3):
        pool = processes.pool()
        try:
            return await loop.run_in_executor(pool, bot, view, rng, budget)
        except BrokenProcessPool:
            processes.forget(pool)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
