"""Who may open, watch, sit at, or see the record of a table or match: the one place that
answers it, for the pages, the sockets, the lists and the services.

A table opens (its page, watching it, its chat) to anyone who has its code, except that a
club's table opens only to the club's members, an event's table only to its players until
every table of its round has finished (a watcher could pass its deals on), and a private table
not to those its creator blocks. A seat asks the same of the club and of blocks. A match's
record shows to anyone for a public table and to its players and staff for a private one;
nothing of an event's round shows before every table of the round has finished it, and once
the event is over its matches show to every signed-in player who may see the event (its
results link them).

A club's event is seen by anyone unless its club is hidden, and played by the club's members;
a public cup (an event of no club, the site's) is seen by anyone and played by every active
player, with any partner who does not block them.

A daily Belote's table opens only to its player until the day closes. Nothing of the day's
deals (records, replays, reviews, travellers, logs) shows to anyone, staff included, before
they have finished their own set of the day; after the day closes, all of it shows to everyone.
"""

from __future__ import annotations

from enum import Enum

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from friendship.models import Block

from ..models import (
    Club,
    Daily,
    DailyEntry,
    Event,
    Invitation,
    MatchPlayer,
    Membership,
    Seat,
    Table,
)

#: Tables any list may show anyone (the lobby's): public ones; a private table is reached by
#: its code, or from the lists of those it concerns (:func:`tables_listed_to`).
LISTED_TO_ALL = Q(is_private=False)


class Barrier(Enum):
    """Why a player may not sit at a table."""

    #: A private table whose creator blocks them.
    BLOCKED = "blocked"
    #: A club's table, and they are not one of its active members.
    CLUB = "club"


def is_member(club: Club, user: AbstractBaseUser) -> bool:
    """Whether ``user`` is an active member (admins included) of a club that is not hidden:
    who sees and joins its tables and plays in its events."""
    return (
        user.is_authenticated
        and user.is_active
        and not club.hidden
        and Membership.objects.filter(
            club=club, user_id=user.pk, status=Membership.Status.ACTIVE
        ).exists()
    )


def admitted_by_club(table: Table, user: AbstractBaseUser) -> bool:
    """Whether the table's club lets ``user`` in: anyone at a table of no club, only its
    members at a club's."""
    return table.club_id is None or is_member(table.club, user)


def _blocked_by_creator(table: Table, user: AbstractBaseUser) -> bool:
    return (
        table.is_private
        and user.is_authenticated
        and Block.objects.filter(blocker_id=table.owner_id, blocked_id=user.pk).exists()
    )


def seat_barrier(table: Table, user: AbstractBaseUser) -> Barrier | None:
    """What keeps ``user`` from taking a seat at ``table`` (None: nothing)."""
    if _blocked_by_creator(table, user):
        return Barrier.BLOCKED
    if not admitted_by_club(table, user):
        return Barrier.CLUB
    return None


def may_sit(table: Table, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may take a seat at ``table``."""
    return seat_barrier(table, user) is None


def _closed_to(user: AbstractBaseUser) -> Q:
    """Tables that open to ``user`` only if they sit there: an event's table whose round is
    still being played, a private table whose creator blocks them."""
    blockers = Block.objects.filter(blocked_id=user.pk).values("blocker_id")
    return (
        Q(event_table__revealed=False)
        | Q(daily_entry__daily__closes_at__gt=timezone.now())
        | Q(is_private=True, owner_id__in=blockers)
    )


def may_open(table: Table | int, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may open ``table`` (a table or its id): its page, watching it, its
    chat. A player seated there may, whatever blocks came since, if the club lets them in."""
    if not isinstance(table, Table):
        table = Table.objects.select_related("club").filter(pk=table).first()
        if table is None:
            return False
    if not admitted_by_club(table, user):
        return False
    closed = Table.objects.filter(_closed_to(user), pk=table.pk)
    if user.is_authenticated:
        closed = closed.exclude(seats__user_id=user.pk)
    return not closed.exists()


def tables_listed_to(viewer: AbstractBaseUser) -> Q:
    """Tables a list may show ``viewer`` to join or watch (a friend's, say): public ones, and
    private ones they own, sit at or are invited to; never one they may not open (an event's
    round still being played elsewhere, a private table whose creator blocks them)."""
    seated = Exists(Seat.objects.filter(table=OuterRef("pk"), user_id=viewer.pk))
    invited = Exists(
        Invitation.objects.filter(
            table=OuterRef("pk"), to_user_id=viewer.pk, status=Invitation.Status.PENDING
        )
    )
    listed = LISTED_TO_ALL | Q(owner_id=viewer.pk) | Q(seated) | Q(invited)
    return listed & (Q(seated) | ~_closed_to(viewer))


def may_see_event(event: Event, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may see ``event`` (its page, its published log): anyone, unless its
    club is hidden (then staff only); a public cup, anyone."""
    return user.is_staff or event.club_id is None or not event.club.hidden


def may_play_in(event: Event, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may play in ``event`` (register, or be named a partner): a club's
    active members; at a public cup, every active signed-in player."""
    if event.club_id is None:
        return user.is_authenticated and user.is_active
    return is_member(event.club, user)


def may_partner(event: Event, user: AbstractBaseUser, partner: AbstractBaseUser) -> bool:
    """Whether ``user`` may register ``partner`` with them: someone who may play in the
    event and, at a public cup (where players need not know each other), who does not block
    them."""
    if not may_play_in(event, partner):
        return False
    return (
        event.club_id is not None
        or not Block.objects.filter(blocker_id=partner.pk, blocked_id=user.pk).exists()
    )


def _seen_events(path: str) -> Q:
    """Events (at ``path``) anyone may see, as :func:`may_see_event` says: public cups and
    the events of clubs that are not hidden."""
    return Q(**{f"{path}club__isnull": True}) | Q(**{f"{path}club__hidden": False})


def records_shown_to(viewer: AbstractBaseUser, match: str = "") -> Q:
    """Matches whose record (page, replay, log, deal reviews) ``viewer`` may see.

    ``match``: the path to the match from the rows filtered (``"match__"`` for seats).
    """
    # A duplicate round's deals show to nobody before every table of the round has played them.
    revealed = ~Q(**{f"{match}table__event_table__revealed": False})
    # A daily's, to nobody who has not finished their own set of the day before it closes.
    daily_open = Q(**{f"{match}table__daily_entry__daily__closes_at__gt": timezone.now()})
    finished_it = DailyEntry.objects.filter(
        daily_id=OuterRef(f"{match}table__daily_entry__daily_id"),
        user_id=viewer.pk,
        finished_at__isnull=False,
    )
    if viewer.is_authenticated:
        revealed &= ~daily_open | Q(Exists(finished_it))
    else:
        revealed &= ~daily_open
    daily_over = Q(**{f"{match}table__daily_entry__daily__closes_at__lte": timezone.now()})
    if viewer.is_staff:
        return revealed
    public = Q(**{f"{match}table__is_private": False})
    if not viewer.is_authenticated:
        return public & revealed
    played = MatchPlayer.objects.filter(match=OuterRef(f"{match}pk"), user_id=viewer.pk)
    event = f"{match}table__event_table__event__"
    event_over = Q(**{f"{event}status": Event.Status.FINISHED}) & _seen_events(event)
    return (public | Q(Exists(played)) | event_over | daily_over | daily_open) & revealed


def may_see_daily_deals(daily: Daily, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may see anything of ``daily``'s deals (its travellers, pars, reviews,
    other players' records): once the day has closed, everyone; before, only a player who
    has finished their own set of the day (staff no more than anyone)."""
    if daily.closes_at <= timezone.now():
        return True
    return (
        user.is_authenticated
        and DailyEntry.objects.filter(
            daily=daily, user_id=user.pk, finished_at__isnull=False
        ).exists()
    )
