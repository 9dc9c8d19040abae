"""Who is connected to a table: presence dots, and when a seated player went away.

A presence row is one open socket, owned by the server process that holds it (a
:class:`~games.models.Server` row). While a process holds table sockets, its heartbeat task
refreshes ``Server.seen_at`` every ``PRESENCE_HEARTBEAT_SECONDS``. A process that dies without
closing its sockets (SIGKILL, crash, power loss) stops beating: once it has been silent for
``PRESENCE_STALE_SECONDS`` its presences no longer count, and the next heartbeat of any live
process sweeps them, marks the players left without a live socket as away (from the dead
process's last beat) and tells their tables, so presence dots are right again and a covering
computer player takes over an absent player's turn after the usual grace period.

Every socket, lobby or table, also holds one of its account's ``MAX_SOCKETS_PER_ACCOUNT``
places (``games.people.online``): the heartbeat refreshes those of this process's sockets (it beats
while any is open), and those of a dead process lapse in the cache after
``PRESENCE_STALE_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from ..models import Match, MatchPlayer, Presence, Server, Table
from ..people import access, online
from ..tables import matches
from . import notify

logger = logging.getLogger(__name__)

_name: tuple[int, str] | None = None
#: This process's open table sockets: channel name -> (table id, user id).
_open: dict[str, tuple[int, int]] = {}
#: This process's open sockets, lobby and table: channel name -> its place (games.people.online).
_places: dict[str, str] = {}
_heartbeat: asyncio.Task | None = None
#: True while the heartbeat waits between beats (the only moment it is cancelled).
_resting = False


def server_name() -> str:
    """This process's name; a forked child (test servers) gets a name of its own."""
    global _name
    pid = os.getpid()
    if _name is None or _name[0] != pid:
        _name = (pid, f"{socket.gethostname()}:{pid}:{secrets.token_hex(4)}")
    return _name[1]


def _cutoff() -> datetime:
    return timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)


def _running_seats(table_id: int, user_id: int) -> QuerySet[MatchPlayer]:
    return MatchPlayer.objects.filter(
        match__table_id=table_id, match__status=Match.Status.RUNNING, user_id=user_id
    )


def _may_be_away(seats: QuerySet[MatchPlayer]) -> QuerySet[MatchPlayer]:
    """The seats a player leaving makes away: not a daily Belote's, which waits for its
    player however long they are gone (no computer covers them there)."""
    return seats.filter(match__table__daily_entry__isnull=True)


def _beat() -> bool:
    """Refresh this process's heartbeat; False when its row was missing (now recreated)."""
    now = timezone.now()
    if Server.objects.filter(name=server_name()).update(seen_at=now):
        return True
    Server.objects.update_or_create(name=server_name(), defaults={"seen_at": now})
    return False


def join(code: str, user: AbstractBaseUser, channel_name: str) -> int | None:
    """Record a connection to the table with invite ``code``; returns its id (None: no table,
    or an event's table the user may not watch yet)."""
    return arrive(code, user, channel_name)[0]


def arrive(code: str, user: AbstractBaseUser, channel_name: str) -> tuple[int | None, bool]:
    """:func:`join`, and whether the table's view of the user changed (they were not there
    or were away): a second tab, or a page back from a server's restart, changes nothing."""
    table = Table.objects.select_related("club").filter(code=code).first()
    if table is None or not access.may_open(table, user):
        return None, False
    _beat()
    with transaction.atomic():
        here = Presence.objects.live().filter(table=table, user=user).exists()
        # A channel name is unique while its socket lives; a row left by a socket whose
        # disconnect was never processed is simply taken over.
        Presence.objects.bulk_create(
            [Presence(channel_name=channel_name, table=table, user=user, server_id=server_name())],
            update_conflicts=True,
            unique_fields=["channel_name"],
            update_fields=["table", "user", "server"],
        )
        back = _running_seats(table.pk, user.pk).exclude(away_since=None).update(away_since=None)
    return table.pk, not here or bool(back)


def leave(table_id: int, user_id: int, channel_name: str) -> None:
    """Forget a connection; a player with no live connection left is away from now on."""
    with transaction.atomic():
        Presence.objects.filter(channel_name=channel_name).delete()
        gone = not Presence.objects.live().filter(table_id=table_id, user_id=user_id).exists()
        if gone:
            _may_be_away(_running_seats(table_id, user_id)).update(away_since=timezone.now())
    finished_quick = Table.objects.filter(pk=table_id, quick=True, status=Table.Status.FINISHED)
    if gone and finished_quick.exists() and matches.start_quick_rematch(table_id) is not None:
        notify.announce(lobby=True)  # the consumer tells the table itself


def sweep() -> set[int]:
    """Forget the presences of dead server processes; returns the tables that changed: where
    someone has no live socket left (a page back from a restart on another process changes
    nothing).

    A player whose every socket died with its process is away since that process's last beat.
    Several live processes may sweep at once: each step is idempotent.
    """
    dead = list(Server.objects.filter(seen_at__lt=_cutoff()))
    if not dead:
        return set()
    last_seen = {server.name: server.seen_at for server in dead}
    gone: dict[tuple[int, int], datetime] = {}
    for table_id, user_id, server_id in Presence.objects.filter(server__in=dead).values_list(
        "table_id", "user_id", "server_id"
    ):
        seen = last_seen[server_id]
        gone[(table_id, user_id)] = max(seen, gone.get((table_id, user_id), seen))
    changed = set()
    with transaction.atomic():
        Server.objects.filter(name__in=last_seen, seen_at__lt=_cutoff()).delete()
        for (table_id, user_id), seen in gone.items():
            if not Presence.objects.live().filter(table_id=table_id, user_id=user_id).exists():
                changed.add(table_id)
                _may_be_away(_running_seats(table_id, user_id)).filter(away_since=None).update(
                    away_since=seen
                )
    return changed


def forget_closed(sockets: dict[str, tuple[int, int]]) -> set[int]:
    """Forget this process's presences whose socket is no longer open (a cleanup that failed,
    e.g. while the database was down); returns the tables that changed.

    Only rows older than a heartbeat are looked at: a socket records its presence just
    before this process counts it as open.
    """
    settled = timezone.now() - timedelta(seconds=settings.PRESENCE_HEARTBEAT_SECONDS)
    ghosts = [
        row
        for row in Presence.objects.filter(server_id=server_name(), connected_at__lt=settled)
        .only("channel_name", "table_id", "user_id")
        .iterator()
        if row.channel_name not in sockets
    ]
    for row in ghosts:
        leave(row.table_id, row.user_id, row.channel_name)
    return {row.table_id for row in ghosts}


def tick(sockets: dict[str, tuple[int, int]]) -> set[int]:
    """One heartbeat: refresh this process, restore its presences if another process swept
    them (this one stalled for too long), forget presences whose socket closed, and sweep
    dead processes."""
    changed = forget_closed(sockets)
    if not _beat() and sockets:
        tables = set(
            Table.objects.filter(pk__in={t for t, _ in sockets.values()}).values_list(
                "pk", flat=True
            )
        )
        users = set(
            get_user_model()
            .objects.filter(pk__in={u for _, u in sockets.values()})
            .values_list("pk", flat=True)
        )
        Presence.objects.bulk_create(
            [
                Presence(table_id=t, user_id=u, channel_name=name, server_id=server_name())
                for name, (t, u) in sockets.items()
                if t in tables and u in users
            ],
            ignore_conflicts=True,
        )
    return changed | sweep()


async def _heartbeat_loop() -> None:
    global _resting
    while _open or _places:
        try:
            places = {place: name for name, place in _places.items()}
            await sync_to_async(online.keep_sockets, thread_sensitive=False)(places)
        except Exception:
            logger.exception("could not refresh the sockets' places")  # the cache is down
        changed = set()
        if _open:
            try:
                changed = await database_sync_to_async(tick)(dict(_open))
            except Exception:
                logger.exception("presence heartbeat failed")  # the database is down: try again
        for table_id in changed:
            try:
                await notify.send(notify.table_group(table_id), notify.table_changed())
            except Exception:
                logger.exception("could not tell table %s about a dead server", table_id)
        if not (_open or _places):
            return
        _resting = True
        try:
            await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        finally:
            _resting = False


def counted(channel_name: str, place: str) -> None:
    """A socket of this process holds ``place``: keep the heartbeat running (event loop
    only)."""
    _places[channel_name] = place
    _keep_beating()


def uncounted(channel_name: str) -> str | None:
    """A counted socket of this process closed; returns the place it held."""
    place = _places.pop(channel_name, None)
    _stop_resting()
    return place


def opened(channel_name: str, table_id: int, user_id: int) -> None:
    """A table socket of this process opened: keep the heartbeat running (event loop only).

    The first one's presence needs a beat at once: a heartbeat resting after refreshing only
    places is replaced.
    """
    first = not _open
    _open[channel_name] = (table_id, user_id)
    task = _running_heartbeat()
    if first and task is not None and _resting:
        task.cancel()
    _keep_beating(replace=first and task is not None and _resting)


def _keep_beating(replace: bool = False) -> None:
    global _heartbeat
    if replace or _running_heartbeat() is None:
        _heartbeat = asyncio.get_running_loop().create_task(_heartbeat_loop())


def _running_heartbeat() -> asyncio.Task | None:
    if (
        _heartbeat is None
        or _heartbeat.done()
        or _heartbeat.get_loop() is not asyncio.get_running_loop()
    ):
        return None
    return _heartbeat


def closed(channel_name: str) -> None:
    """A table socket of this process closed."""
    _open.pop(channel_name, None)
    _stop_resting()


def _stop_resting() -> None:
    """Stop the heartbeat once no socket is left.

    A beat in progress finishes first (its database work runs in a thread that a cancel
    would not stop); the loop ends after it by itself.
    """
    task = _running_heartbeat()
    if not (_open or _places) and task is not None and _resting:
        task.cancel()


async def stop() -> None:
    """Stop the heartbeat and wait until it has stopped (tests, shutdown)."""
    _open.clear()
    _places.clear()
    task = _running_heartbeat()
    if task is None:
        return
    if _resting:
        task.cancel()
    await asyncio.gather(task, return_exceptions=True)
