"""Table services: create a table, take and leave seats, ask for a rematch.

Every function that changes a table locks its row (``select_for_update``; on SQLite the
immediate transaction serialises writers) and bumps ``Table.revision``. Refusals raise
:class:`TableError` with a message for the player; nothing changes then.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import limits
from .catalog import get_game
from .models import Seat, Table


class TableError(Exception):
    """A refused request; ``str(error)`` is a translated message fit for the player."""


def create_table(
    owner: AbstractBaseUser,
    game: str,
    options: dict[str, Any],
    *,
    is_private: bool,
    turn_seconds: int = 0,
) -> Table:
    """Open a new table with ``owner`` in its first seat and the others free (``turn_seconds``:
    the turn timer, 0 for none)."""
    spec = get_game(game)
    limit = settings.MAX_OPEN_TABLES_PER_ACCOUNT
    if limits.open_tables(owner) >= limit:
        raise TableError(
            ngettext(
                "You have %(count)d table waiting or playing already: finish it first.",
                "You have %(count)d tables waiting or playing already: finish one first.",
                limit,
            )
            % {"count": limit}
        )
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            options=options,
            owner=owner,
            is_private=is_private,
            turn_seconds=turn_seconds,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=index, user=owner if index == 0 else None)
            for index in range(spec.seat_count(options))
        )
    return table


def lock_table(table_id: int) -> Table:
    """Fetch a table for update inside the caller's transaction (the per-table lock)."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("This table no longer exists.")) from None


def bump(table: Table, *fields: str) -> None:
    """Save ``fields`` and the next revision: live views of the table will refresh."""
    table.revision += 1
    table.save(update_fields=["revision", "updated_at", *fields])


def _require_seating_allowed(table: Table) -> None:
    if table.status == Table.Status.PLAYING:
        raise TableError(_("Seats can't change while a match is being played."))
    if table.status == Table.Status.ABORTED:
        raise TableError(_("This table was closed."))


def take_seat(table_id: int, user: AbstractBaseUser, index: int) -> bool:
    """Seat ``user`` at ``index``, leaving any other seat they had at this table; return
    whether anything changed (False: they sit there already)."""
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
        for seat in seats:
            if seat.user_id == user.pk:
                seat.user = None
                seat.save(update_fields=["user"])
        target.user = user
        target.save(update_fields=["user"])
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return True


def leave_seat(table_id: int, user: AbstractBaseUser) -> Table:
    """Free the seat ``user`` holds at this table (they stay as a spectator)."""
    with transaction.atomic():
        table = lock_table(table_id)
        _require_seating_allowed(table)
        if not Seat.objects.filter(table=table, user=user).update(user=None):
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


def seat_of(table: Table, user: AbstractBaseUser) -> int | None:
    """The seat index ``user`` holds at ``table``, or None for a spectator."""
    if not user.is_authenticated:
        return None
    return table.seats.filter(user=user).values_list("index", flat=True).first()
