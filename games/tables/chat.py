"""Table chat: checked, rate-limited, stored; the consumer broadcasts it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom import metrics

from ..models import ChatMessage, Table
from ..people import access, limits
from ..people.moderation import active_mute
from ..people.text import strip_invisible
from . import play
from .rows import TableError

#: At most RATE_COUNT messages per RATE_SECONDS per user.
RATE_COUNT = 5
RATE_SECONDS = 10


#: What a player may say with one click; never table talk (a game's chat rule skips them).
PHRASES = {
    "hello": gettext_lazy("Hello!"),
    "luck": gettext_lazy("Good luck!"),
    "thanks": gettext_lazy("Thanks!"),
    "sorry": gettext_lazy("Sorry!"),
    "well-played": gettext_lazy("Well played!"),
    "good-game": gettext_lazy("Good game!"),
}


def post_phrase(table_id: int, user: AbstractBaseUser, key: object) -> ChatMessage:
    """Store one of :data:`PHRASES` from ``user``, in the language they use."""
    phrase = PHRASES.get(key) if isinstance(key, str) else None
    if phrase is None:
        raise TableError(_("There is no such phrase."))
    return post_message(table_id, user, str(phrase))


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
        raise TableError(
            _("You are sending messages too fast; wait a few seconds."), reason=metrics.LIMIT
        )
    table = Table.objects.filter(pk=table_id).only("pk", "code").first()
    if table is None:
        raise TableError(_("This table no longer exists."))
    if not access.may_open(table_id, user):
        raise TableError(_("You cannot chat at this table."))
    return ChatMessage.objects.create(table=table, user=user, text=text)


def post_notice(table_id: int, user: AbstractBaseUser, kind: str) -> ChatMessage:
    """Store what the table's chat rule did because of ``user`` (:func:`notice_text`), for
    everyone who opens the chat later too."""
    return ChatMessage.objects.create(table_id=table_id, user=user, notice=kind)


def apply_rule(table_id: int, user: AbstractBaseUser) -> ChatMessage | None:
    """Apply the game's rule for ``user``'s chat during a match (Grabush's table talk); when it
    changed the match, store its notice in the same transaction and return it."""
    with transaction.atomic():
        if not play.apply_chat_rule(table_id, user):
            return None
        return post_notice(table_id, user, "talk")


def notice_text(kind: str, name: str) -> str:
    """What a table's chat rule did, said in the chat: ``talk`` (``name`` chatted during the
    game) or ``penalty`` (``name`` claimed the penalty); empty for an unknown kind."""
    if kind == "talk":
        return _(
            "Table talk: %(name)s wrote during the game, so the other side may claim a penalty."
        ) % {"name": name}
    if kind == "penalty":
        return _("%(name)s claimed the table-talk penalty: a card into the other side's stock.") % {
            "name": name
        }
    return ""
