"""The move, and nothing else: the one path every move takes (load, check with the engine,
compare-and-set, log), and the entry a game's chat rule adds to the move log. A match's start,
its rematches, the pause between deals, the reading clock and taking a seat back are
:mod:`games.tables.matches`'.

Humans and computer players all move through :func:`apply_action` (the live layer calls it for
them, see ``games.live.moves``). The match is loaded under the table's lock, or taken from a
:class:`Position` the caller knows at the version the move was made on; either way the write is a
compare-and-set on the match's version, so a move made on anything but the current state changes
nothing. The move returns the position it led to; telling the screens is the caller's job.
"""

from __future__ import annotations

import copy
import functools
from datetime import datetime
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom import metrics

from ..catalog import Game, get_game
from ..engines import IllegalAction
from ..engines.contract import GameState
from ..models import Match, MatchPlayer, Move, Table
from ..records import ratings
from .matches import NEW_TURN_CLOCK, NoMatch, clock_waited, pause_active, pause_after
from .quick import hand_over_claimed_seats
from .rows import TableError, bump, lock_table, lock_with_match


class Position(NamedTuple):
    """A table and its match at one version: what a move starts from and what it leads to."""

    table: Table
    match: Match
    #: The match's players, by seat.
    players: list[MatchPlayer]
    #: The match's engine state, parsed.
    state: GameState


class StaleMove(TableError):
    """The move was made on an older state than the table's current one."""

    reason = metrics.STALE


def illegal_message(error: IllegalAction) -> str:
    """The engine's message, translated when a catalogue has it."""
    return _(error.template) % error.params if error.params else _(error.template)


#: Tries of a chat's consequence against moves committing at the same moment.
CHAT_RULE_TRIES = 20


def apply_chat_rule(table_id: int, user: AbstractBaseUser) -> bool:
    """Apply what the game does when a seated player chats during a match (Grabush's
    table-talk penalty); returns whether the match changed.

    The chat is already stored and shown, so its consequence is not lost to a move that
    commits meanwhile: it is applied again on the match as that move left it.
    """
    for _try in range(CHAT_RULE_TRIES - 1):
        try:
            return _apply_chat_rule(table_id, user)
        except StaleMove:
            continue
    return _apply_chat_rule(table_id, user)


def _apply_chat_rule(table_id: int, user: AbstractBaseUser) -> bool:
    with transaction.atomic():
        table, match = lock_with_match(table_id)
        if match is None or match.status != Match.Status.RUNNING:
            return False
        seat = match.players.filter(user=user).values_list("seat", flat=True).first()
        spec = get_game(match.game)
        entry = spec.chat_action(match.options, seat) if seat is not None else None
        if entry is None:
            return False
        before = spec.engine.loads(match.state)
        state = spec.apply_logged(before, seat, entry)
        _save(table, match, spec, state, seat, entry, user, before)
        return True


def _save(
    table: Table,
    match: Match,
    spec: Game,
    state: GameState,
    seat: int,
    action: str,
    user: AbstractBaseUser | None,
    before: GameState,
    pause_until: datetime | None = None,
    new_deal: bool = False,
) -> None:
    """Store ``state`` (which ``action`` made from ``before``) as the match's next version and
    log the action; ``new_deal``: it finished a deal and the next began, whose result shows
    until ``pause_until``.

    The match row is updated only if it is still at ``match.version`` and running (compare and
    set): of two moves made on one version, by two processes or two tabs, one applies and the
    other raises :class:`StaleMove`. A move that ends the match or a deal must hold the table's
    lock (``table`` read under it): the table's status and revision may change too.
    """
    version = match.version
    fields: dict[str, object] = {
        "state": spec.engine.dumps(state),
        "version": version + 1,
        "moved_at": timezone.now(),
        "last_seat": seat,
        "last_action": action,
    }
    if state.to_act != before.to_act:
        fields["turn_started_at"] = timezone.now()
    if match.paused_until is not None:
        fields["paused_until"] = None  # the pause had run out: this move starts the deal
    if pause_until is not None:
        # The next deal, and its first turn's timer, start once the result has been seen.
        fields.update(paused_until=pause_until, ready_seats=[], turn_started_at=pause_until)
    new_turn = "turn_started_at" in fields
    if state.to_act is None:
        fields.update(
            status=Match.Status.FINISHED, result=spec.result(state), finished_at=timezone.now()
        )
    if not _compare_and_set(match, fields, new_turn):
        raise StaleMove(_("The table moved on since your last view; here it is again."))
    if new_deal:
        # "Play now" players sit in from the deal that starts now.
        hand_over_claimed_seats(table, match, version + 1, spec.deals_done(state) + 1)
    user_id = user.pk if user is not None and user.is_authenticated else None
    _log(match.pk, version + 1, seat, action, user_id)
    if state.to_act is None:
        table.status = Table.Status.FINISHED
        bump(table, "status")
    # The row now holds what was just written: mirror it rather than read it back.
    for name, value in fields.items():
        setattr(match, name, value)
    if new_turn:
        match.reading_since, match.reading_waited = NEW_TURN_CLOCK.values()
    if match.status == Match.Status.FINISHED:
        ratings.record_finished_match(match)


def _compare_and_set(match: Match, fields: dict[str, object], new_turn: bool = False) -> bool:
    """Write ``fields`` to the match's row if it is still at ``match.version`` and running;
    ``new_turn``: also start the turn's reading clock afresh (:data:`NEW_TURN_CLOCK`), whatever
    this process read, since the rules may have been opened meanwhile."""
    # Written out: through ``QuerySet.update`` it is a sixth of a move (``manage.py bench moves``).
    db = transaction.get_connection()
    columns = [Match._meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(v, db) for f, v in zip(columns, fields.values(), strict=True)]
    with db.cursor() as cursor:
        cursor.execute(
            _update_sql(db.vendor, tuple(f.column for f in columns), new_turn),
            [*values, match.pk, match.version, Match.Status.RUNNING],
        )
        return cursor.rowcount == 1


@functools.cache
def _update_sql(vendor: str, columns: tuple[str, ...], new_turn: bool) -> str:
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(column)} = %s" for column in columns)
    if new_turn:  # NEW_TURN_CLOCK as constants: no value to convert on every move
        zero = "INTERVAL '0'" if vendor == "postgresql" else "0"
        since, waited = (Match._meta.get_field(name).column for name in NEW_TURN_CLOCK)
        assignments += f", {quote(since)} = NULL, {quote(waited)} = {zero}"
    key, version, status = (
        Match._meta.get_field(name).column for name in ("id", "version", "status")
    )
    return (
        f"UPDATE {quote(Match._meta.db_table)} SET {assignments} "
        f"WHERE {quote(key)} = %s AND {quote(version)} = %s AND {quote(status)} = %s"
    )


def _log(match_id: int, seq: int, seat: int, action: str, user_id: int | None) -> None:
    """Append an accepted action to the match's move log (written out: ``Move.objects.create``
    costs about a tenth of a move's CPU)."""
    db = transaction.get_connection()
    created = Move._meta.get_field("created_at").get_db_prep_save(timezone.now(), db)
    with db.cursor() as cursor:
        cursor.execute(_insert_sql(db.vendor), [match_id, seq, seat, action, user_id, created])


@functools.cache
def _insert_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    names = ("match_id", "seq", "seat", "action", "user_id", "created_at")
    columns = ", ".join(quote(Move._meta.get_field(name).column) for name in names)
    return f"INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES (%s, %s, %s, %s, %s, %s)"


def _match_for_move(
    table_id: int, version: int, known: Position | None
) -> tuple[Table, Match | None, list[MatchPlayer], GameState | None, bool]:
    """The table, its latest match, the match's players and its engine state, for a move made
    on ``version``, and whether they come from ``known``.

    A ``known`` position at ``version`` is used as it is: the compare-and-set in :func:`_save`
    refuses the move if the match moved on meanwhile, so reading again could not make a
    difference. Otherwise the table is locked and read.
    """
    if known is not None and known.match.version == version:
        # A copy: the move writes to it, and the caller's position stays as it was.
        return known.table, copy.copy(known.match), known.players, known.state, True
    table, match = lock_with_match(table_id)
    if match is None:
        return table, None, [], None, False
    players = list(match.players.all())
    return table, match, players, get_game(match.game).engine.loads(match.state), False


def apply_action(
    table_id: int,
    user: AbstractBaseUser | None,
    action: str,
    version: int,
    *,
    seat: int | None = None,
    cover: bool = False,
    timed_out: bool = False,
    known: Position | None = None,
) -> Position:
    """Apply ``action`` for ``user`` (or for ``seat``, for a computer player) if it is legal.

    ``version`` is the match version the player saw; anything else is refused as stale, so of
    two moves sent for one state (double click, two tabs) exactly one applies. ``cover``: the
    computer player moves for an absent human and covers the seat until they act again;
    ``timed_out``: it makes the one move of a human whose turn timer ran out.
    ``known``: the position the caller knows the table at, used instead of reading when it is
    at ``version`` (it is not written to). Returns the position the move led to.
    """
    with transaction.atomic():
        table, match, players, before, unlocked = _match_for_move(table_id, version, known)
        if match is None or match.status != Match.Status.RUNNING:
            raise NoMatch
        if version != match.version:
            raise StaleMove(_("The table moved on since your last view; here it is again."))
        if pause_active(match):
            raise TableError(_("The deal is over: the next one starts in a moment."))
        player = None
        if user is not None:
            player = next((p for p in players if p.user_id == user.pk), None)
            seat = player.seat if player is not None else None
        if seat is None:
            raise TableError(_("You are not playing in this match."))
        spec = get_game(match.game)
        try:
            state = spec.engine.apply(before, seat, action)
        except IllegalAction as error:
            raise TableError(illegal_message(error)) from None
        # A deal ended and the match goes on: the next one starts (after a pause, maybe).
        new_deal = state.to_act is not None and spec.deals_done(state) > spec.deals_done(before)
        # A turn whose clock waited ends: its clock runs again, which the screens read anew.
        read = clock_waited(match) and (state.to_act != before.to_act or new_deal)
        if unlocked and (state.to_act is None or new_deal or read):
            table = lock_table(table_id)  # the match or deal ends: the table may change too
        pause_until = pause_after(spec, match, players, state) if new_deal else None
        _save(table, match, spec, state, seat, action, user, before, pause_until, new_deal)
        if read:
            bump(table)
        changes = _seat_changes(players, seat, player, cover, timed_out)
        if changes:
            MatchPlayer.objects.filter(match_id=match.pk, seat=seat).update(**changes)
            players = _with_changes(players, seat, changes)
        return Position(table, match, players, state)


def _with_changes(
    players: list[MatchPlayer], seat: int, changes: dict[str, object]
) -> list[MatchPlayer]:
    """``players`` with ``changes`` made to ``seat``'s row (a copy: the rows given stay)."""
    changed = []
    for player in players:
        if player.seat == seat:
            player = copy.copy(player)
            for name, value in changes.items():
                setattr(player, name, value)
        changed.append(player)
    return changed


def _seat_changes(
    players: list[MatchPlayer],
    seat: int,
    player: MatchPlayer | None,
    cover: bool,
    timed_out: bool,
) -> dict[str, object]:
    """What a move changes in its seat's row: a human who acts takes the seat back from a
    covering computer; a run-out timer counts, and hands the seat over after a few in a row."""
    if player is not None:
        changes: dict[str, object] = {}
        if player.covered:
            changes["covered"] = False
        if player.timeouts:
            changes["timeouts"] = 0
        return changes
    if timed_out:
        mover = next(p for p in players if p.seat == seat)
        timeouts = mover.timeouts + 1
        if timeouts >= settings.TIMEOUTS_BEFORE_COVER:
            return {"covered": True, "timeouts": 0}
        return {"timeouts": timeouts}
    return {"covered": True} if cover else {}
