"""Websocket consumers: authenticate, parse, call a service, broadcast. No game logic.

Client frames are small JSON objects sent by htmx ``ws-send`` (plus htmx's ``HEADERS``):
``{"op": "play", "action": "JH", "version": "12"}``, ``{"op": "sit", "seat": "2"}``,
``{"op": "leave"}``, ``{"op": "start"}``, ``{"op": "rematch"}``, ``{"op": "chat", "text": "…"}``.
``sit``, ``start`` and ``rematch`` may carry the browser's ``contribution`` to the next match's
seed (``games.engines.fair_deals``; ``static/js/fair.js`` adds it).
Server frames are HTML whose top-level elements replace the elements with the same id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from bisect import bisect_left
from collections.abc import Iterable
from typing import TypedDict
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from cardroom import metrics
from cardroom.restart import ClosesOnRestart

from ..models import ChatMessage
from ..people import online
from ..refusals import Refusal
from ..tables import chat, extensions, matches, play, rows, seating
from . import arrivals, autoplay, lobby_feed, moves, notify, presence, push, snapshots
from .batching import run_batched
from .dispatch import DirectDispatchMixin
from .frames import recent_chat, render_flash, render_frame, render_notice, render_reconnected
from .messages import (
    ChatLine,
    ChatNotice,
    Event,
    Frame,
    NoticeShow,
    SocketClosed,
    SocketReceived,
    TableChanged,
)
from .notify import user_group
from .snapshots import TableSnapshot, cached_snapshot, snapshot_for

#: Close code for a handshake refused because nobody is logged in, and for the sockets of an
#: account that logged out or changed its password.
CLOSE_UNAUTHENTICATED = 4401
#: Close code for a table that does not exist.
CLOSE_NOT_FOUND = 4404
#: Close code for a banned user's sockets.
CLOSE_BANNED = 4403
#: Close code for a connection that sent frames faster than FRAME_RATE allows.
CLOSE_FLOOD = 4429
#: Close code for a socket past the account's MAX_SOCKETS_PER_ACCOUNT.
CLOSE_TOO_MANY = 4409
#: Largest client frame accepted, in characters.
MAX_FRAME = 2000
#: Frames a connection may send: a burst of FRAME_BURST, refilled at FRAME_RATE per second.
FRAME_BURST = 20
FRAME_RATE = 5.0
#: Deepest nesting of a frame: its object, holding htmx's HEADERS object.
MAX_DEPTH = 2
#: Characters no text of a frame may hold: C0 and C1 controls (NUL included).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: A play's choice to announce (or keep quiet) a Belote declaration or belot: "announce-d0".
ANNOUNCE_FIELD = re.compile(r"announce-(d[0-9]|belot)")

logger = logging.getLogger(__name__)


class SocketScope(TypedDict, total=False):
    """What :func:`socket_language` reads of a websocket's ASGI scope."""

    cookies: dict[str, str]
    headers: Iterable[tuple[bytes, bytes]]


class BadFrame(Refusal):
    """A client frame that is not a well-formed request; the message says what is wrong."""

    reason = metrics.FRAME


def parse_frame(text: str | None) -> Frame:
    """Decode a client frame into a dict with a known ``op``, or raise :class:`BadFrame`."""
    if not text or len(text) > MAX_FRAME:
        raise BadFrame(_("That request was empty or too long."))
    try:
        message = json.loads(text)
    except RecursionError:
        raise BadFrame(_("That request is nested too deeply.")) from None
    except ValueError:
        raise BadFrame(_("That request could not be read.")) from None
    _check_value(message, 0)
    op = message.get("op") if isinstance(message, dict) else None
    if not isinstance(op, str) or op not in TableConsumer.OPS:
        raise BadFrame(_("That request is not something this table understands."))
    return message


def _check_value(value: object, depth: int) -> None:
    """Refuse nesting deeper than MAX_DEPTH, and text that cannot be stored or shown as it is:
    lone surrogates (no database stores them) and control characters (NUL included)."""
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            raise BadFrame(_("That request is nested too deeply."))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str):
                _check_text(key)
            _check_value(item, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadFrame(_("That request holds characters that are not allowed.")) from None
    if CONTROL.search(text):
        raise BadFrame(_("That request holds characters that are not allowed."))


def int_field(message: Frame, name: str) -> int:
    """An integer field of a frame (htmx sends form values as strings)."""
    value = message.get(name)
    if isinstance(value, bool):
        raise BadFrame(_("That request is missing a valid %(field)s.") % {"field": name})
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: JSON's Infinity
        raise BadFrame(_("That request is missing a valid %(field)s.") % {"field": name}) from None


def quiet_keys(message: Frame) -> list[str]:
    """What a play frame keeps quiet: the keys of its ``announce-<key>`` fields set to "no"."""
    keys = []
    for name, value in message.items():
        if not name.startswith("announce-"):
            continue
        found = ANNOUNCE_FIELD.fullmatch(name)
        if found is None or value not in ("yes", "no"):
            raise BadFrame(_("That request is missing a valid %(field)s.") % {"field": name})
        if value == "no":
            keys.append(found[1])
    return sorted(keys)


def str_field(message: Frame, name: str, *, longest: int, empty: bool = True) -> str:
    """A text field of a frame of at most ``longest`` characters (``empty``: may be "")."""
    value = message.get(name, "")
    if not isinstance(value, str) or len(value) > longest or (not value and not empty):
        raise BadFrame(_("That request is missing a valid %(field)s.") % {"field": name})
    return value


def contribution_field(message: Frame) -> str:
    """A frame's contribution to the next match's seed, whatever its length: one of the wrong
    length is refused with the contribution's own message (see ``rows.checked_contribution``),
    never cut to fit."""
    return rows.checked_contribution(str_field(message, "contribution", longest=MAX_FRAME))


def socket_language(scope: SocketScope) -> str:
    """The language a page request with this socket's cookies and headers is shown in (as
    ``LocaleMiddleware`` picks it: the language cookie, then ``Accept-Language``)."""
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


class AuthenticatedConsumer(ClosesOnRestart, DirectDispatchMixin, AsyncWebsocketConsumer):
    """A consumer that only logged-in users may open; anonymous handshakes are refused.

    Every socket of a user also joins that user's group, so a ban closes them all at once, and
    each connection has a frame budget (a token bucket): a flood is cut off with CLOSE_FLOOD.
    Everything the connection sends is in the language its page was shown in.
    """

    user_group_name = ""
    #: What the socket is, for the metrics (``cardroom.metrics.SOCKET_KINDS``).
    kind = ""
    #: Whether this connection's disconnect cleanup has run (it runs exactly once).
    cleaned_up = False
    #: Whether this connection counts towards the account's open sockets (games.people.online).
    counted = False
    accepted = False

    async def accept(self, subprotocol=None, headers=None) -> None:
        self.accepted = True
        if self.kind:
            metrics.socket_opened(self.kind)
        await super().accept(subprotocol, headers)

    async def __call__(self, scope, receive, send) -> None:
        # The connection's task (and the threads it calls into) keep this language.
        with translation.override(socket_language(scope)):
            try:
                await super().__call__(scope, receive, send)
            finally:
                # However the connection ends (an error in a handler included), it leaves no
                # presence or group membership behind; a cancel does not stop the cleanup.
                await asyncio.shield(self.clean_up())

    async def clean_up(self, code: int = 1011) -> None:
        """Leave the user's group, run :meth:`disconnect` and free the socket's place, once
        per connection."""
        if self.cleaned_up:
            return
        self.cleaned_up = True
        if self.accepted and self.kind:
            metrics.socket_closed(self.kind)
        place = presence.uncounted(self.channel_name) if self.counted else None
        try:
            if self.user_group_name:
                await self.channel_layer.group_discard(self.user_group_name, self.channel_name)
            await self.disconnect(code)
            if place is not None:  # else it lapses, no longer refreshed
                await sync_to_async(online.release_socket, thread_sensitive=False)(
                    place, self.channel_name
                )
        except Exception:
            logger.exception("cleaning up a closed websocket failed")

    async def connect(self) -> None:
        try:
            await self.arrive()
        finally:
            arrivals.arrived(self.scope)

    async def arrive(self) -> None:
        """Check the user, take a place among the account's sockets, accept, and run
        :meth:`on_accepted` (the first frame)."""
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        place = await sync_to_async(online.claim_socket, thread_sensitive=False)(
            self.user.pk, self.channel_name
        )
        if place is None:
            await self.refuse_too_many()
            return
        presence.counted(self.channel_name, place)
        self.counted = True
        self.tokens = float(FRAME_BURST)
        self.refilled = time.monotonic()
        self.user_group_name = user_group(self.user.pk)
        await self.channel_layer.group_add(self.user_group_name, self.channel_name)
        await self.accept()
        await self.on_accepted()

    async def refuse_too_many(self) -> None:
        """Say why, then close: the account has too many sockets open."""
        metrics.refused(metrics.LIMIT)
        if not self.accepted:
            await self.accept()
        message = _("You have too many tables open at once: close some, then reload this page.")
        await self.send(text_data=render_flash(message))
        await self.close(code=CLOSE_TOO_MANY)

    async def websocket_disconnect(self, message: SocketClosed) -> None:
        await self.clean_up(message.get("code", 1000))
        raise StopConsumer()

    async def on_accepted(self) -> None:
        """Hook for subclasses: the connection is open and the user is known."""

    def within_frame_budget(self) -> bool:
        """Spend a token for one incoming frame; False when the connection is flooding."""
        now = time.monotonic()
        self.tokens = min(FRAME_BURST, self.tokens + (now - self.refilled) * FRAME_RATE)
        self.refilled = now
        self.tokens -= 1
        return self.tokens >= 0

    async def websocket_receive(self, message: SocketReceived) -> None:
        if not self.within_frame_budget():
            metrics.refused(metrics.FRAME)
            await self.close(code=CLOSE_FLOOD)
            return
        await super().websocket_receive(message)

    async def user_banned(self, event: Event) -> None:
        await self.close(code=CLOSE_BANNED)

    async def user_signed_out(self, event: Event) -> None:
        await self.close(code=CLOSE_UNAUTHENTICATED)


class LobbyConsumer(AuthenticatedConsumer):
    """The lobby's list of open and running public tables, kept live by this process's
    lobby feed (``games.lobby_feed``): one render for all of its lobby sockets."""

    kind = "lobby"

    async def on_accepted(self) -> None:
        await self.channel_layer.group_add(notify.LOBBY_GROUP, self.channel_name)
        await lobby_feed.feed().join(self.channel_name, self.send, translation.get_language())

    async def disconnect(self, code: int) -> None:
        lobby_feed.feed().leave(self.channel_name)
        await self.channel_layer.group_discard(notify.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """The lobby takes no requests over the socket."""

    async def lobby_changed(self, event: Event) -> None:
        """Tell the feed: the list changed, in this process or another."""
        lobby_feed.feed().refresh()


class NoticeConsumer(AuthenticatedConsumer):
    """Open on every page of a logged-in player: invitations, answers to theirs and friend
    requests reach them at once, wherever they are on the site (from any server process,
    through the channel layer). Its being open is also what shows the player online, and what
    keeps news from their devices (``push``)."""

    kind = "notice"

    async def on_accepted(self) -> None:
        self.notices = notify.notices_group(self.user.pk)
        await self.channel_layer.group_add(self.notices, self.channel_name)
        # Back on the site: news pushed to their devices meanwhile may be pushed again.
        await sync_to_async(push.came_back, thread_sensitive=False)(self.user.pk)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "notices", ""):
            await self.channel_layer.group_discard(self.notices, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """Notices take no requests: answers go through the pages' forms."""

    async def notice_show(self, event: NoticeShow) -> None:
        for table_id in event.get("tables", ()):
            autoplay.kick(table_id)  # an event round's tables where only computers sit
        html = await database_sync_to_async(render_notice)(
            self.user, event["kind"], event["pk"], event.get("table", "")
        )
        if html:
            await self.send(text_data=html)


class ReadingConsumer(AuthenticatedConsumer):
    """Open while a player reads the rules from a table: the turn clock of the player on turn
    waits as long as their rules page is open (``games.tables.matches.read_rules``)."""

    kind = "reading"

    code = ""

    async def on_accepted(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        await self.read(True)

    async def disconnect(self, code: int) -> None:
        if self.code:
            await self.read(False)

    async def read(self, reading: bool) -> None:
        table_id = await database_sync_to_async(matches.read_rules)(self.code, self.user, reading)
        if table_id is not None:
            await notify.send(notify.table_group(table_id), notify.table_changed())

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """A rules page sends nothing: being open is all it says."""


class TableConsumer(AuthenticatedConsumer):
    """One player's or spectator's live connection to a table."""

    kind = "table"

    OPS = frozenset(
        {
            "sit",
            "leave",
            "start",
            "rematch",
            "play",
            "next_deal",
            "chat",
            "select",
            "bot",
            "fill",
            "takeover",
        }
    )

    table_id: int | None = None
    #: The source this connection picked for a two-step play (Grabush), "" for none.
    selected: str = ""
    #: What the last frame sent showed (snapshot key and selection): an unchanged view is
    #: not rendered and sent again.
    seen: tuple | None = None
    #: What each region of this connection's page shows (see ``games.regions``).
    shown: dict[str, object]

    async def on_accepted(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.table_id, arrived = await database_sync_to_async(presence.arrive)(
            code, self.user, self.channel_name
        )
        if self.table_id is None:
            await self.send(text_data=render_flash(_("There is no table at this address.")))
            await self.close(code=CLOSE_NOT_FOUND)
            return
        presence.opened(self.channel_name, self.table_id, self.user.pk)
        self.shown = {}
        self.group = notify.table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Every connect (and so every reconnect) starts with the full current view.
        frame, to_wake, token = await run_batched(self._first_frame)
        await self.send(text_data=frame)
        for table_id in to_wake:
            autoplay.kick(table_id)  # nobody connects to them
        if arrived:
            # Everyone's presence dots change; a pending computer move resumes (e.g. after a
            # server restart) through the table-changed handler.
            await notify.send(self.group, notify.table_changed())
        else:
            autoplay.kick(self.table_id, token=token)

    def _first_frame(self) -> tuple[str, list[int], str]:
        """The full current view, the tables this connection wakes, and the page's token if
        it still holds; only the connection line and the chat for a page that shows the
        table as it is (its token, sent back)."""
        to_wake = extensions.tables_to_wake(self.table_id)
        held = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [""])[0]
        if held and held == snapshots.current_token(self.table_id):
            return render_reconnected(self.table_id), to_wake, held
        frame = self._frame("", True, None, True)
        assert frame is not None  # a full frame is always rendered
        return frame, to_wake, ""

    async def disconnect(self, code: int) -> None:
        if self.table_id is None:
            return
        presence.closed(self.channel_name)
        if self.leaving:
            # A restart: the page reconnects to another server at once. Its presence stays
            # until this process is swept as gone, so nobody is shown away and back.
            await self.channel_layer.group_discard(self.group, self.channel_name)
            return
        await database_sync_to_async(presence.leave)(self.table_id, self.user.pk, self.channel_name)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await notify.send(self.group, notify.table_changed())
        autoplay.kick(self.table_id)  # an absent player's turn may now run out

    # -- frames ------------------------------------------------------------------------------

    def _frame(
        self,
        flash: str,
        full: bool,
        event: TableChanged | None,
        force: bool,
        snapshot: TableSnapshot | None = None,
    ) -> str | None:
        """This connection's frame, or None when it would show exactly what it last showed
        (unless ``force``: a request of this connection always gets an answer); ``snapshot``:
        the read for ``event`` when the caller has it already."""
        if snapshot is None:
            snapshot = snapshot_for(self.table_id, event)
        seen = (snapshot.key, self.selected)
        if seen == self.seen and not (flash or full or force):
            return None
        self.seen = seen
        return render_frame(
            snapshot.table,
            self.user,
            flash=flash,
            full=full,
            selected=self.selected,
            snapshot=snapshot,
            shown=self.shown,
        )

    async def send_frame(
        self,
        flash: str = "",
        *,
        full: bool = False,
        event: TableChanged | None = None,
        force: bool = False,
    ) -> None:
        """Render and send this connection's view (``event``: the change that asked for it)."""
        held = None if full else cached_snapshot(self.table_id, event)
        if held is not None:
            # This process holds the table as the change left it (it made the move): the
            # frame needs no database work, so it is rendered here, not on a trip to the
            # database thread (a thread hop costs more than a frame's rendering).
            frame = self._frame(flash, full, event, force, held)
        else:
            frame = await run_batched(self._frame, flash, full, event, force)
        if frame is not None:
            await self.send(text_data=frame)
            if event is not None and "committed" in event:  # a move's
                # Inline (not a call): this runs for every frame of every move.
                seconds = time.time() - event["committed"]
                metrics.frame_counts[bisect_left(metrics.FRAME_BOUNDS, seconds)] += 1
                metrics.frame_seconds[0] += seconds

    async def send_flash(self, message: str) -> None:
        await self.send(text_data=render_flash(message))

    async def table_changed(self, event: TableChanged) -> None:
        await self.send_frame(event=event)
        # After the frame: the read of the table made for it usually serves the driver too.
        autoplay.kick(self.table_id, event)

    async def chat_message(self, event: ChatLine) -> None:
        await self.send(text_data=event["html"])

    async def chat_notice(self, event: ChatNotice) -> None:
        """What the table's rules did because of the chat, said in this connection's language."""
        user = get_user_model()(username=event["name"])
        line = ChatMessage(pk=event["pk"], table_id=self.table_id, user=user, notice=event["kind"])
        html = render_to_string("games/partials/chat_line.html", {"line": line, "append": True})
        await self.send(text_data=html)

    async def chat_refresh(self, event: Event) -> None:
        """Moderators hid or restored messages: resend the whole chat log."""
        html = await database_sync_to_async(self._chat_log)()
        await self.send(text_data=html)

    def _chat_log(self) -> str:
        lines = recent_chat(self.table_id)
        return render_to_string("games/partials/chat_log.html", {"chat_lines": lines})

    # -- requests ----------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        try:
            message = parse_frame(text_data)
            await getattr(self, f"op_{message['op']}")(message)
        except play.StaleMove as error:
            await self.send_frame(flash=str(error))
        except (BadFrame, rows.TableError) as error:
            await self.send_flash(str(error))
        except Exception:
            # The socket stays open: a failed request must not cost the player their seat.
            logger.exception("a table request failed")
            await self.send_flash(
                _(
                    "Something went wrong with that request. "
                    "Reload the page if the table looks out of date."
                )
            )

    async def changed(self, *, lobby: bool) -> None:
        """Tell everyone at the table (and the lobby, when its list changed) to refresh."""
        await notify.send(self.group, notify.table_changed())
        if lobby:
            await notify.send(notify.LOBBY_GROUP, notify.lobby_changed())

    async def op_sit(self, message: Frame) -> None:
        seat = int_field(message, "seat")
        contribution = contribution_field(message)
        sat = await database_sync_to_async(seating.take_seat)(
            self.table_id, self.user, seat, contribution
        )
        if sat:
            await self.changed(lobby=True)

    async def op_leave(self, message: Frame) -> None:
        await database_sync_to_async(seating.leave_seat)(self.table_id, self.user)
        await self.changed(lobby=True)

    async def op_start(self, message: Frame) -> None:
        contribution = contribution_field(message)
        await database_sync_to_async(matches.start_match)(self.table_id, self.user, contribution)
        await self.changed(lobby=True)

    async def op_rematch(self, message: Frame) -> None:
        contribution = contribution_field(message)
        vote = await database_sync_to_async(matches.vote_rematch)(
            self.table_id, self.user, contribution
        )
        if vote.changed:
            await self.changed(lobby=vote.match is not None)

    async def op_play(self, message: Frame) -> None:
        action = str_field(message, "action", longest=64, empty=False)
        version = int_field(message, "version")
        # A choice of what to announce holds the first declaration's field, or the belot's.
        if "announce-d0" in message or "announce-belot" in message:
            quiet = quiet_keys(message)
            if quiet:  # the engine's form: the card, then what it keeps quiet
                action = f"{action}/{'+'.join(quiet)}"
        # A claimed penalty is said in the chat to both sides, with the reason.
        notice = "penalty" if action.startswith("penalty:") else ""
        await moves.move(self.table_id, self.user, action, version, notice)
        self.selected = ""

    async def op_next_deal(self, message: Frame) -> None:
        """The player has seen the finished deal's result."""
        if await database_sync_to_async(matches.ready_for_next_deal)(self.table_id, self.user):
            await self.changed(lobby=False)

    async def op_bot(self, message: Frame) -> None:
        """The creator seats a computer player (``level``) or, with no level, removes it."""
        level = str_field(message, "level", longest=20)
        seat = int_field(message, "seat")
        await database_sync_to_async(seating.set_bot)(self.table_id, self.user, seat, level)
        await self.changed(lobby=True)

    async def op_fill(self, message: Frame) -> None:
        """The creator seats computer players of ``level`` in every free seat."""
        level = str_field(message, "level", longest=20)
        if await database_sync_to_async(seating.fill_with_bots)(self.table_id, self.user, level):
            await self.changed(lobby=True)

    async def op_takeover(self, message: Frame) -> None:
        await database_sync_to_async(matches.take_over)(self.table_id, self.user)
        await self.changed(lobby=False)

    async def op_select(self, message: Frame) -> None:
        """Pick (or, with an empty source, drop) the first step of a two-step play."""
        self.selected = str_field(message, "source", longest=40)
        await self.send_frame(force=True)

    async def op_chat(self, message: Frame) -> None:
        """A chat line: typed (``text``), or one of the phrases (``phrase``), which are never
        table talk."""
        phrase = message.get("phrase")
        if phrase is not None:
            line = await database_sync_to_async(chat.post_phrase)(self.table_id, self.user, phrase)
        else:
            line = await database_sync_to_async(chat.post_message)(
                self.table_id, self.user, message.get("text")
            )
        html = render_to_string("games/partials/chat_line.html", {"line": line, "append": True})
        await notify.send(self.group, {"type": "chat.message", "html": html})
        if phrase is not None:
            return
        await self.send(text_data=render_to_string("games/partials/chat_form.html"))
        line = await database_sync_to_async(chat.apply_rule)(self.table_id, self.user)
        if line is not None:  # the notice first: no news of the table comes between the two
            await notify.send(self.group, notify.chat_notice(line))
            await self.changed(lobby=False)
