"""The one door of every move: a human's frame, a computer's answer, a run-out timer, a pause's end.

:func:`move` starts from the read of the table this process holds (``snapshots``), has the
service make the move (``games.tables.play``), keeps the position the move returns as this process's
read, and tells the table (and the lobby, when the match ended). The service knows nothing of
reads or sockets; everything that moves a match goes through here.
"""

from __future__ import annotations

import functools
import time
from typing import TypedDict, Unpack

from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from cardroom import metrics

from ..models import ChatMessage, Match
from ..tables import chat, extensions, matches, play
from . import notify, push, snapshots
from .batching import run_batched


class MoveOptions(TypedDict, total=False):
    """Who a move is made for, when not a human at their own seat (``play.apply_action``)."""

    seat: int | None
    cover: bool
    timed_out: bool


async def move(
    table_id: int,
    user: AbstractBaseUser | None,
    action: str | None,
    version: int,
    notice: str = "",
    **options: Unpack[MoveOptions],
) -> Match | None:
    """Make ``action`` at the table's match ``version`` for ``user`` (``options``: as in
    :func:`games.tables.play.apply_action`, e.g. a computer player's ``seat``) and tell the
    table; with no ``action``, start the next deal if its pause has run out. ``notice``: the
    chat notice the move brings (``chat.notice_text``), stored with the move and told before it,
    so that no later news of the table reaches a page between the two.

    Returns the match as the move left it (None for a pause's end). Raises what the service
    raises, having changed nothing.
    """
    group = notify.table_group(table_id)
    if action is None:
        if await run_batched(matches.end_pause, table_id, version):
            await notify.send(group, notify.table_changed())
        return None
    # Batched: moves of tables that arrive together share a trip to the database thread.
    if notice:
        noted = functools.partial(apply_noted, table_id, user, action, version, notice, **options)
        moved, line = await run_batched(noted)
        await notify.send(group, notify.chat_notice(line))
    else:
        moved = await run_batched(
            functools.partial(apply, table_id, user, action, version, **options)
        )
    # Counted here, the one place every move passes (plain integers: see cardroom.metrics).
    kind = "human" if user is not None else "timer" if options.get("timed_out") else "computer"
    metrics.moves[moved.match.game, kind] += 1
    changed = notify.table_changed(move=snapshots.move_news(moved), committed=time.time())
    await notify.send(group, changed)
    on_turn = turn_with_clock(moved)
    if on_turn is not None:
        push.offer_turn(on_turn, moved.table)
    if moved.match.status != Match.Status.RUNNING:
        await notify.send(notify.LOBBY_GROUP, notify.lobby_changed())
        # What else the end leads to (an event's next round), once the move has committed.
        notices = await database_sync_to_async(extensions.match_ended)(table_id)
        for group, message in notify.notice_messages(notices):
            await notify.send(group, message)
    return moved.match


def turn_with_clock(moved: play.Position) -> int | None:
    """The human on turn after the move, at a table with a clock; None for none."""
    if moved.match.status != Match.Status.RUNNING or not moved.table.turn_seconds:
        return None
    seat = getattr(moved.state, "to_act", None)
    player = next((p for p in moved.players if p.seat == seat), None)
    return player.user_id if player is not None and not player.bot_level else None


def apply(
    table_id: int,
    user: AbstractBaseUser | None,
    action: str,
    version: int,
    **options: Unpack[MoveOptions],
) -> play.Position:
    """:func:`move`'s database half: the move, from this process's read when it is at
    ``version``; once committed, the position it led to is this process's read."""
    known = snapshots.position_at(table_id, version)
    moved = play.apply_action(table_id, user, action, version, known=known, **options)
    transaction.on_commit(lambda: snapshots.record_move(moved))
    return moved


def apply_noted(
    table_id: int,
    user: AbstractBaseUser | None,
    action: str,
    version: int,
    notice: str,
    **options: Unpack[MoveOptions],
) -> tuple[play.Position, ChatMessage]:
    """:func:`apply`, with the chat notice ``notice`` of ``user`` stored in the same transaction."""
    with transaction.atomic():
        moved = apply(table_id, user, action, version, **options)
        return moved, chat.post_notice(table_id, user, notice)
