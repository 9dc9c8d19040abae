"""Table chat: checked, rate-limited, stored; the consumer broadcasts it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import formats
from django.utils.translation import gettext as _

from ..models import ChatMessage, Table
from ..people.moderation import active_mute
from ..people.text import strip_invisible
from . import limits
from .rows import TableError

#: At most RATE_COUNT messages per RATE_SECONDS per user.
RATE_COUNT = 5
RATE_SECONDS = 10


def post_message(table_id: int, user: AbstractBaseUser, text: object) -> ChatMessage:
    """Store a chat line from ``user`` at the table, or refuse it with a clear message."""
    if not isinstance(text, str) or not (text := strip_invisible(text).strip()):
        raise TableError(_("Write a message first."))
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
    if not limits.spend(f"chat-rate:{user.pk}", RATE_COUNT, RATE_SECONDS):
        raise TableError(_("You are sending messages too fast; wait a few seconds."))
    table = Table.objects.filter(pk=table_id).only("pk", "code").first()
    if table is None:
        raise TableError(_("This table no longer exists."))
    return ChatMessage.objects.create(table=table, user=user, text=text)
