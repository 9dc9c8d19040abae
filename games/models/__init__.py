"""The app's models, one module per room: ``tables`` (tables, seats, matches, the move log,
chat, invitations), ``people`` (clubs, players' choices, moderation), ``records`` (deal reviews,
ratings), ``events`` (duplicate events), ``daily`` (the daily Belote), ``presence`` (who has
a table open) and ``push`` (devices that take notifications). Import them from here:
``from games.models import Table``."""

from __future__ import annotations

from .daily import Daily, DailyEntry, DailyTally
from .events import Event, EventPair, EventTable
from .people import (
    Announcement,
    Club,
    Membership,
    Profile,
    Report,
    Sanction,
    UsernameSkeleton,
    new_invite_code,
)
from .presence import Presence, PresenceQuerySet, Server
from .push import PushChoices, PushSubscription
from .records import DealReview, Rating, RatingChange
from .tables import (
    ChatMessage,
    Invitation,
    Match,
    MatchPlayer,
    Move,
    Outcome,
    Seat,
    Table,
    new_seed,
)

__all__ = [
    "Announcement",
    "ChatMessage",
    "Club",
    "Daily",
    "DailyEntry",
    "DailyTally",
    "DealReview",
    "Event",
    "EventPair",
    "EventTable",
    "Invitation",
    "Match",
    "MatchPlayer",
    "Membership",
    "Move",
    "Outcome",
    "Presence",
    "PresenceQuerySet",
    "Profile",
    "PushChoices",
    "PushSubscription",
    "Rating",
    "RatingChange",
    "Report",
    "Sanction",
    "Seat",
    "Server",
    "Table",
    "UsernameSkeleton",
    "new_invite_code",
    "new_seed",
]
