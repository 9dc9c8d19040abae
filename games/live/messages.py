"""The shapes of what live connections receive: client frames and channel-layer events.

These are types only: building or reading a message costs what a plain dict does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

#: A client frame as decoded from JSON: its values are unchecked until a field reader
#: (``consumers.int_field`` and the like) checks the one it needs.
Frame = dict[str, object]

#: A channel-layer message of whatever type, for code that only passes it on or reads its ``type``.
Event = Mapping[str, object]


class MoveNews(TypedDict):
    """What a move's ``table.changed`` event carries (``snapshots.move_news``)."""

    match: int
    version: int
    #: The move and what it wrote, as JSON text; absent once the match is over.
    carry: NotRequired[str]


class TableChanged(TypedDict):
    """``table.changed``: something visible changed at the table (``notify.table_changed``)."""

    type: str
    #: The change's id: the connections it reaches in one process share one read for it.
    event: str
    match: NotRequired[int]
    version: NotRequired[int]
    carry: NotRequired[str]
    #: When the move committed (``time.time()``): its frames' delay is measured from it.
    committed: NotRequired[float]


class NoticeShow(TypedDict):
    """``notice.show``: an invitation, an answer to one or a friend request (``notify``)."""

    type: str
    kind: str
    pk: int
    table: NotRequired[str]
    #: Tables the notice's pages wake (an event round's tables where only computers sit).
    tables: NotRequired[list[int]]


class ChatLine(TypedDict):
    """``chat.message``: a chat line, rendered once for everyone at the table."""

    type: str
    html: str


class ChatNotice(TypedDict):
    """``chat.notice``: what the table's chat rule did because of a player."""

    type: str
    pk: int
    kind: str
    name: str


class BotMove(TypedDict):
    """``bot.move``: a bot worker is asked for a move (``autoplay.request``)."""

    type: str
    table: int
    version: int
    seat: int
    level: str
    cover: bool
    timed_out: bool


class SocketClosed(TypedDict):
    """``websocket.disconnect`` from the ASGI server."""

    type: str
    code: NotRequired[int]


class SocketReceived(TypedDict):
    """``websocket.receive`` from the ASGI server: a text or a binary frame."""

    type: str
    text: NotRequired[str | None]
    bytes: NotRequired[bytes | None]
