"""The lobby's live list, rendered once per process for all of its lobby sockets.

A change to the list reaches every lobby socket through the channel layer's lobby group (so
changes made by other processes arrive too), and each asks the process's :class:`LobbyFeed`
for a refresh. The feed reads the tables and renders the list at most once per
:data:`MIN_INTERVAL` (once per language its sockets speak: the list is the same for every
user) and sends that text to every socket that does not show it already. A burst of changes
thus costs one read and render, not one per change and per socket.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from ..tables import lobby

logger = logging.getLogger(__name__)

#: Least time in seconds between two renders of the list: a socket that floods changes within
#: its frame budget must not make the process read and render at its pace (a render holds up
#: the moves queued behind it on the database thread).
MIN_INTERVAL = 0.5

#: How a registered socket is sent a frame.
Send = Callable[[str], Awaitable[None]]


def render_frames(languages: list[str]) -> dict[str, str]:
    """Render the list in each of ``languages`` from one read of the tables."""
    tables = lobby.lobby_tables()
    frames = {}
    for language in languages:
        with translation.override(language):
            frames[language] = lobby.render_lobby_frame(tables)
    return frames


@dataclass(slots=True)
class Listener:
    """A registered lobby socket."""

    send: Send
    language: str
    #: The frame it was sent last.
    shown: str = ""


class LobbyFeed:
    """One event loop's lobby sockets, and the list last rendered for them."""

    def __init__(self) -> None:
        #: The registered sockets, by channel name, oldest first.
        self.sockets: dict[str, Listener] = {}
        #: The last render, by language; current while no refresh is asked for or under way.
        self.frames: dict[str, str] = {}
        #: A refresh was asked for and its render has not begun.
        self.wanted = False
        #: The render is under way (its sends go to every socket registered by its end).
        self.rendering = False
        #: When the last render began (event loop time).
        self.last = float("-inf")
        self.task: asyncio.Task | None = None

    async def join(self, key: str, send: Send, language: str | None) -> None:
        """Register a socket and send it the current list (a render of it, now or soon)."""
        listener = self.sockets[key] = Listener(send, language or settings.LANGUAGE_CODE)
        if self.rendering:
            return  # the render under way reaches it, or asks for one in its language
        frame = None if self.wanted else self.frames.get(listener.language)
        if frame is None:
            if self.task is None:
                # No change waits: the interval holds back changes, not a socket that joins.
                self.last = float("-inf")
            self.refresh()
        else:
            listener.shown = frame
            await send(frame)

    def leave(self, key: str) -> None:
        """Unregister a socket."""
        self.sockets.pop(key, None)
        if not self.sockets:
            # No socket hears of changes any more (none is in the lobby group): the last
            # render cannot be trusted to be current when one joins again.
            self.frames = {}

    def refresh(self) -> None:
        """Ask for the list to be rendered and sent to every socket again (coalesced)."""
        self.wanted = True
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.wanted:
                wait = self.last + MIN_INTERVAL - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                self.wanted = False
                languages = sorted({listener.language for listener in self.sockets.values()})
                if not languages:
                    continue
                self.last = loop.time()
                self.rendering = True
                try:
                    self.frames = await database_sync_to_async(render_frames)(languages)
                except Exception:
                    logger.exception("could not render the lobby")
                    self.frames = {}
                    continue
                finally:
                    self.rendering = False
                await self._send_all()
        finally:
            self.task = None

    async def _send_all(self) -> None:
        for key, listener in list(self.sockets.items()):
            frame = self.frames.get(listener.language)
            if frame is None:
                self.wanted = True  # it joined during the render, in another language
            elif frame != listener.shown and key in self.sockets:  # it may have left meanwhile
                listener.shown = frame
                try:
                    await listener.send(frame)
                except Exception:
                    logger.exception("could not send the lobby to a socket")


#: One feed per event loop (a server has one; tests start a loop per test).
_feeds: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LobbyFeed] = (
    weakref.WeakKeyDictionary()
)


def feed() -> LobbyFeed:
    """Return this event loop's lobby feed."""
    loop = asyncio.get_running_loop()
    current = _feeds.get(loop)
    if current is None:
        current = _feeds[loop] = LobbyFeed()
    return current
