"""Who moves when no human does: computer players, covering bots and turn timers.

Everything is derived from the database, so nothing is lost when a server restarts: after
every change at a table (and whenever someone connects) the consumers :func:`kick` the table's
driver, which works out the next automatic move (:func:`pending_move`), waits for it to be due,
has the bot think from that seat's view off the web process (``games.live.thinking``), and
makes its move through :func:`games.live.moves.move` — the same door, checks and move log as
a human's move. Several processes may drive one table; the version check lets exactly one of
their moves apply.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from ..bots import Bot
from ..catalog import get_game
from ..models import Match
from ..tables import matches, play
from . import moves, thinking
from .messages import BotMove, TableChanged
from .snapshots import TableSnapshot, cached_snapshot, snapshot_for

logger = logging.getLogger(__name__)

#: Seconds a driver waits after an unexpected failure before it looks again (doubling, up to
#: :data:`RETRY_MAX_SECONDS`, while it keeps failing).
RETRY_SECONDS = 2.0
RETRY_MAX_SECONDS = 60.0


@dataclass(frozen=True)
class Pending:
    """The next automatic move of a table: who, when, at which level, for which version."""

    table_id: int
    version: int
    seat: int
    level: str
    due: datetime
    #: True when a human's absence ran out: the seat becomes covered when it plays.
    cover: bool
    #: Not a move: the finished deal's result has shown long enough, the next deal starts.
    ends_pause: bool = False
    #: The human's turn timer ran out: one move for them (see ``play.apply_action``).
    timed_out: bool = False


def pending_move(table_id: int, event: TableChanged | None = None) -> Pending | None:
    """The next move a computer player owes at this table, or None (humans to play).

    ``event`` is the change that prompted the look: its read of the table is shared with the
    connections that render it (see :func:`games.snapshots.event_snapshot`).
    """
    return pending_in(snapshot_for(table_id, event))


def pending_in(snapshot: TableSnapshot) -> Pending | None:
    """The next automatic move of the table read in ``snapshot`` (see :func:`pending_move`).

    When it is due follows from the table alone (its last move, its turn's start, its pause),
    never from when it was read: a connection coming or going leaves it as it is.
    """
    match, state = snapshot.match, snapshot.state
    if match is None or match.status != Match.Status.RUNNING:
        return None
    if match.paused_until is not None:
        return Pending(snapshot.table.pk, match.version, -1, "", match.paused_until, False, True)
    spec = get_game(match.game)
    players = {player.seat: player for player in snapshot.players}
    seats = [state.to_act] if state.to_act is not None else []
    # Out-of-turn rights (Grabush penalties) held by computer players are answered too.
    seats += [
        seat
        for seat, player in players.items()
        if seat != state.to_act
        and (player.bot_level or player.covered)
        and spec.engine.legal_actions(state, seat)
    ]
    table_id, turn_seconds = snapshot.table.pk, snapshot.table.turn_seconds
    for seat in seats:
        player = players[seat]
        if player.bot_level:
            return Pending(table_id, match.version, seat, player.bot_level, bot_due(match), False)
        if player.covered or player.user_active is False:  # absent, timed out or banned
            cover = not player.covered
            return Pending(table_id, match.version, seat, spec.cover_level, bot_due(match), cover)
        if seat != state.to_act:
            continue
        away = None
        if player.away_since:
            away = player.away_since + timedelta(seconds=settings.AWAY_GRACE_SECONDS)
        timer = None
        if turn_seconds and match.turn_started_at:
            timer = match.turn_started_at + timedelta(seconds=turn_seconds)
            if match.reading_since is not None:  # the clock waits while they read the rules
                timer += matches.reading_left(match)
        if timer is not None and (away is None or timer < away):
            # One move for the player; only a few in a row hand the seat over (play).
            return Pending(
                table_id, match.version, seat, spec.cover_level, timer, False, False, True
            )
        if away is not None:
            return Pending(table_id, match.version, seat, spec.cover_level, away, True)
    return None


def bot_due(match: Match) -> datetime:
    """When a computer's move at ``match`` is due: BOT_DELAY_SECONDS after its last move (or
    its turn's start, if later); at once for a match that recorded neither."""
    times = [moment for moment in (match.moved_at, match.turn_started_at) if moment is not None]
    if not times:
        return timezone.now()
    return max(times) + timedelta(seconds=settings.BOT_DELAY_SECONDS)


def bot_input(pending: Pending) -> tuple[Bot, Mapping[str, object], random.Random]:
    """The bot that owes ``pending`` and what it decides from: its seat's view only, and its
    random numbers (``Match.DoesNotExist`` when the match moved on)."""
    match = Match.objects.get(
        table_id=pending.table_id, version=pending.version, status=Match.Status.RUNNING
    )
    spec = get_game(match.game)
    view = spec.engine.view(spec.engine.loads(match.state), pending.seat)
    return spec.bots[pending.level], view, bot_random(match, pending.seat)


def bot_random(match: Match, seat: int) -> random.Random:
    """The random numbers of ``seat``'s computer player at ``match``'s current step: from the
    match's seed, which nobody learns before the match ends, through a hash of their own (so
    nobody foresees them, and they reveal nothing of the deals); the same again in a replay."""
    key = f"cardroom-bots-1:{match.seed}:{match.version}:{seat}"
    return random.Random(hashlib.sha256(key.encode()).digest())


def choose_action(pending: Pending) -> str:
    """Ask the bot for its action here and now (a bot worker's way: it is off the web
    process already)."""
    bot, view, rng = bot_input(pending)
    return bot(view, rng, settings.BOT_BUDGET)


class Driver:
    """The task that makes one table's automatic moves in this process."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.task: asyncio.Task | None = None
        self.waiting = False
        self.stopping = False
        self.again = False
        self.last_event = ""
        #: The change to read the table for on the next look (None: a fresh read).
        self.event: TableChanged | None = None
        #: The token of the table as this driver's last fresh read found it.
        self.looked_at = ""
        #: The last request sent to the bot workers, and when (the event loop's clock).
        self.asked: tuple[BotMove, float] | None = None
        #: Whether the workers' channel was full at the last ask (warned once until it is not).
        self.full = False
        self.failures = 0

    def kick(self, event: TableChanged | None = None, token: str = "") -> None:
        """Something changed: re-read the table (now, or once the current move is made).

        ``event`` is the change (a ``table.changed`` event); every connection of this process
        hears each change, but one look per change is enough. ``token``: the table as a page
        arriving found it; unchanged since this driver's last look, it needs no new one.
        """
        if token and token == self.looked_at:
            return
        if event is not None:
            if event.get("event") == self.last_event:
                return
            self.last_event = event.get("event", "")
        self.event = event
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())
        elif self.waiting:
            self.task.cancel()
            self.waiting = False  # the new task is not waiting yet
            self.task = loop.create_task(self.run())
        else:
            self.again = True

    async def wait(self, seconds: float) -> None:
        """Sleep; a kick or :func:`stop_all` may cancel the task meanwhile."""
        if seconds <= 0:
            return
        self.waiting = True
        try:
            await asyncio.sleep(seconds)
        finally:
            if self.task is asyncio.current_task():  # not the task a kick started instead
                self.waiting = False

    async def run(self) -> None:
        while not self.stopping:
            try:
                if not await self.step():
                    return
                self.failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("automatic move failed at table %s", self.table_id)
                self.failures += 1
                await self.wait(min(RETRY_SECONDS * 2 ** (self.failures - 1), RETRY_MAX_SECONDS))

    async def step(self) -> bool:
        """Read the table, wait until its next automatic move is due and make it; False when
        none is owed."""
        self.again = False
        event, self.event = self.event, None
        snapshot = cached_snapshot(self.table_id, event)
        if snapshot is not None:  # read for this change's frames already
            pending = pending_in(snapshot)
        else:
            snapshot = await database_sync_to_async(snapshot_for)(self.table_id, event)
            self.looked_at = snapshot.token
            pending = pending_in(snapshot)
        if pending is None or self.stopping:
            return self.again  # look again (the loop ends here when stopping)
        await self.wait((pending.due - timezone.now()).total_seconds())
        await self.move(pending)
        return True

    async def move(self, pending: Pending) -> None:
        if pending.ends_pause:
            await moves.move(self.table_id, None, None, pending.version)
            return
        if settings.BOTS_IN_WORKERS:
            await self.ask_worker(pending)
            return
        try:
            bot, view, rng = await database_sync_to_async(bot_input)(pending)
            action = await thinking.think(bot, view, rng)
            await make_move(pending, action)
        except (Match.DoesNotExist, play.StaleMove, play.NoMatch):
            return  # someone moved first (a human, another process) or the match ended: look again

    async def ask_worker(self, pending: Pending) -> None:
        """Have a bot worker think and move; wait for the move (it kicks this driver), and
        ask again if none comes in time (its worker died mid-thought, none runs yet, or the
        channel was full).

        A look again before then (a kick) waits out the same ask rather than repeating it.
        """
        message = request(pending)
        now = asyncio.get_running_loop().time()
        if self.asked is not None and self.asked[0] == message:
            left = self.asked[1] + settings.BOT_ANSWER_SECONDS - now
            if left > 0:
                await self.wait(left)
                return
        self.asked = (message, now)
        try:
            await get_channel_layer().send(thinking.CHANNEL, message)
        except ChannelFull:
            if not self.full:
                logger.warning(
                    "the bot workers' channel is full: table %s asks again later", self.table_id
                )
            self.full = True
        else:
            self.full = False
        await self.wait(settings.BOT_ANSWER_SECONDS)


async def make_move(pending: Pending, action: str) -> None:
    """Make the bot's action for its seat (covering an absent human's seat)."""
    await moves.move(
        pending.table_id,
        None,
        action,
        pending.version,
        seat=pending.seat,
        cover=pending.cover,
        timed_out=pending.timed_out,
    )


def request(pending: Pending) -> BotMove:
    """The message asking a bot worker for ``pending``'s move (``games.live.workers``)."""
    return {
        "type": "bot.move",
        "table": pending.table_id,
        "version": pending.version,
        "seat": pending.seat,
        "level": pending.level,
        "cover": pending.cover,
        "timed_out": pending.timed_out,
    }


def from_request(message: BotMove) -> Pending:
    """The pending move a worker was asked for."""
    return Pending(
        int(message["table"]),
        int(message["version"]),
        int(message["seat"]),
        str(message["level"]),
        timezone.now(),
        bool(message["cover"]),
        timed_out=bool(message["timed_out"]),
    )


_drivers: dict[int, Driver] = {}
#: Loops whose drivers were stopped (:func:`stop_all`): a change heard afterwards starts none.
_stopped: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def kick(table_id: int, event: TableChanged | None = None, token: str = "") -> None:
    """Make sure this table's automatic moves happen (call from the event loop); ``event``
    is the ``table.changed`` event that prompted the call, if any; ``token``: the table as a
    page arriving found it (:meth:`Driver.kick`)."""
    if asyncio.get_running_loop() in _stopped:
        return
    driver = _drivers.get(table_id)
    if driver is None:
        driver = _drivers[table_id] = Driver(table_id)
    driver.kick(event, token)


async def stop_all() -> None:
    """Stop every driver of this process (tests, shutdown), start no more on this loop, and
    wait until they have stopped.

    A driver waiting out a delay is cancelled; one reading or moving finishes that step first.
    Cancelling it there would leave the database work running in its thread (asgiref cannot
    stop a thread), past the moment the caller believes the table is quiet.
    """
    loop = asyncio.get_running_loop()
    _stopped.add(loop)
    tasks = []
    for driver in _drivers.values():
        task = driver.task
        if task is None or task.done() or task.get_loop() is not loop:
            continue
        driver.stopping = True
        if driver.waiting:
            task.cancel()
        tasks.append(task)
    await asyncio.gather(*tasks, return_exceptions=True)
    _drivers.clear()
