"""Telling live connections that something changed (small events, never a stream).

Events name what changed, not what anyone may see: each connection renders its own view.
Notices for a player (:func:`notice`, :func:`notice_messages`) also go to :mod:`.push`, which
tells the player's devices when no page of theirs is open.
"""

from __future__ import annotations

import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from ..models import ChatMessage
from ..tables.extensions import Notice
from .messages import ChatNotice, Event, MoveNews, NoticeShow, TableChanged
from .push import offer

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """The channel-layer group of every socket a user has open."""
    return f"user.{user_id}"


def notices_group(user_id: int) -> str:
    """The channel-layer group of a user's notice sockets (one on every page they have open)."""
    return f"notices.{user_id}"


def notice(user_id: int, kind: str, pk: int) -> None:
    """Tell ``user_id``'s open pages, from sync code, of an invitation, an answer to one, or a
    friend request (``kind``), by its primary key."""
    shown: NoticeShow = {"type": "notice.show", "kind": kind, "pk": pk}
    send_sync(notices_group(user_id), shown)
    offer([Notice(user_id, kind, pk)])


def notice_messages(notices: list[Notice]) -> list[tuple[str, NoticeShow]]:
    """Where each of ``notices`` goes and what it says (the pages that hear it wake its
    ``wake`` tables and show the notice); those that may be pushed are offered to the players'
    devices (:func:`.push.offer`), for the player with no page open."""
    offer(notices)
    return [
        (
            notices_group(notice.user_id),
            {
                "type": "notice.show",
                "kind": notice.kind,
                "pk": notice.pk,
                "table": notice.table,
                "tables": list(notice.wake),
            },
        )
        for notice in notices
    ]


def table_group(table_id: int) -> str:
    """The channel-layer group of everyone connected to a table."""
    return f"table.{table_id}"


def chat_notice(line: ChatMessage) -> ChatNotice:
    """The event that shows a table's chat the notice ``line`` (its chat rule's doing)."""
    return {
        "type": "chat.notice",
        "pk": line.pk,
        "kind": line.notice,
        "name": line.user.get_username(),
    }


def table_changed(*, move: MoveNews | None = None, committed: float = 0.0) -> TableChanged:
    """The event sent to a table's group after any visible change.

    ``event`` names this one change: the connections it reaches in one process share a single
    read of the table for it (see ``snapshots.event_snapshot``). ``move``: what a move did
    (``snapshots.move_news``), so that processes that hold the table need not read it;
    ``committed``: when the move committed (``time.time()``), for the metrics.
    """
    event: TableChanged = {"type": "table.changed", "event": secrets.token_hex(8)}
    if move is not None:
        event.update(move)  # flat: the in-memory layer copies the event for every connection
        if committed:
            event["committed"] = committed
    return event


def lobby_changed() -> Event:
    """The event sent to the lobby after a table was created, filled, started or ended."""
    return {"type": "lobby.changed"}


async def send(group: str, event: Event) -> None:
    """Send ``event`` to ``group`` from async code (consumers)."""
    await get_channel_layer().group_send(group, event)


def send_sync(group: str, event: Event) -> None:
    """Send ``event`` to ``group`` from sync code."""
    async_to_sync(send)(group, event)


def announce(table_id: int | None = None, *, chat: bool = False, lobby: bool = False) -> None:
    """Tell the live pages, from sync code, that a table changed (``chat``: only its chat)
    and, with ``lobby``, that the lobby's list did."""
    if table_id is not None:
        event: Event = {"type": "chat.refresh"} if chat else table_changed()
        send_sync(table_group(table_id), event)
    if lobby:
        send_sync(LOBBY_GROUP, lobby_changed())


def close_sockets(user_id: int, *, banned: bool = False) -> None:
    """Close every socket ``user_id`` has open: they signed out, their password changed, or
    (``banned``) their account was closed."""
    send_sync(user_group(user_id), {"type": "user.banned" if banned else "user.signed_out"})
