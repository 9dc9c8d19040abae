"""The bot worker: ``manage.py runworker bot-moves`` thinks and moves for computer players.

Each message on the channel (``games.live.thinking``) names a table, the match version and the
seat that owes a move. The worker reads that seat's view, asks the bot and makes the move
through ``games.live.moves`` like any move (the version check makes a move asked twice apply
once), which tells the table: its every web process then shows it. Run as many as there are
spare cores, on any machine that reaches the database and Redis.
"""

from __future__ import annotations

import logging

from channels.consumer import AsyncConsumer
from channels.db import database_sync_to_async

from ..models import Match
from ..tables import play
from . import autoplay
from .messages import BotMove

logger = logging.getLogger(__name__)


class BotWorker(AsyncConsumer):
    """Makes the moves the tables' drivers ask for."""

    async def bot_move(self, message: BotMove) -> None:
        pending = autoplay.from_request(message)
        try:
            action = await database_sync_to_async(autoplay.choose_action)(pending)
            await autoplay.make_move(pending, action)
        except (Match.DoesNotExist, play.StaleMove, play.NoMatch):
            return  # the table moved on meanwhile: nothing to do
        except Exception:
            logger.exception("a bot's move failed at table %s", pending.table_id)
