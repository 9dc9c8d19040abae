"""What a connection is shown: a table's context for one user, and the HTML frames sent live.

Each user's page and every websocket frame are rendered from :func:`table_context`, which asks
the engine for **that user's seat's** view only (spectators: ``seat=None``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from .catalog import get_game
from .models import ChatMessage, Match, MatchPlayer, Seat, Table
from .play import current_match
from .presence import live_presences
from .presenters import belote as belote_presenter
from .presenters import grabush as grabush_presenter

#: Game name -> presenter module (``board_context(view, seats, viewer, selected)``,
#: ``describe(action)``).
PRESENTERS = {"belote": belote_presenter, "grabush": grabush_presenter}


def _bot_level_choices() -> list[tuple[str, str]]:
    return [("easy", _("easy")), ("normal", _("normal")), ("hard", _("hard"))]


def computer_name(level: str) -> str:
    """How a computer player is named on a seat: "Computer (normal)"."""
    return _("Computer (%(level)s)") % {"level": dict(_bot_level_choices()).get(level, level)}


@dataclass(frozen=True)
class TableSnapshot:
    """The rows every connection to a table shows, read once (per change event, see
    :func:`event_snapshot`); each connection then builds its own seat's view from them."""

    table: Table
    seats: list[Seat]
    online: frozenset[int]
    match: Match | None
    players: list[MatchPlayer]
    #: The last accepted move (``{"seat", "action"}``), empty before the first.
    last_move: dict[str, Any]
    #: The match's engine state, parsed (None without a match).
    state: Any

    @property
    def key(self) -> tuple:
        """Changes whenever anything the table's frames show may have changed."""
        match = self.match
        return (
            self.table.revision,
            self.online,
            match.pk if match else None,
            match.version if match else None,
        )


def load_snapshot(table: Table) -> TableSnapshot:
    """Read what the table's frames need (a handful of queries, no per-user work)."""
    match = current_match(table)
    state = players = last = None
    if match is not None:
        players = list(match.players.all())
        last = match.moves.order_by("-seq").values("seat", "action").first()
        spec = get_game(table.game)
        state = spec.engine.loads(match.state)
    return TableSnapshot(
        table=table,
        seats=list(table.seats.select_related("user").order_by("index")),
        online=frozenset(live_presences().filter(table=table).values_list("user_id", flat=True)),
        match=match,
        players=players or [],
        last_move=last or {},
        state=state,
    )


#: Snapshots by (table id, change event): the connections a change event reaches in this
#: process share one read. Bounded; an event's entry is only useful for a moment.
_event_snapshots: OrderedDict[tuple[int, str], TableSnapshot] = OrderedDict()
_event_lock = threading.Lock()
EVENT_SNAPSHOTS = 256


def event_snapshot(table_id: int, event: str) -> TableSnapshot:
    """The table as read after change ``event`` (an id from :func:`notify.table_changed`).

    The first connection to handle an event reads the table; the others reuse that read,
    which is as fresh as their own would be: it was made after the event was sent.
    """
    key = (table_id, event)
    with _event_lock:
        snapshot = _event_snapshots.get(key)
    if snapshot is None:
        snapshot = load_snapshot(Table.objects.get(pk=table_id))
        with _event_lock:
            _event_snapshots[key] = snapshot
            while len(_event_snapshots) > EVENT_SNAPSHOTS:
                _event_snapshots.popitem(last=False)
    return snapshot


def _seat_rows(snapshot: TableSnapshot, user: AbstractBaseUser, spec) -> list[dict]:
    table, online = snapshot.table, snapshot.online
    teams = spec.teams(table.options)
    rows = []
    for seat in snapshot.seats:
        if seat.user is not None:
            name = seat.user.get_username()
        elif seat.bot_level:
            name = computer_name(seat.bot_level)
        else:
            name = ""
        rows.append(
            {
                "index": seat.index,
                "number": seat.index + 1,
                "name": name,
                "is_free": seat.is_free,
                "is_bot": bool(seat.bot_level),
                "is_me": seat.user_id == user.pk,
                "online": seat.user_id in online,
                "team": 0 if seat.index in teams[0] else 1,
            }
        )
    return rows


def announcement(match: Match, names: dict[int, str], last: dict[str, Any]) -> str:
    """A sentence for screen readers about the last accepted move (``last``: its ``seat``
    and ``action``; empty before the first move)."""
    if not last:
        return _("The match has started.")
    words = PRESENTERS[match.game].describe(last["action"])
    return _("%(name)s: %(action)s") % {"name": names.get(last["seat"], ""), "action": words}


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
        snapshot = load_snapshot(table)
    table = snapshot.table
    spec = get_game(table.game)
    seats = _seat_rows(snapshot, user, spec)
    me = next((seat["index"] for seat in seats if seat["is_me"]), None)
    match = snapshot.match
    context: dict[str, Any] = {
        "table": table,
        "seats": seats,
        "me": me,
        "is_owner": table.owner_id == user.pk,
        "match": match,
        "board_template": spec.board_template,
        "all_seated": all(not seat["is_free"] for seat in seats),
        "rematch_votes": table.rematch_votes,
        "bot_levels": _bot_level_choices(),
        "i_voted_rematch": me is not None and me in table.rematch_votes,
    }
    if match is not None:
        players = snapshot.players
        covered = {player.seat for player in players if player.covered}
        for seat in seats:
            seat["covered"] = seat["index"] in covered
        viewer = next((p.seat for p in players if p.user_id == user.pk), None)
        context["i_am_covered"] = viewer in covered
        if match.status == Match.Status.RUNNING and table.turn_seconds and match.turn_started_at:
            deadline = match.turn_started_at.timestamp() + table.turn_seconds
            context["deadline_ms"] = int(deadline * 1000)
        view = spec.engine.view(snapshot.state, viewer)
        context["view"] = view
        context["viewer"] = viewer
        context["version"] = match.version
        context.update(PRESENTERS[table.game].board_context(view, seats, viewer, selected))
        names = {s["index"]: s["name"] for s in seats}
        context["announcement"] = announcement(match, names, snapshot.last_move)
    return context


def recent_chat(table: Table, count: int = 50) -> list[ChatMessage]:
    """The last ``count`` visible chat lines, oldest first."""
    lines = table.chat_messages.filter(hidden=False).select_related("user").order_by("-pk")
    return list(reversed(lines[:count]))


def render_frame(
    table: Table,
    user: AbstractBaseUser,
    *,
    flash: str = "",
    full: bool = False,
    selected: str = "",
    snapshot: TableSnapshot | None = None,
) -> str:
    """The live frame: every region of the table page, swapped by id on the client.

    ``full`` adds the chat log, for a (re)connect that may have missed messages.
    """
    context = table_context(table, user, selected, snapshot)
    context["flash"] = flash
    if full:
        context["chat_lines"] = recent_chat(table)
    return render_to_string("games/partials/frame.html", context)


def render_flash(message: str) -> str:
    """A frame carrying only an error or notice for one connection."""
    return render_to_string("games/partials/flash.html", {"flash": message})
