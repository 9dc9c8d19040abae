"""Seats: take and leave them, and the creator's computer players (locks, revisions and
refusals as in ``rows``; a quick table's seats follow ``quick``)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from ..catalog import get_game
from ..models import Seat, Table
from ..people import access
from .quick import leave_quick_table
from .rows import (
    TableError,
    bump,
    checked_contribution,
    lock_table,
)


def _require_seating_allowed(table: Table) -> None:
    if table.status == Table.Status.PLAYING:
        raise TableError(_("Seats can't change while a match is being played."))
    if table.status == Table.Status.ABORTED:
        raise TableError(_("This table was closed."))


def take_seat(table_id: int, user: AbstractBaseUser, index: int, contribution: str = "") -> bool:
    """Seat ``user`` at ``index``, leaving any other seat they had at this table; return
    whether anything changed (False: they sit there already). ``contribution``: their browser's
    share of the next match's seed."""
    contribution = checked_contribution(contribution)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_seating_allowed(table)
        seats = list(table.seats.all())
        if not 0 <= index < len(seats):
            raise TableError(_("There is no such seat."))
        target = seats[index]
        if target.user_id == user.pk:
            return False
        if not target.is_free:
            raise TableError(_("That seat is taken."))
        barrier = access.seat_barrier(table, user)
        if barrier is access.Barrier.BLOCKED:
            raise TableError(_("You cannot sit at this private table."))
        if barrier is access.Barrier.CLUB:
            raise TableError(_("Only the club's members can sit at this table."))
        for seat in seats:
            if seat.user_id == user.pk:
                seat.user, seat.contribution = None, ""
                seat.save(update_fields=["user", "contribution"])
        target.user, target.contribution = user, contribution
        target.save(update_fields=["user", "contribution"])
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return True


def leave_seat(table_id: int, user: AbstractBaseUser) -> Table:
    """Free the seat ``user`` holds at this table (they stay as a spectator); at a quick table
    a computer player takes it back."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.quick:
            leave_quick_table(table, user)
            return table
        _require_seating_allowed(table)
        if not Seat.objects.filter(table=table, user=user).update(user=None, contribution=""):
            raise TableError(_("You are not sitting at this table."))
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return table


def set_bot(table_id: int, user: AbstractBaseUser, index: int, level: str) -> Table:
    """The table's creator puts a computer player of ``level`` in a free seat, or, with an
    empty ``level``, takes one away."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's creator can seat computer players."))
        _require_seating_allowed(table)
        seat = table.seats.filter(index=index).first()
        if seat is None:
            raise TableError(_("There is no such seat."))
        if level:
            if level not in get_game(table.game).bots:
                raise TableError(_("There is no such computer player."))
            if seat.user_id is not None or seat.bot_level:
                raise TableError(_("That seat is taken."))
        elif not seat.bot_level:
            raise TableError(_("No computer player sits there."))
        elif table.quick:
            raise TableError(_("A quick table keeps a computer player in every seat nobody takes."))
        seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return table


def fill_with_bots(table_id: int, user: AbstractBaseUser, level: str) -> int:
    """The table's creator seats a computer player of ``level`` in every free seat; returns
    how many were seated."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's creator can seat computer players."))
        _require_seating_allowed(table)
        if level not in get_game(table.game).bots:
            raise TableError(_("There is no such computer player."))
        filled = table.seats.filter(user=None, bot_level="").update(bot_level=level)
        if filled:
            table.rematch_votes = []
            bump(table, "rematch_votes")
    return filled


# -- "Play now": quick tables -------------------------------------------------------------------
