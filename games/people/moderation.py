"""Moderation services: mutes, bans, hiding chat, reports (a table is closed by
:func:`games.tables.rows.abort_table`).

The admin calls these and tells the live pages what they changed (a banned user's sockets
close at once, hidden chat disappears for everyone).
"""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardroom import metrics

from ..models import ChatMessage, Match, MatchPlayer, Report, Sanction
from ..refusals import Refusal
from . import limits
from .text import strip_invisible


class ReportError(Refusal):
    """A report that cannot be filed; the message says why."""


def _active(kind: str) -> Q:
    now = timezone.now()
    return Q(kind=kind, lifted_at__isnull=True) & (Q(until__isnull=True) | Q(until__gt=now))


def active_mute(user: AbstractBaseUser) -> Sanction | None:
    """The user's mute in force, if any."""
    return user.sanctions.filter(_active(Sanction.Kind.MUTE)).order_by("-until").first()


def active_ban(user: AbstractBaseUser) -> Sanction | None:
    """The user's ban in force, if any."""
    return user.sanctions.filter(_active(Sanction.Kind.BAN)).order_by("-created_at").first()


def mute(user: AbstractBaseUser, minutes: int, reason: str, by: AbstractBaseUser) -> Sanction:
    """Forbid ``user`` to chat for ``minutes``."""
    return Sanction.objects.create(
        user=user,
        kind=Sanction.Kind.MUTE,
        reason=reason,
        until=timezone.now() + timedelta(minutes=minutes),
        created_by=by,
    )


def end_sessions(user: AbstractBaseUser) -> int:
    """Delete every session logged in as ``user``; returns how many."""
    doomed = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get("_auth_user_id") == str(user.pk)
    ]
    Session.objects.filter(pk__in=doomed).delete()
    return len(doomed)


class Ban(NamedTuple):
    """What a ban did."""

    sanction: Sanction
    #: The tables whose running matches the banned user plays in: a computer player takes
    #: their seat there (see ``games.live.autoplay``).
    table_ids: set[int]


def ban(user: AbstractBaseUser, reason: str, by: AbstractBaseUser) -> Ban:
    """Close ``user``'s account: deactivate it and end its sessions (the caller closes its
    sockets and tells its tables)."""
    with transaction.atomic():
        user.is_active = False
        user.save(update_fields=["is_active"])
        sanction = Sanction.objects.create(
            user=user,
            kind=Sanction.Kind.BAN,
            reason=reason,
            created_by=by,
        )
    end_sessions(user)
    playing = MatchPlayer.objects.filter(user=user, match__status=Match.Status.RUNNING)
    return Ban(sanction, set(playing.values_list("match__table_id", flat=True)))


def unban(user: AbstractBaseUser) -> None:
    """Reopen a banned account."""
    with transaction.atomic():
        user.sanctions.filter(_active(Sanction.Kind.BAN)).update(lifted_at=timezone.now())
        user.is_active = True
        user.save(update_fields=["is_active"])


def set_hidden(messages: QuerySet[ChatMessage], hidden: bool) -> set[int]:
    """Hide or restore chat messages; returns the tables whose chat changed."""
    table_ids = set(messages.values_list("table_id", flat=True))
    messages.update(hidden=hidden)
    return table_ids


def report(
    reporter: AbstractBaseUser,
    reason: str,
    *,
    user: AbstractBaseUser | None = None,
    message: ChatMessage | None = None,
) -> tuple[Report, bool]:
    """File a report about a chat message (and so its author) or about a player; returns it
    and whether it is new (an open report of the reporter's on the same subject is not)."""
    reason = strip_invisible(reason).strip()
    if not reason:
        raise ReportError(_("Say what is wrong, please."))
    if message is not None:
        user = message.user
    if user is None or user.pk == reporter.pk:
        raise ReportError(_("You can't report yourself."))
    # The same report again (a double click, an impatient reporter) is the open one.
    same = Report.objects.filter(
        reporter=reporter, reported_user=user, message=message, status=Report.Status.OPEN
    ).first()
    if same is not None:
        return same, False
    limit = settings.REPORTS_PER_USER_PER_HOUR
    if not limits.spend(limits.report_key(reporter), limit, limits.HOUR):
        raise ReportError(
            ngettext(
                "You have sent %(count)d report in the last hour; wait before sending more.",
                "You have sent %(count)d reports in the last hour; wait before sending more.",
                limit,
            )
            % {"count": limit},
            reason=metrics.LIMIT,
        )
    report = Report.objects.create(
        reporter=reporter,
        reported_user=user,
        message=message,
        table=message.table if message is not None else None,
        reason=reason[:500],
    )
    return report, True


def resolve(reports: QuerySet[Report], by: AbstractBaseUser) -> int:
    """Mark reports as dealt with."""
    return reports.filter(status=Report.Status.OPEN).update(
        status=Report.Status.RESOLVED, resolved_at=timezone.now(), resolved_by=by
    )
