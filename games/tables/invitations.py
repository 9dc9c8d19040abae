"""Invitations: a player at a waiting table asks a friend to sit (at a seat they chose, or any
free one); the friend accepts or declines until the table starts, fills or closes.

Every refusal raises :class:`~games.tables.rows.TableError` with a message for the player and
changes nothing. Telling the screens is the caller's job.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from cardroom import metrics

from ..models import Invitation, Table
from ..people import access, addresses, friends, limits
from . import seating
from .rows import TableError, lock_table

#: Invitations waiting for an answer that the Invitations page lists.
LISTED = 50


def invite(
    table_id: int, inviter: AbstractBaseUser, username: str, seat: int | None = None
) -> Invitation:
    """Invite ``username`` to the table, to ``seat`` (a free one) or any free seat."""
    try:
        friend = friends.player_named(username)
    except friends.FriendError as error:
        raise TableError(str(error)) from None
    with transaction.atomic():
        table = lock_table(table_id)
        seats = list(table.seats.all())
        if not any(s.user_id == inviter.pk for s in seats) and table.owner_id != inviter.pk:
            raise TableError(_("Only the players at a table can invite to it."))
        why = unavailable(table, seats, seat)
        if why:
            raise TableError(why)
        if any(s.user_id == friend.pk for s in seats):
            raise TableError(_("%(name)s sits at this table already.") % {"name": friend})
        barrier = access.seat_barrier(table, friend)
        if barrier is access.Barrier.BLOCKED:
            raise TableError(_("%(name)s cannot sit at this private table.") % {"name": friend})
        if barrier is access.Barrier.CLUB:
            raise TableError(_("%(name)s is not a member of this club.") % {"name": friend})
        if friend.pk == inviter.pk or not friends.allows(
            friends.choices_of(friend).invitations_from, friend, inviter
        ):
            raise TableError(_("%(name)s does not take invitations from you.") % {"name": friend})
        if not limits.spend(f"invitations:{inviter.pk}", settings.INVITATIONS_PER_HOUR, 3600):
            raise TableError(
                _("You sent many invitations this hour: try again later."), reason=metrics.LIMIT
            )
        try:
            with transaction.atomic():
                return Invitation.objects.create(
                    table=table, from_user=inviter, to_user=friend, seat=seat
                )
        except IntegrityError:
            raise TableError(
                _("%(name)s has an invitation to this table already.") % {"name": friend}
            ) from None


def named_inviter(table: Table, username: str) -> AbstractBaseUser | None:
    """The player called ``username`` if an invitation to ``table`` may name them: they own
    it, sit at it or invited someone to it (anyone else could be named in a link)."""
    player = friends.player_or_none(username)
    if player is None:
        return None
    if (
        player.pk == table.owner_id
        or table.seats.filter(user=player).exists()
        or table.invitations.filter(from_user=player).exists()
    ):
        return player
    return None


def unavailable(table: Table, seats: list, seat: int | None) -> str:
    """Why nobody can be invited to ``seat`` (None: any seat) of ``table`` now ("": they can)."""
    if table.status == Table.Status.ABORTED:
        return _("This table was closed.")
    if table.status != Table.Status.OPEN:
        return _("The match at this table has started.")
    free = [s.index for s in seats if s.is_free]
    if not free:
        return _("Every seat at this table is taken.")
    if seat is not None and seat not in free:
        return _("Seat %(n)s is not free.") % {"n": seat + 1}
    return ""


def answer(invitation_id: int, user: AbstractBaseUser, accept: bool) -> tuple[Invitation, str]:
    """Accept (sit down) or decline an invitation sent to ``user``; returns it and what
    happened, in words. An invitation the table can no longer honour says so and ends."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("table", "from_user")
            .filter(pk=invitation_id, to_user=user)
            .first()
        )
        if invitation is None or invitation.status != Invitation.Status.PENDING:
            raise TableError(_("That invitation is no longer waiting for an answer."))
        if not accept:
            invitation.status = Invitation.Status.DECLINED
            invitation.save(update_fields=["status"])
            return invitation, _("You declined the invitation of %(name)s.") % {
                "name": invitation.from_user
            }
        table = lock_table(invitation.table_id)
        seats = list(table.seats.all())
        why = unavailable(table, seats, invitation.seat)
        if invitation.seat is not None and why and not unavailable(table, seats, None):
            why = ""  # the chosen seat was taken meanwhile: any other free one will do
            invitation.seat = None
        invitation.status = Invitation.Status.ACCEPTED
        invitation.save(update_fields=["status"])
        if why:
            return invitation, why
        if not any(s.user_id == user.pk for s in seats):
            index = invitation.seat
            if index is None:
                index = next(s.index for s in seats if s.is_free)
            seating.take_seat(table.pk, user, index)
        return invitation, ""


def mail(invitation: Invitation, table_url: str) -> bool:
    """E-mail the invitation to its friend, if they chose so and confirmed their address (in
    their language); returns whether a mail went out."""
    friend = invitation.to_user
    choices = friends.choices_of(friend)
    address = addresses.confirmed_address(friend, choices)
    if not choices.email_invitations or not address:
        return False
    with translation.override(choices.language or settings.LANGUAGE_CODE):
        values = {
            "name": invitation.from_user.get_username(),
            "game": invitation.table.get_game_display(),
        }
        subject = _("%(name)s invites you to a %(game)s table.") % values
        body = _("Come and play: %(url)s") % {"url": table_url}
    return bool(send_mail(subject, body, None, [address], fail_silently=True))


@dataclass
class Waiting:
    """An invitation waiting for its friend's answer, as they are shown it."""

    invitation: Invitation
    #: Why it can no longer be accepted ("": it can).
    gone: str


def waiting_for(user: AbstractBaseUser) -> list[Waiting]:
    """The latest :data:`LISTED` invitations ``user`` has not answered, newest first (two
    queries)."""
    pending = (
        Invitation.objects.filter(to_user=user, status=Invitation.Status.PENDING)
        .select_related("table", "from_user")
        .prefetch_related("table__seats")
        .order_by("-created_at")[:LISTED]
    )
    return [
        Waiting(inv, unavailable(inv.table, list(inv.table.seats.all()), inv.seat))
        for inv in pending
    ]
