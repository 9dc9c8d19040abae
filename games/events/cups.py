"""Public cups: the site's own duplicate events, scheduled by staff in the admin, listed on the
home page, open to every player (``access.may_play_in``). They run as a club's events do
(``running``); what is theirs alone is here: the checks of a new cup, the home page's list, and
the reminder every registered player gets ten minutes before the start, sent once (a live
notice on their open pages, and a mail to those who take their invitations by e-mail at a
confirmed address).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..models import Event
from ..people import addresses, friends
from ..tables.extensions import Notice
from .running import MAX_DEALS_PER_ROUND, MAX_ROUNDS, EventError

#: How long before its start a cup's players are reminded of it.
REMIND_BEFORE = timedelta(minutes=10)
#: The most cups the home page lists.
LISTED = 6


def check(name: str, rounds: int, deals_per_round: int, starts_at: datetime | None) -> None:
    """Refuse a new cup that could not be played: a cup starts at its time, which has not
    passed."""
    if not name.strip():
        raise EventError(_("An event needs a name."))
    if not 1 <= rounds <= MAX_ROUNDS or not 1 <= deals_per_round <= MAX_DEALS_PER_ROUND:
        raise EventError(
            _("An event has 1 to %(rounds)d rounds of 1 to %(deals)d deals.")
            % {"rounds": MAX_ROUNDS, "deals": MAX_DEALS_PER_ROUND}
        )
    if starts_at is None:
        raise EventError(_("A public cup starts at its time: give one."))
    if starts_at <= timezone.now():
        raise EventError(_("The start time has passed: choose a later one."))


def listed() -> list[Event]:
    """The cups the home page shows: those open for registration and those being played, the
    soonest first, each with ``pair_count``."""
    return list(
        Event.objects.filter(
            club__isnull=True, status__in=[Event.Status.REGISTRATION, Event.Status.RUNNING]
        )
        .annotate(pair_count=Count("pairs", filter=Q(pairs__waiting=False)))
        .order_by("starts_at", "pk")[:LISTED]
    )


def players(event: Event) -> list[int]:
    """The registered players of ``event`` (partners who accepted included), in the order they
    registered."""
    people = (
        event.pairs.filter(waiting=False)
        .order_by("created_at", "pk")
        .values_list("player_id", "partner_id")
    )
    return [pk for pair in people for pk in pair if pk]


def _due() -> Q:
    now = timezone.now()
    return Q(
        club__isnull=True,
        status=Event.Status.REGISTRATION,
        reminded_at__isnull=True,
        starts_at__gt=now,
        starts_at__lte=now + REMIND_BEFORE,
    )


def to_remind() -> list[Event]:
    """Cups that start within ten minutes and whose players have not been reminded."""
    return list(Event.objects.filter(_due()))


@dataclass
class Reminder:
    """A cup's reminder, claimed: who is told."""

    event: Event
    players: list[int]

    def notices(self) -> list[Notice]:
        """The notice on each player's open pages."""
        return [Notice(pk, "event_soon", self.event.pk) for pk in self.players]


def remind_if_due(event: Event) -> Reminder | None:
    """Claim ``event``'s reminder if it is a cup starting within ten minutes whose players
    were not reminded (once: whoever claims it first, a page or the command, sends it)."""
    now = timezone.now()
    if (
        not event.is_cup
        or event.reminded_at is not None
        or event.starts_at is None
        or not now < event.starts_at <= now + REMIND_BEFORE
    ):
        return None  # as the row read says: no need to ask the database
    if not Event.objects.filter(_due(), pk=event.pk).update(reminded_at=timezone.now()):
        return None
    return Reminder(event, players(event))


def mail(reminder: Reminder, url: str) -> int:
    """E-mail the reminder to the players who take their invitations by e-mail at a confirmed
    address, each in their language (``url``: the cup's page); how many mails went out."""
    event = reminder.event
    sent = 0
    for user in get_user_model().objects.filter(pk__in=reminder.players, is_active=True):
        sent += _mail_one(event, user, url)
    return sent


def _mail_one(event: Event, user: AbstractBaseUser, url: str) -> int:
    choices = friends.choices_of(user)
    address = addresses.confirmed_address(user, choices)
    if not choices.email_invitations or not address:
        return 0
    with translation.override(choices.language or settings.LANGUAGE_CODE):
        subject = _("%(name)s starts in ten minutes.") % {"name": event.name}
        body = _(
            "Your pair is registered for %(name)s, a public cup of duplicate Belote, which"
            " starts at %(time)s UTC. When it starts, the cup's page takes you to your table:"
            " %(url)s"
        ) % {
            "name": event.name,
            "time": event.starts_at.astimezone(UTC).strftime("%H:%M"),
            "url": url,
        }
    return send_mail(subject, body, None, [address], fail_silently=True)


def site_url(path: str) -> str:
    """The absolute address of ``path`` on the site, for mail sent with no request at hand."""
    return settings.SITE_URL.rstrip("/") + path
