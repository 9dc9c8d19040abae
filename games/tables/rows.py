"""A table's rows and locks: creating and closing a table, the per-table and per-account
locks, the revision live pages follow, contributions to the next match's seed, and
:class:`TableError`.

Every function that changes a table locks its row (``select_for_update``; on SQLite the
immediate transaction serialises writers) and bumps ``Table.revision``. Refusals raise
:class:`TableError` with a message for the player; nothing changes then.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardroom import metrics

from ..catalog import get_game
from ..engines import fair_deals
from ..models import Club, Match, Seat, Table
from ..people import limits
from ..refusals import Refusal


class TableError(Refusal):
    """A refused request; ``str(error)`` is a translated message fit for the player."""


def create_table(
    owner: AbstractBaseUser,
    game: str,
    options: dict[str, object],
    *,
    is_private: bool,
    turn_seconds: int = 0,
    club: Club | None = None,
) -> Table:
    """Open a new table with ``owner`` in its first seat and the others free (``turn_seconds``:
    the turn timer, 0 for none; ``club``: a club's table, private to its members)."""
    spec = get_game(game)
    with transaction.atomic():
        lock_account(owner)
        if limits.open_tables(owner) >= settings.MAX_OPEN_TABLES_PER_ACCOUNT:
            raise too_many_tables()
        table = Table.objects.create(
            game=game,
            options=options,
            owner=owner,
            is_private=is_private or club is not None,
            turn_seconds=turn_seconds,
            club=club,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=index, user=owner if index == 0 else None)
            for index in range(spec.seat_count(options))
        )
    return table


def too_many_tables() -> TableError:
    limit = settings.MAX_OPEN_TABLES_PER_ACCOUNT
    return TableError(
        ngettext(
            "You have %(count)d table waiting or playing already: finish it first.",
            "You have %(count)d tables waiting or playing already: finish one first.",
            limit,
        )
        % {"count": limit},
        reason=metrics.LIMIT,
    )


def checked_contribution(value: str) -> str:
    """A player's contribution to the next match's seed, "" for none (see ``fair_deals``)."""
    if value and not fair_deals.is_contribution(value):
        raise TableError(
            _("Your browser's contribution to the deals was not 64 hexadecimal digits.")
        )
    return value


def keep_contribution(table: Table, user: AbstractBaseUser, value: str) -> None:
    """Record ``user``'s contribution to the table's next match, if they sent one."""
    if value:
        Seat.objects.filter(table=table, user=user).update(contribution=value)


def lock_account(user: AbstractBaseUser) -> None:
    """Take the account's lock inside the caller's transaction: one account's requests that
    open or join tables run one after another, so its limits and its "Play now" hold under
    concurrent clicks. Take it before any table's lock."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def lock_table(table_id: int) -> Table:
    """Fetch a table for update inside the caller's transaction (the per-table lock)."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("This table no longer exists.")) from None


def lock_with_match(table_id: int) -> tuple[Table, Match | None]:
    """The per-table lock (as :func:`lock_table`) and the table's latest match, read in one
    query when there is a match. Only the table's row is locked, as everywhere else."""
    match = (
        Match.objects.select_for_update(of=("table",))
        .select_related("table")
        .filter(table_id=table_id)
        .order_by("-number")
        .first()
    )
    if match is None:
        return lock_table(table_id), None
    return match.table, match


def bump(table: Table, *fields: str) -> None:
    """Save ``fields`` and the next revision: live views of the table will refresh."""
    table.revision += 1
    table.save(update_fields=["revision", "updated_at", *fields])


def abort_table(table_id: int) -> Table:
    """Close a table: its running match is recorded as aborted (the caller tells its players)."""
    with transaction.atomic():
        table = lock_table(table_id)
        table.matches.filter(status=Match.Status.RUNNING).update(
            status=Match.Status.ABORTED, finished_at=timezone.now()
        )
        table.status = Table.Status.ABORTED
        bump(table, "status")
    return table
