"""Friends: requests, friendships and blocks (django-friendship's models), each player's
choice of who may reach them, and what a player sees of their friends.

Every refusal raises :class:`FriendError` with a message for the player and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from friendship.models import Block, Friend, FriendshipRequest

from cardroom import metrics

from ..models import EventPair, Invitation, Presence, Profile, Table
from ..refusals import Refusal
from . import access, limits
from .online import online

User = get_user_model()
Audience = Profile.Audience

#: Friends a page lists.
FRIENDS_PER_PAGE = 50
#: Requests (each way) and blocked players a page lists.
LISTED = 50


class FriendError(Refusal):
    """A friends' action that cannot be done; the message says why."""


def choices_of(user: AbstractBaseUser) -> Profile:
    """The player's choices of who may reach them (the defaults when never saved)."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


def allows(audience: str, owner: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    """Whether ``audience`` (a :class:`Profile.Audience`) of ``owner`` takes in ``other``."""
    if audience == Audience.EVERYONE:
        return not blocked_between(owner, other)
    if audience == Audience.FRIENDS:
        return are_friends(owner, other)
    return False


def are_friends(one: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    return Friend.objects.filter(from_user=one, to_user=other).exists()


def blocked_between(one: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    """Whether either player blocks the other."""
    return Block.objects.filter(
        Q(blocker=one, blocked=other) | Q(blocker=other, blocked=one)
    ).exists()


def blocks(blocker: AbstractBaseUser, blocked: AbstractBaseUser) -> bool:
    """Whether ``blocker`` blocks ``blocked``."""
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def blocked_either_way(user: AbstractBaseUser) -> set[int]:
    """The players ``user`` blocks or is blocked by."""
    pairs = Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk))
    return {pk for pair in pairs.values_list("blocker_id", "blocked_id") for pk in pair} - {user.pk}


def player_named(username: str) -> AbstractBaseUser:
    """The active account called ``username`` (any case)."""
    player = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if player is None:
        raise FriendError(_("There is no player called %(name)s.") % {"name": username})
    return player


def player_or_none(username: str) -> AbstractBaseUser | None:
    """The active account called ``username``, if any."""
    if not username:
        return None
    return User.objects.filter(username__iexact=username.strip(), is_active=True).first()


def friends_of(user: AbstractBaseUser) -> list[AbstractBaseUser]:
    """The player's friends, by name."""
    return [
        friend.from_user
        for friend in Friend.objects.filter(to_user=user)
        .select_related("from_user")
        .order_by("from_user__username")
    ]


def request_friend(user: AbstractBaseUser, username: str) -> str:
    """Ask ``username`` to be friends (or accept, when they asked first); returns what was
    done, in words."""
    other = player_named(username)
    if other.pk == user.pk:
        raise FriendError(_("You cannot be your own friend."))
    if blocked_between(user, other):
        raise FriendError(_("You cannot send %(name)s a friend request.") % {"name": other})
    if are_friends(user, other):
        raise FriendError(_("You and %(name)s are friends already.") % {"name": other})
    theirs = FriendshipRequest.objects.filter(
        from_user=other, to_user=user, rejected__isnull=True
    ).first()
    if theirs is not None:
        theirs.accept()
        return _("%(name)s had asked you already: you are friends now.") % {"name": other}
    if FriendshipRequest.objects.filter(
        from_user=user, to_user=other, rejected__isnull=True
    ).exists():
        raise FriendError(
            _("Your friend request to %(name)s is waiting already.") % {"name": other}
        )
    if choices_of(other).requests_from == Audience.NOBODY:
        raise FriendError(_("%(name)s does not take friend requests.") % {"name": other})
    if not limits.spend(f"friend-requests:{user.pk}", settings.FRIEND_REQUESTS_PER_HOUR, 3600):
        raise FriendError(
            _("You sent many friend requests this hour: try again later."), reason=metrics.LIMIT
        )
    Friend.objects.add_friend(user, other)
    return _("Friend request sent to %(name)s.") % {"name": other}


def answer_request(user: AbstractBaseUser, request_id: int, accept: bool) -> str:
    """Accept or decline a friend request sent to ``user``."""
    request = FriendshipRequest.objects.filter(
        pk=request_id, to_user=user, rejected__isnull=True
    ).first()
    if request is None:
        raise FriendError(_("That friend request is no longer waiting."))
    name = request.from_user
    if accept:
        request.accept()
        return _("You and %(name)s are friends now.") % {"name": name}
    request.reject()
    return _("You declined the friend request of %(name)s.") % {"name": name}


def cancel_request(user: AbstractBaseUser, request_id: int) -> None:
    """Take back a friend request ``user`` sent."""
    request = FriendshipRequest.objects.filter(pk=request_id, from_user=user).first()
    if request is None:
        raise FriendError(_("That friend request is no longer waiting."))
    request.cancel()


def remove_friend(user: AbstractBaseUser, username: str) -> None:
    other = player_named(username)
    if not Friend.objects.remove_friend(user, other):
        raise FriendError(_("You and %(name)s are not friends.") % {"name": other})


def block(user: AbstractBaseUser, username: str) -> None:
    """Block ``username``: no requests, invitations, event partners or presence either way,
    and the player's private tables neither open nor seat them (``access``); a friendship
    and what is waiting between them end."""
    other = player_named(username)
    if other.pk == user.pk:
        raise FriendError(_("You cannot block yourself."))
    with transaction.atomic():
        if Block.objects.filter(blocker=user, blocked=other).exists():
            raise FriendError(_("You block %(name)s already.") % {"name": other})
        Block.objects.add_block(user, other)
        Friend.objects.remove_friend(user, other)
        FriendshipRequest.objects.filter(
            Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
        ).delete()
        Invitation.objects.filter(
            Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user),
            status=Invitation.Status.PENDING,
        ).update(status=Invitation.Status.DECLINED)
        EventPair.objects.filter(
            Q(player=user, partner=other) | Q(player=other, partner=user), waiting=True
        ).delete()


def unblock(user: AbstractBaseUser, username: str) -> None:
    other = player_named(username)
    if not Block.objects.remove_block(user, other):
        raise FriendError(_("You do not block %(name)s.") % {"name": other})


def blocked_by(user: AbstractBaseUser) -> list[AbstractBaseUser]:
    """The players ``user`` blocked most recently (:data:`LISTED`)."""
    blocks = Block.objects.filter(blocker=user).select_related("blocked").order_by("-created")
    return [b.blocked for b in blocks[:LISTED]]


def requests_for(user: AbstractBaseUser) -> list[FriendshipRequest]:
    """The friend requests waiting for ``user``'s answer, oldest first (:data:`LISTED`)."""
    waiting = FriendshipRequest.objects.filter(to_user=user, rejected__isnull=True)
    return list(waiting.select_related("from_user").order_by("created")[:LISTED])


def requests_from(user: AbstractBaseUser) -> list[FriendshipRequest]:
    """``user``'s friend requests waiting for an answer, newest first (:data:`LISTED`)."""
    waiting = FriendshipRequest.objects.filter(from_user=user, rejected__isnull=True)
    return list(waiting.select_related("to_user").order_by("-created")[:LISTED])


def shows_online_to(owners: list[AbstractBaseUser], viewer: AbstractBaseUser) -> set[int]:
    """Those of ``owners`` (by id) whose choice lets ``viewer`` see when they are online (as
    :func:`allows` says, and the viewer themself); three queries for them all."""
    ids = [owner.pk for owner in owners]
    audience = dict(Profile.objects.filter(user_id__in=ids).values_list("user_id", "online_to"))
    viewer_id = getattr(viewer, "pk", None)
    friends = set(
        Friend.objects.filter(from_user_id__in=ids, to_user_id=viewer_id).values_list(
            "from_user_id", flat=True
        )
    )
    blocked = set()
    for blocker, blocked_id in Block.objects.filter(
        Q(blocker_id__in=ids, blocked_id=viewer_id) | Q(blocker_id=viewer_id, blocked_id__in=ids)
    ).values_list("blocker_id", "blocked_id"):
        blocked.add(blocked_id if blocker == viewer_id else blocker)
    reaches = {Audience.EVERYONE: set(ids) - blocked, Audience.FRIENDS: friends}
    default = Profile._meta.get_field("online_to").default
    return {
        owner_id
        for owner_id in ids
        if owner_id == viewer_id or owner_id in reaches.get(audience.get(owner_id, default), ())
    }


@dataclass
class FriendRow:
    """A friend as the friends page shows them to ``viewer``."""

    user: AbstractBaseUser
    #: None when the friend does not show whether they are online.
    online: bool | None
    #: The tables the friend has open that the viewer may open too.
    tables: list[Table]


def friend_rows(
    viewer: AbstractBaseUser, page_number: str | int | None = 1
) -> tuple[Page, list[FriendRow]]:
    """A page of the viewer's friends (:data:`FRIENDS_PER_PAGE`, by name), online ones first,
    each with the tables the viewer may join or watch (public ones, and private ones the
    viewer sits at, owns or is invited to). Four queries and a cache read, whatever the page."""
    page = Paginator(
        Friend.objects.filter(to_user=viewer)
        .select_related("from_user")
        .order_by("from_user__username"),
        FRIENDS_PER_PAGE,
    ).get_page(page_number)
    friends = [friend.from_user for friend in page]
    if not friends:
        return page, []
    choices = {p.user_id: p for p in Profile.objects.filter(user__in=friends)}
    shown = [
        f for f in friends if (choices.get(f.pk) or Profile(user=f)).online_to != Audience.NOBODY
    ]
    up = online([f.pk for f in shown])
    at: dict[int, list[Table]] = {}
    presences = (
        Presence.objects.live()
        .filter(user__in=[f.pk for f in shown if f.pk in up])
        .filter(
            table__in=Table.objects.filter(access.tables_listed_to(viewer)).exclude(
                status=Table.Status.ABORTED
            )
        )
        .select_related("table")
    )
    for presence in presences:
        tables = at.setdefault(presence.user_id, [])
        if presence.table not in tables:
            tables.append(presence.table)
    rows = [FriendRow(f, (f.pk in up) if f in shown else None, at.get(f.pk, [])) for f in friends]
    rows.sort(key=lambda row: (not row.online, row.user.username.lower()))
    return page, rows
