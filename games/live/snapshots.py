"""One read of a table after a change, shared by everything in this process that reacts to it.

A change to a table is announced by a small event (``notify.table_changed``) that names the
change with an id. Every connection of this process that hears the event, and the table's
automatic-move driver, need the same rows: :func:`event_snapshot` reads them once per event
and hands the same :class:`TableSnapshot` to all of them. Nothing here depends on who looks:
each connection then builds its own seat's view from the snapshot.

A move's event carries the move (:func:`move_news`): the process that made it keeps the table as
the move left it (:func:`record_move`), and any other process that holds the table as it was
just before applies the move to its read with the engine. Either way the event needs no read.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TypedDict

from django.db.models import F, OuterRef, Subquery

from ..catalog import get_game
from ..engines.contract import GameState
from ..models import Match, MatchPlayer, Presence, Seat, Table
from ..tables import play
from .messages import MoveNews, TableChanged


class LastMove(TypedDict, total=False):
    """The last accepted move of a match: who made it and what it was."""

    seat: int
    action: str


@dataclass(frozen=True)
class TableSnapshot:
    """The rows every connection to a table shows, read once (per change event, see
    :func:`event_snapshot`); each connection then builds its own seat's view from them."""

    table: Table
    seats: list[Seat]
    online: frozenset[int]
    match: Match | None
    #: The match's players, each with ``user_active``: whether its user may play (None for a
    #: computer player; a banned user is not active).
    players: list[MatchPlayer]
    #: The match's engine state, parsed (None without a match).
    state: GameState | None
    #: The regions rendered from this read, by language: the connections sharing the read
    #: reuse each other's (see ``regions.render_shared``).
    renders: dict[str | None, dict] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: What the frames of this read show every viewer alike, by language (``frames``).
    common: dict[str | None, dict] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: What the presenter shows each side alike, by (language, side) (``frames``).
    sides: dict[tuple[str | None, object], dict] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: What the live region tells each side of the last move, by (language, side) (``frames``).
    announcements: dict[tuple[str | None, object], str] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @functools.cached_property
    def seat_of(self) -> dict[int, int]:
        """The seat index of each seated user, by user id (every connection looks itself up)."""
        return {seat.user_id: seat.index for seat in self.seats if seat.user_id is not None}

    @functools.cached_property
    def player_of(self) -> dict[int, MatchPlayer]:
        """The match's human players, by user id."""
        return {player.user_id: player for player in self.players if player.user_id is not None}

    @property
    def last_move(self) -> LastMove:
        """The last accepted move (``{"seat", "action"}``), empty before the first."""
        match = self.match
        if match is None or match.last_seat is None:
            return {}
        return {"seat": match.last_seat, "action": match.last_action}

    @functools.cached_property
    def key(self) -> tuple:
        """Changes whenever anything the table's frames show may have changed (a read never
        changes: every connection sharing it asks)."""
        match = self.match
        return (
            self.table.revision,
            self.online,
            match.pk if match else None,
            match.version if match else None,
        )

    @functools.cached_property
    def token(self) -> str:
        """:attr:`key` as a page holds it (:func:`current_token`)."""
        return token_of(self.key)


def token_of(key: tuple) -> str:
    """A snapshot's key as a short string: what a page built from it shows, so that a page
    that reconnects with the token of the table as it is now needs no new render."""
    revision, online, match_pk, version = key
    people = ",".join(map(str, sorted(online))).encode()
    return f"{revision}.{match_pk}.{version}.{hashlib.blake2s(people, digest_size=6).hexdigest()}"


def current_token(table_id: int) -> str | None:
    """The :attr:`TableSnapshot.token` a read of the table now would have, in two queries
    (None for an unknown table)."""
    latest = Match.objects.filter(table_id=OuterRef("pk")).order_by("-number")
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(
            match_pk=Subquery(latest.values("pk")[:1]),
            match_version=Subquery(latest.values("version")[:1]),
        )
        .values_list("revision", "match_pk", "match_version")
        .first()
    )
    if row is None:
        return None
    revision, match_pk, version = row
    online = Presence.objects.live().filter(table_id=table_id).values_list("user_id", flat=True)
    return token_of((revision, frozenset(online), match_pk, version))


def load_snapshot(table_id: int) -> TableSnapshot:
    """Read what the table's frames need: four queries for a table with a match, whatever
    the number of players. Raises ``Table.DoesNotExist`` for an unknown table."""
    # The event a table belongs to comes with it: the frames that show it render in the loop.
    match = (
        Match.objects.filter(table_id=table_id)
        .select_related("table__event_table__event", "table__daily_entry__daily")
        .order_by("-number")
        .first()
    )
    table = (
        match.table
        if match is not None
        else Table.objects.select_related("event_table__event", "daily_entry__daily").get(
            pk=table_id
        )
    )
    state = players = None
    if match is not None:
        players = list(
            MatchPlayer.objects.filter(match_id=match.pk)
            .annotate(user_active=F("user__is_active"))
            .order_by("seat")
        )
        state = get_game(table.game).engine.loads(match.state)
    online = Presence.objects.live().filter(table=table).values_list("user_id", flat=True)
    return TableSnapshot(
        table=table,
        seats=list(table.seats.select_related("user").order_by("index")),
        online=frozenset(online),
        match=match,
        players=players or [],
        state=state,
    )


#: Snapshots by (table id, change event): the connections a change event reaches in this
#: process share one read. Bounded; an event's entry is only useful for a moment.
_event_snapshots: OrderedDict[tuple[int, str], TableSnapshot] = OrderedDict()
#: The latest read of each table in this process (a move made on it reads nothing).
_latest: OrderedDict[int, TableSnapshot] = OrderedDict()
_event_lock = threading.Lock()
EVENT_SNAPSHOTS = 256
LATEST_SNAPSHOTS = 1024


def event_snapshot(
    table_id: int, event: str, *, news: MoveNews | TableChanged | None = None
) -> TableSnapshot:
    """The table as read after change ``event`` (an id from :func:`notify.table_changed`).

    The first caller to handle an event reads the table; the others reuse that read, which
    is as fresh as their own would be: it was made after the event was sent. Without an
    ``event`` the table is read afresh. ``news``: the move the event carries
    (:func:`move_news`); when this process holds the table at the version it led to, or just
    before it, nothing is read.
    """
    if not event:
        return _remember(load_snapshot(table_id))
    snapshot = _held(table_id, event, news)
    if snapshot is None:
        snapshot = _remember(load_snapshot(table_id))
        with _event_lock:
            _keep(table_id, event, snapshot)
    return snapshot


def cached_snapshot(table_id: int, event: TableChanged | None) -> TableSnapshot | None:
    """The read this process already holds for a ``table.changed`` event, if any (no query)."""
    if event is None or not event.get("event"):
        return None
    return _held(table_id, event["event"], _news(event))


def snapshot_for(table_id: int, event: TableChanged | None) -> TableSnapshot:
    """The read of the table for a ``table.changed`` event (None: read it afresh)."""
    if event is None:
        return event_snapshot(table_id, "")
    return event_snapshot(table_id, event.get("event", ""), news=_news(event))


def _news(event: TableChanged) -> TableChanged | None:
    """The move a ``table.changed`` event carries (:func:`move_news`), if any."""
    return event if "version" in event else None


def _held(table_id: int, event: str, news: MoveNews | TableChanged | None) -> TableSnapshot | None:
    """The read made for ``event`` already, or else the latest read if it is at the version
    the ``news`` led to, or just before it (then with the move applied)."""
    with _event_lock:
        snapshot = _event_snapshots.get((table_id, event))
        if snapshot is not None or news is None:
            return snapshot
        latest = _latest.get(table_id)
        if latest is None or latest.match is None or latest.match.pk != news["match"]:
            return None
        if latest.match.version == news["version"]:
            return _keep(table_id, event, latest)
        if latest.match.version == news["version"] - 1 and "carry" in news:
            snapshot = _carried(latest, news["carry"])
            if snapshot is not None:
                _latest[table_id] = snapshot
                return _keep(table_id, event, snapshot)
        return None


#: The match fields a move writes that the frames show (:func:`move_news`).
MOVED_FIELDS = ("version", "last_seat", "last_action", "ready_seats")
MOVED_TIMES = ("moved_at", "turn_started_at", "paused_until")
#: The mover's fields a move may change (``play._seat_changes``).
MOVER_FIELDS = ("covered", "timeouts")


def move_news(moved: play.Position) -> MoveNews:
    """What a move's event carries: the match and version it led to and, while the match runs,
    the move and what it wrote (``carry``, one string: the in-memory layer copies an event
    for every connection it reaches, the Redis layer encodes it), so that every process
    holding the version before can apply it to its read instead of reading the table again."""
    match = moved.match
    news: MoveNews = {"match": match.pk, "version": match.version}
    if match.status == Match.Status.RUNNING:
        mover = next(p for p in moved.players if p.seat == match.last_seat)
        news["carry"] = json.dumps(
            [
                moved.table.revision,
                [getattr(match, name) for name in MOVED_FIELDS],
                [_iso(getattr(match, name)) for name in MOVED_TIMES],
                [getattr(mover, name) for name in MOVER_FIELDS],
            ]
        )
    return news


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _carried(before: TableSnapshot, carry: str) -> TableSnapshot | None:
    """``before`` with the move in ``carry`` (:func:`move_news`) applied, or None when the
    table changed otherwise too (the engine is deterministic: the state is the one the mover
    stored)."""
    revision, fields, times, mover = json.loads(carry)
    if revision != before.table.revision:
        return None
    match = copy.copy(before.match)
    for name, value in zip(MOVED_FIELDS, fields, strict=True):
        setattr(match, name, value)
    for name, value in zip(MOVED_TIMES, times, strict=True):
        setattr(match, name, datetime.fromisoformat(value) if value is not None else None)
    match.state = ""  # the stored text is not kept: ``state`` is the parsed one
    spec = get_game(before.table.game)
    state = spec.engine.apply(before.state, match.last_seat, match.last_action)
    players = list(before.players)
    for index, player in enumerate(players):
        if player.seat == match.last_seat:
            players[index] = copy.copy(player)
            for name, value in zip(MOVER_FIELDS, mover, strict=True):
                setattr(players[index], name, value)
    return replace(before, match=match, players=players, state=state)


def _keep(table_id: int, event: str, snapshot: TableSnapshot) -> TableSnapshot:
    """Record ``snapshot`` as the read for ``event`` (hold ``_event_lock``)."""
    _event_snapshots[(table_id, event)] = snapshot
    while len(_event_snapshots) > EVENT_SNAPSHOTS:
        _event_snapshots.popitem(last=False)
    return snapshot


def position_at(table_id: int, version: int) -> play.Position | None:
    """This process's latest read of the table as a position, if its match is running at
    ``version`` (no query; None otherwise): a move made on it needs no read."""
    with _event_lock:
        latest = _latest.get(table_id)
    if latest is None or latest.match is None or latest.match.version != version:
        return None
    if latest.match.status != Match.Status.RUNNING:
        return None
    return play.Position(latest.table, latest.match, latest.players, latest.state)


def record_move(moved: play.Position) -> None:
    """Keep the table as a move made by this process left it: the move's event then needs no
    read here.

    Only a read of the version just before is carried forward. Anything else that changes a
    table sends an event of its own, which is read whole; and if this process has not seen
    the version before, something happened in between, so the event reads the table.
    """
    table, match = moved.table, moved.match
    with _event_lock:
        before = _latest.get(table.pk)
    if before is None or _at(before) != (match.pk, match.version - 1):
        return
    if match.status != Match.Status.RUNNING or table.revision != before.table.revision:
        return  # the move ended the match or changed the table (seats at a new deal): read it
    _remember(replace(before, table=table, match=match, players=moved.players, state=moved.state))


def _at(snapshot: TableSnapshot) -> tuple[int, int] | None:
    """The match id and version a read shows (None before the first match)."""
    match = snapshot.match
    return (match.pk, match.version) if match is not None else None


def _remember(snapshot: TableSnapshot) -> TableSnapshot:
    with _event_lock:
        _latest[snapshot.table.pk] = snapshot
        _latest.move_to_end(snapshot.table.pk)
        while len(_latest) > LATEST_SNAPSHOTS:
            _latest.popitem(last=False)
    return snapshot


def forget() -> None:
    """Drop every read kept by this process (tests: table ids repeat between them)."""
    with _event_lock:
        _event_snapshots.clear()
        _latest.clear()
