"""Web Push: news for a player with no page of the site open, on the devices where they turned
notifications on (VAPID, payloads encrypted for each device, RFC 8030/8291/8292).

Live notices go out through :mod:`games.live.notify`, which hands each one here too
(:func:`offer`); a move that puts a human on turn at a table with a clock does as well. Nothing
is sent while a request or a move waits: :func:`offer` queues the work in the process's
background thread, which skips players with a page open (a socket: ``people.online``), kinds
the player did not choose and news no longer true, and sends at most one push per kind and
table until the player comes back (:func:`came_back`). A push service that answers 404 or 410
has forgotten the subscription: it is deleted.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import os
import secrets
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from friendship.models import FriendshipRequest
from pywebpush import WebPushException, webpush

from .. import background
from ..models import (
    Event,
    Invitation,
    Match,
    Profile,
    PushChoices,
    PushSubscription,
    Table,
)
from ..people import friends, online
from ..tables.extensions import Notice

logger = logging.getLogger(__name__)

#: The push kind (a field of ``PushChoices``) of each notice kind that may be pushed.
PUSHED = {
    "turn": "turn",
    "invitation": "invitation",
    "friend_request": "friend_request",
    "event_round": "event",
    "event_soon": "event",
    "daily": "daily",
}
#: How long a push service keeps a message for a device that is off (seconds).
TTL_SECONDS = 3600
#: How long one push holds its kind and table when the player does not come back (seconds).
HOLD_SECONDS = 24 * 3600
#: How long the site waits for a push service's answer (seconds).
SEND_TIMEOUT = 10


@dataclass(frozen=True)
class Keys:
    """The site's VAPID key pair (base64url: the raw private number, the uncompressed public
    point) and the contact address push services may write to."""

    private: str
    public: str
    subject: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """A new P-256 key pair: (private, public), base64url as the settings take them."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(private), _b64(public)


@functools.cache
def _development_keys(path: Path) -> tuple[str, str]:
    """The development key pair kept in ``path``, made the first time (by one process only)."""
    if not path.exists():
        private, public = new_key_pair()
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as kept:
            kept.write(f"{private}\n{public}\n")
        try:
            os.link(kept.name, path)  # fails if another process kept its pair first
        except FileExistsError:
            pass
        finally:
            os.unlink(kept.name)
    private, public = path.read_text().split()
    return private, public


def keys() -> Keys | None:
    """The site's VAPID keys; None when push is off (not configured, outside development)."""
    subject = settings.VAPID_SUBJECT
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return Keys(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, subject)
    if settings.VAPID_DEVELOPMENT_KEYS:  # set under DEBUG only
        return Keys(*_development_keys(Path(settings.VAPID_DEVELOPMENT_KEYS)), subject)
    return None


def offer(notices: Iterable[Notice]) -> None:
    """Have the notices that may be pushed pushed, from the background, to those of their
    players who have no page open (call once the news is committed)."""
    pushable = [notice for notice in notices if notice.kind in PUSHED]
    if pushable and keys() is not None:
        background.run_later(("push", secrets.token_hex(8)), functools.partial(deliver, pushable))


def offer_turn(user_id: int, table: Table) -> None:
    """Push "your turn" to ``user_id`` at ``table`` (a table with a clock) if they are away."""
    offer([Notice(user_id, "turn", table.pk, table.code)])


def _back_key(user_id: int) -> str:
    return f"push:back:{user_id}"


def came_back(user_id: int) -> None:
    """The player opened a page: the next news of any kind and table may be pushed again."""
    cache.set(_back_key(user_id), secrets.token_hex(4), timeout=HOLD_SECONDS)


def _hold(user_id: int, kind: str, ref: str) -> bool:
    """Take the player's one push of ``kind`` at ``ref`` (a table, an event, a day) until they
    come back; False when it was taken already."""
    back = cache.get(_back_key(user_id), "")
    return cache.add(f"push:held:{user_id}:{back}:{kind}:{ref}", 1, timeout=HOLD_SECONDS)


def deliver(notices: list[Notice]) -> int:
    """Push each of ``notices`` whose player has no page open, chose its kind and has a device
    for it; how many messages the push services took."""
    users = {notice.user_id for notice in notices}
    away = users - online.online(users)
    subscriptions: dict[int, list[PushSubscription]] = {}
    for subscription in PushSubscription.objects.filter(user_id__in=away):
        subscriptions.setdefault(subscription.user_id, []).append(subscription)
    if not subscriptions:
        return 0
    chosen = {c.user_id: c for c in PushChoices.objects.filter(user_id__in=subscriptions)}
    languages = dict(
        Profile.objects.filter(user_id__in=subscriptions).values_list("user_id", "language")
    )
    sent = 0
    for notice in notices:
        kind = PUSHED[notice.kind]
        if notice.user_id not in subscriptions:
            continue
        if not getattr(chosen.get(notice.user_id) or PushChoices(), kind):
            continue
        language = languages.get(notice.user_id) or settings.LANGUAGE_CODE
        with translation.override(language):
            message = compose(notice)
        ref = notice.table or str(notice.pk)
        if message is None or not _hold(notice.user_id, kind, ref):
            continue
        message["tag"] = f"{kind}-{ref}"
        for subscription in subscriptions[notice.user_id]:
            sent += send(subscription, message)
    return sent


def deliver_daily(day: date) -> int:
    """Push the daily Belote of ``day`` once to each player who chose it and has a device
    (those with a page open see it on the site); how many messages went out."""
    if keys() is None:
        return 0
    due = PushChoices.objects.filter(daily=True, user__push_subscriptions__isnull=False).exclude(
        daily_pushed=day
    )
    users = [
        pk
        for pk in due.values_list("user_id", flat=True).distinct()
        # Each claimed first: a run at the same moment does not push the day again.
        if PushChoices.objects.filter(user_id=pk).exclude(daily_pushed=day).update(daily_pushed=day)
    ]
    return deliver([Notice(user_id, "daily", 0, day.isoformat()) for user_id in users])


def compose(notice: Notice) -> dict[str, str] | None:
    """The push's text and address in the active language; None when the news is no longer
    true (an invitation answered, a request taken back, a match over, a sender blocked)."""
    user_id, kind, pk = notice.user_id, notice.kind, notice.pk
    if kind == "invitation":
        invitation = (
            Invitation.objects.filter(pk=pk, to_user_id=user_id, status=Invitation.Status.PENDING)
            .select_related("table", "from_user", "to_user")
            .first()
        )
        if invitation is None or friends.blocked_between(invitation.to_user, invitation.from_user):
            return None
        body = _("%(name)s invites you to a %(game)s table.") % {
            "name": invitation.from_user.get_username(),
            "game": invitation.table.get_game_display(),
        }
        return {"body": body, "url": reverse("notifications")}
    if kind == "friend_request":
        request = (
            FriendshipRequest.objects.filter(pk=pk, to_user_id=user_id, rejected__isnull=True)
            .select_related("from_user", "to_user")
            .first()
        )
        if request is None or friends.blocked_between(request.to_user, request.from_user):
            return None
        body = _("%(name)s wants to be your friend.") % {"name": request.from_user.get_username()}
        return {"body": body, "url": reverse("notifications")}
    if kind == "turn":
        table = Table.objects.filter(pk=pk).first()
        if table is None or not table.matches.filter(status=Match.Status.RUNNING).exists():
            return None
        body = _("Your turn at the %(game)s table.") % {"game": table.get_game_display()}
        return {"body": body, "url": table.get_absolute_url()}
    if kind == "event_round":
        event = Event.objects.filter(pk=pk).first()
        table = Table.objects.filter(
            code=notice.table, event_table__event_id=pk, seats__user_id=user_id
        ).first()
        if event is None or table is None:
            return None
        body = _("Round %(n)s of %(total)s of %(name)s has begun.") % {
            "n": event.current_round,
            "total": event.rounds,
            "name": event.name,
        }
        return {"body": body, "url": table.get_absolute_url()}
    if kind == "event_soon":
        event = Event.objects.filter(pk=pk, status=Event.Status.REGISTRATION).first()
        if event is None or event.starts_at is None or event.starts_at <= timezone.now():
            return None
        minutes = max(1, -(-int((event.starts_at - timezone.now()).total_seconds()) // 60))
        body = ngettext(
            "%(name)s starts in %(counter)s minute.",
            "%(name)s starts in %(counter)s minutes.",
            minutes,
        ) % {"name": event.name, "counter": minutes}
        return {"body": body, "url": event.get_absolute_url()}
    if kind == "daily":
        return {"body": _("Today's daily Belote is open."), "url": reverse("daily_today")}
    return None


def send(subscription: PushSubscription, message: dict[str, str]) -> int:
    """Send ``message`` (with the site's name for a title) to one device; 1 when its push
    service took it. A subscription its service no longer knows is deleted."""
    site_keys = keys()
    if site_keys is None:
        return 0
    payload = {"title": "Cardroom", **message}
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(payload),
            vapid_private_key=site_keys.private,
            vapid_claims={"sub": site_keys.subject},
            ttl=TTL_SECONDS,
            # The push service keeps only the newest message of a topic for an offline device.
            headers={"Topic": message["tag"][:32], "Urgency": "high"},
            timeout=SEND_TIMEOUT,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in (404, 410):
            subscription.delete()
        else:
            logger.warning("push to %s refused: %s", subscription.host, status)
        return 0
    except requests.RequestException as error:
        logger.warning("push to %s failed: %s", subscription.host, error)
        return 0
    return 1


def subscribe(user: object, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep the device's subscription for ``user`` (a device that changed hands is theirs now);
    a player keeps their ``MAX_PUSH_DEVICES`` newest devices."""
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    older = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
    stale = list(older.values_list("pk", flat=True)[settings.MAX_PUSH_DEVICES :])
    PushSubscription.objects.filter(pk__in=stale).delete()
    return subscription
