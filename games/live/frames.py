"""What a connection is shown: a table's context for one user, and the HTML frames sent live.

Each user's page and every websocket frame are rendered from :func:`table_context`, which asks
the engine for **that user's seat's** view only (spectators: ``seat=None``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from friendship.models import FriendshipRequest

from ..catalog import get_game
from ..models import ChatMessage, Event, EventPair, Invitation, Match, Table
from ..presenters import READING_THE_RULES, Presenter, Region
from ..presenters.computers import bot_level_choices, computer_first_name, computer_name
from ..presenters.words import per_language
from ..tables import chat, matches
from ..tables.quick import waiting_claims
from .regions import LANGUAGE, RENDERS, remember, render_changed
from .snapshots import LastMove, TableSnapshot, load_snapshot


def _seat_rows(snapshot: TableSnapshot, spec) -> list[dict]:
    """The seats as every viewer sees them (``is_me`` is set per viewer)."""
    table, online = snapshot.table, snapshot.online
    teams = spec.teams(table.options)
    covered = {player.seat for player in snapshot.players if player.covered}
    claims = waiting_claims(snapshot.seats, snapshot.match, snapshot.players)
    earlier = {
        player.seat: (player.joined_deal, computer_first_name(player.seat))
        for player in snapshot.players
        if player.joined_deal is not None and player.replaced_level
    }
    rows = []
    for seat in snapshot.seats:
        claim = claims.get(seat.index)
        if claim is not None:  # a "Play now" player's seat: its computer plays until then
            name = computer_name(claim.bot_level, seat.index)
        elif seat.user is not None:
            name = seat.user.get_username()
        elif seat.bot_level:
            name = computer_name(seat.bot_level, seat.index)
        else:
            name = ""
        is_bot = bool(seat.bot_level) or claim is not None
        rows.append(
            {
                "index": seat.index,
                "number": seat.index + 1,
                "name": name,
                # On the felt, where space is short: a computer's first name (and a mark).
                "short_name": computer_first_name(seat.index) if is_bot else name,
                "is_free": seat.is_free,
                "is_bot": is_bot,
                "is_me": False,
                "online": seat.user_id in online,
                "team": 0 if seat.index in teams[0] else 1,
                "covered": seat.index in covered,
                "earlier": earlier.get(seat.index),
                "claim_note": spec.claim_note(seat.index + 1, seat.user.get_username())
                if claim is not None
                else "",
            }
        )
    return rows


def announcement(
    presenter: Presenter,
    view: Mapping[str, object],
    last: LastMove,
    names: dict[int, str],
    side: object,
) -> str:
    """What the live region tells the viewers of ``side`` about the last accepted move
    (``last``: its ``seat`` and ``action``; empty before the first move), in sentences."""
    if not last:
        return _("The match has started.")
    return " ".join(presenter.announce(view, last, names, side))


class DealPause(NamedTuple):
    """A finished deal's result showing before the next deal (hashable: regions key on it)."""

    #: When the next deal starts at the latest (epoch milliseconds).
    until_ms: int
    #: The seats and names of the humans the table still waits for.
    waiting: tuple[tuple[int, str], ...]


class FairDeals(NamedTuple):
    """What the table shows of its deals' commitment (hashable: a region keys on it)."""

    #: Whether it is the running match's (else the next match's).
    running: bool
    #: The SHA-256 of the server's secret; never the secret.
    commitment: str
    #: Numbers of the seats whose players' browsers have contributed.
    contributed: tuple[int, ...]


def _fair_deals(snapshot: TableSnapshot) -> FairDeals:
    match = snapshot.match
    if match is not None and match.status == Match.Status.RUNNING and match.secret:
        seats = tuple(c["seat"] + 1 for c in match.contributions)
        return FairDeals(True, match.commitment, seats)
    seats = tuple(seat.index + 1 for seat in snapshot.seats if seat.contribution)
    return FairDeals(False, snapshot.table.next_commitment, seats)


def _paused(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` between two deals: nobody to act and no cards in hand yet."""
    return {
        **view,
        "to_act": None,
        "legal": [],
        "hand": [],
        "hand_sizes": [0] * len(view["hand_sizes"]),
    }


def _common_context(snapshot: TableSnapshot) -> dict[str, Any]:
    """The part of :func:`table_context` that reads the same for every viewer."""
    table, match = snapshot.table, snapshot.match
    spec = get_game(table.game)
    seats = _seat_rows(snapshot, spec)
    context: dict[str, Any] = {
        "table": table,
        "seats": seats,
        "match": match,
        "board_template": spec.board_template,
        "seating_note": spec.seating_note(len(seats)),
        "all_seated": all(not seat["is_free"] for seat in seats),
        "rematch_votes": table.rematch_votes,
        "bot_levels": [choice for choice in bot_level_choices() if choice[0] in spec.bots],
        "default_bot_level": spec.cover_level,
        "timeouts_before_cover": settings.TIMEOUTS_BEFORE_COVER,
        "fair": _fair_deals(snapshot),
    }
    context["chat_warning"] = ""
    if match is not None:
        if match.status == Match.Status.RUNNING:
            context["chat_warning"] = spec.chat_warning(table.options)
        if match.status == Match.Status.RUNNING and matches.pause_active(match):
            waiting = matches.waiting_for_next_deal(match, snapshot.players)
            context["pause"] = DealPause(
                int(match.paused_until.timestamp() * 1000),
                tuple((player.seat, seats[player.seat]["name"]) for player in waiting),
            )
        elif match.status == Match.Status.RUNNING and match.reading_since is not None:
            context["deadline_ms"] = READING_THE_RULES  # the clock waits: no countdown
        elif match.status == Match.Status.RUNNING and table.turn_seconds and match.turn_started_at:
            deadline = match.turn_started_at.timestamp() + table.turn_seconds
            context["deadline_ms"] = int(deadline * 1000)
        context["version"] = match.version
        context["seat_names"] = {seat["index"]: seat["short_name"] for seat in seats}
    return context


def table_context(
    table: Table,
    user: AbstractBaseUser,
    selected: str = "",
    snapshot: TableSnapshot | None = None,
) -> dict[str, Any]:
    """Everything the table page and its live frames show ``user``.

    ``selected`` is the source this connection picked for a two-step play (Grabush);
    ``snapshot`` a read of ``table`` already made (else it is read now).
    """
    if snapshot is None:
        snapshot = load_snapshot(table.pk)
    language = get_language()
    common = snapshot.common.get(language)
    if common is None:  # built once per read and language, for every connection sharing it
        common = snapshot.common[language] = _common_context(snapshot)
    context = dict(common)
    # The regions rendered from this read, which the other connections sharing it may reuse.
    context[RENDERS] = snapshot.renders.setdefault(language, {})
    context[LANGUAGE] = language
    table, match = snapshot.table, snapshot.match
    user_id = user.pk  # once: a socket's user is a lazy object, each attribute read a detour
    me = snapshot.seat_of.get(user_id)
    context["my_claim_note"] = ""
    context["page_token"] = snapshot.token
    if me is not None and any(r["index"] == me and r["claim_note"] for r in context["seats"]):
        # Until the next deal they watch, as a spectator does.
        context["my_claim_note"], me = get_game(table.game).claim_note(me + 1), None
    if me is not None:
        context["seats"] = [
            dict(row, is_me=True) if row["index"] == me else row for row in context["seats"]
        ]
    if me is None:
        context["chat_warning"] = ""  # a spectator's chat changes nothing
    context.update(
        me=me,
        is_owner=table.owner_id == user_id,
        seated=me is not None,
        i_voted_rematch=me is not None and me in table.rematch_votes,
        # Only the creator of an open, full table may start it (a value of its own so that
        # the status reads the same for the creator and the others once the match runs).
        can_start=table.status == Table.Status.OPEN
        and context["all_seated"]
        and table.owner_id == user_id,
    )
    if match is not None:
        player = snapshot.player_of.get(user_id)
        viewer = player.seat if player is not None else None
        context["i_am_covered"] = player is not None and player.covered
        context["my_timeouts"] = player.timeouts if player is not None else 0
        game = get_game(table.game)
        view = game.engine.view(snapshot.state, viewer)
        pause = context.get("pause")
        if pause is not None:
            view = _paused(view)
            context["ready_for_next_deal"] = viewer is None or viewer in match.ready_seats
            context["waiting_for"] = [name for seat, name in pause.waiting if seat != viewer]
        context["view"] = view
        context["viewer"] = viewer
        context["played"] = viewer is not None
        to_act = view["to_act"]
        if "deadline_ms" in context and to_act is not None:
            # A computer moves at once: a countdown is for a human's turn. By seat, so that a
            # board region showing one seat changes only when that seat's turn does.
            mover = next((p for p in snapshot.players if p.seat == to_act), None)
            if mover is not None and mover.user_id is not None and not mover.covered:
                context["seat_deadlines"] = {str(to_act): context["deadline_ms"]}
        presenter = game.presenter
        # What the viewer's side is shown alike, built once per read, language and side.
        key = (language, presenter.side_of(viewer))
        side = snapshot.sides.get(key)
        if side is None:
            side = snapshot.sides[key] = presenter.side_context(view, context["seats"], viewer)
        told = snapshot.announcements.get(key)
        if told is None:
            told = snapshot.announcements[key] = announcement(
                presenter, view, snapshot.last_move, context["seat_names"], key[1]
            )
        context["announcement"] = told
        board = presenter.board_context(view, context["seats"], viewer, selected, side)
        context.update(board)
        # The version at which the viewer's turn began, when another seat's move (or the
        # start) began it: frames may skip states, so the page cannot tell from what it saw.
        began = context.get("my_turn") and snapshot.last_move.get("seat") != viewer
        context["turn_began"] = match.version if began else None
    return context


def table_page(table: Table, user: AbstractBaseUser) -> dict[str, Any]:
    """The context of ``table``'s page for ``user``: the table as a frame shows it, and the chat."""
    context = table_context(table, user)
    return {
        **context,
        "chat_lines": recent_chat(table.pk),
        "chat_phrases": chat.PHRASES,
        "announcer": announcer_html(context),
    }


def recent_chat(table_id: int, count: int = 50) -> list[ChatMessage]:
    """The last ``count`` visible chat lines of the table, oldest first."""
    lines = ChatMessage.objects.filter(table_id=table_id, hidden=False)
    lines = lines.select_related("user").order_by("-pk")
    return list(reversed(lines[:count]))


#: The regions of the table page every game has (the board's come from the game's presenter).
STATUS = Region(
    "games/partials/status.html",
    uses=(
        "table.status",
        "all_seated",
        "can_start",
        "i_am_covered",
        "my_claim_note",
        "my_timeouts",
        "timeouts_before_cover",
        "deadline_ms",
        "table.turn_seconds",
        "view.to_act",
        "view.result",
        "view.winner",
        "my_turn",
        "to_act_name",
        "to_act_computer",
        "seated",
        "played",  # a seat taken after the match (at a quick table) did not win or lose it
        "we_won",
        "match.pk",  # the pk alone: the HTML is kept by this key, and a key should not hold rows
        "i_voted_rematch",
    ),
    recurring=True,
)
#: What the page shows, as a token its reconnection sends back (``snapshots.token_of``).
PAGE_TOKEN = Region("games/partials/page_token.html", uses=("page_token",))
SEATS = Region(
    "games/partials/seats.html",
    uses=(
        "seats",
        "table.status",
        "seating_note",
        "is_owner",
        "all_seated",
        "bot_levels",
        "default_bot_level",
    ),
)


def announcer_html(context: dict[str, Any]) -> str:
    """The live region: the last move in words, then "Your turn." for the player on turn.

    Swapped inside (the live region itself stays in the page, as screen readers need): the
    paragraph is new each time, and its text alternates a trailing zero-width space with the
    version, so that the same words twice in a row still read as a change. Written out rather
    than a template: it is rendered twice on every move (``manage.py bench moves``).
    """
    version = context.get("version")
    said = escape(context.get("announcement") or "")
    turn = (
        _your_turn.in_language(context.get(LANGUAGE) or get_language())
        if context.get("my_turn")
        else ""
    )
    mark = "&#8203;" if version is not None and version % 2 == 0 else ""
    return SafeString(
        '<div id="announcer" class="visually-hidden" aria-live="polite" hx-swap-oob="innerHTML">'
        f"<p>{said}{turn}{mark}</p></div>"
    )


@per_language
def _your_turn() -> str:
    return " " + escape(_("Your turn."))


ANNOUNCER = Region("announcer", uses=("announcement", "my_turn", "version"), html=announcer_html)
CHAT_NOTE = Region("games/partials/chat_note.html", uses=("chat_warning",))
#: The commitment to the deals of the running or next match (``games.engines.fair_deals``).
FAIR_DEALS = Region("games/partials/fair_deals.html", uses=("fair",))
FLASH = Region("games/partials/flash.html", uses=("flash",), recurring=True)
#: Key under which a connection's ``shown`` remembers which match its board shows.
BOARD_MATCH = "board:match"


def render_frame(
    table: Table,
    user: AbstractBaseUser,
    *,
    flash: str = "",
    full: bool = False,
    selected: str = "",
    snapshot: TableSnapshot | None = None,
    shown: dict[str, object] | None = None,
) -> str:
    """The live frame: the regions of the table page that changed, swapped by id on the client.

    ``shown`` is what this connection's page shows (see :mod:`games.regions`), updated here;
    without it, or with ``full``, every region is sent. ``full`` also adds the chat log and
    the connection state, for a (re)connect that may have missed anything.
    """
    context = table_context(table, user, selected, snapshot)
    context["flash"] = flash
    if full or shown is None:
        shown = {} if shown is None else shown
        shown.clear()
        parts = [render_to_string("games/partials/frame_start.html", context)]
    else:
        parts = [render_changed((FLASH,), context, None)]  # always sent: it clears old notices
    parts.append(render_changed((STATUS, SEATS, FAIR_DEALS, PAGE_TOKEN), context, shown))
    match = context["match"]
    if match is not None:
        regions = get_game(match.game).presenter.REGIONS
        if shown.get(BOARD_MATCH) != match.pk:
            shown[BOARD_MATCH] = match.pk
            parts.append(render_to_string(context["board_template"], context))
            remember(regions, context, shown)
        else:
            parts.append(render_changed(regions, context, shown))
    parts.append(render_changed((ANNOUNCER, CHAT_NOTE), context, shown))
    if full:
        parts.append(
            render_to_string("games/partials/chat_log.html", {"chat_lines": recent_chat(table.pk)})
        )
    return "".join(parts)


def render_reconnected(table_id: int) -> str:
    """The first frame of a page that shows the table as it is: the connection line, no
    notice, and the chat it may have missed."""
    return render_to_string("games/partials/frame_start.html", {"flash": ""}) + render_to_string(
        "games/partials/chat_log.html", {"chat_lines": recent_chat(table_id)}
    )


def render_flash(message: str) -> str:
    """A frame carrying only an error or notice for one connection."""
    return render_to_string("games/partials/flash.html", {"flash": message})


def render_notice(user: AbstractBaseUser, kind: str, pk: int, table: str = "") -> str:
    """A notice for ``user``'s open pages: an invitation to answer, an answer to theirs, a
    friend request, a request to partner someone at an event or the answer to theirs, a cup's
    reminder, or an event's news (``table``: the code of the table a round seats them at); ""
    when it is no longer theirs or no longer waiting."""
    context: dict[str, object] = {"kind": kind}
    if kind == "invitation":
        context["invitation"] = (
            Invitation.objects.filter(pk=pk, to_user=user, status=Invitation.Status.PENDING)
            .select_related("table", "from_user")
            .first()
        )
        if context["invitation"] is None:
            return ""
    elif kind == "answer":
        context["invitation"] = (
            Invitation.objects.filter(pk=pk, from_user=user)
            .exclude(status=Invitation.Status.PENDING)
            .select_related("table", "to_user")
            .first()
        )
        if context["invitation"] is None:
            return ""
    elif kind == "friend_request":
        context["request"] = (
            FriendshipRequest.objects.filter(pk=pk, to_user=user, rejected__isnull=True)
            .select_related("from_user")
            .first()
        )
        if context["request"] is None:
            return ""
    elif kind == "event_soon":
        # A cup's reminder, while it has not started and they are still registered.
        registered = Q(pairs__player_id=user.pk) | Q(pairs__partner_id=user.pk)
        event = Event.objects.filter(registered, pk=pk, status=Event.Status.REGISTRATION).first()
        if event is None or event.starts_at is None:
            return ""
        left = (event.starts_at - timezone.now()).total_seconds()
        context.update(event=event, minutes=max(1, math.ceil(left / 60)))
    elif kind == "event_partner":
        context["pair"] = (
            EventPair.objects.filter(
                pk=pk, partner=user, waiting=True, event__status=Event.Status.REGISTRATION
            )
            .select_related("player", "event")
            .first()
        )
        if context["pair"] is None:
            return ""
    elif kind == "event_partner_accepted":
        context["pair"] = (
            EventPair.objects.filter(pk=pk, player=user, waiting=False)
            .select_related("partner", "event")
            .first()
        )
        if context["pair"] is None:
            return ""
    elif kind == "event_partner_declined":
        context["event"] = Event.objects.filter(pk=pk, status=Event.Status.REGISTRATION).first()
        if context["event"] is None or EventPair.objects.filter(event=pk, player=user).exists():
            return ""  # over, or they registered again meanwhile
    elif kind in ("event_round", "event_over"):
        context["event"] = Event.objects.filter(pk=pk).first()
        if context["event"] is None:
            return ""
        if kind == "event_round":
            context["table"] = Table.objects.filter(
                code=table, event_table__event_id=pk, seats__user_id=user.pk
            ).first()
            if context["table"] is None:
                return ""
    else:
        return ""
    return render_to_string("games/partials/notice.html", context)
