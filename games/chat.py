"""Table chat: checked, rate-limited, stored; the consumer broadcasts it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.utils import formats
from django.utils.translation import gettext as _

from .models import ChatMessage, Table
from .moderation import active_mute
from .tables import TableError

#: At most RATE_COUNT messages per RATE_SECONDS per user.
RATE_COUNT = 5
RATE_SECONDS = 10


def _within_rate(user: AbstractBaseUser) -> bool:
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, timeout=RATE_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=RATE_SECONDS)
        count = 1
    return count <= RATE_COUNT


def post_message(table_id: int, user: AbstractBaseUser, text: object) -> ChatMessage:
    """Store a chat line from ``user`` at the table, or refuse it with a clear message."""
    if not isinstance(text, str) or not text.strip():
        raise TableError(_("Write a message first."))
    text = text.strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise TableError(
            _("Messages are at most %(count)d characters.") % {"count": ChatMessage.MAX_LENGTH}
        )
    mute = active_mute(user)
    if mute is not None:
        raise TableError(
            _("You are muted until %(until)s: %(reason)s")
            % {"until": formats.date_format(mute.until, "DATETIME_FORMAT"), "reason": mute.reason}
        )
    if not _within_rate(user):
        raise TableError(_("You are sending messages too fast; wait a few seconds."))
    if not Table.objects.filter(pk=table_id).exists():
        raise TableError(_("This table no longer exists."))
    return ChatMessage.objects.create(table_id=table_id, user=user, text=text)
