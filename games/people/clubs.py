"""Clubs: their members and admins, joining, invitations and bans, announcements, tables and
standings.

Every refusal raises :class:`ClubError` with a message for the player and changes nothing. A
banned account (inactive) has no rights in any club. The club's owner (``created_by``: its
founder, or whom the club was handed over to) cannot be removed or banned by its other admins:
only site moderators can, in the admin.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from confusable_homoglyphs import confusables
from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import Case, Count, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Greatest, Least
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..catalog import get_game
from ..models import (
    Announcement,
    Club,
    Match,
    MatchPlayer,
    Membership,
    Outcome,
    Table,
    new_invite_code,
)
from ..refusals import Refusal
from . import friends
from .online import online
from .text import skeleton

Status, Role = Membership.Status, Membership.Role

#: Members a page of the club lists.
MEMBERS_PER_PAGE = 50
#: Requests, invitations, bans and tables the club's page lists (each).
LISTED = 50
#: Lines of each standings table.
STANDINGS_LINES = 20


class ClubError(Refusal):
    """A club action that cannot be done; the message says why."""


def visible_clubs() -> QuerySet[Club]:
    return Club.objects.filter(hidden=False)


def membership(club: Club, user: AbstractBaseUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def is_admin(club: Club, user: AbstractBaseUser) -> bool:
    return (
        user.is_authenticated
        and user.is_active
        and not club.hidden
        and Membership.objects.filter(
            club=club, user=user, status=Status.ACTIVE, role=Role.ADMIN
        ).exists()
    )


def clubs_of(user: AbstractBaseUser) -> list[Club]:
    """The clubs ``user`` is an active member of."""
    return list(
        visible_clubs()
        .filter(memberships__user=user, memberships__status=Status.ACTIVE)
        .order_by("name")
    )


def checked_name(name: str, club: Club | None = None) -> str:
    """``name`` as a club (``club``, when renamed) keeps it, or :class:`ClubError`: it has no
    visible letters, holds invisible or control characters, is or looks like another club's
    name, or mixes alphabets with letters that look alike."""
    name = name.strip()
    if not "".join(c for c in name if not _hidden(c)).strip():
        raise ClubError(_("A club needs a name."))
    if any(_hidden(c) for c in name):
        raise ClubError(
            _("A club's name cannot hold invisible characters or ones that turn the text around.")
        )
    others = Club.objects.exclude(pk=club.pk) if club is not None else Club.objects.all()
    if others.filter(name__iexact=name).exists():
        raise ClubError(_("There is a club called %(name)s already.") % {"name": name})
    if others.filter(name_skeleton=skeleton(name)).exists():
        raise ClubError(_("This name looks like another club's name; choose another."))
    if confusables.is_dangerous(name):
        raise ClubError(
            _(
                "This name mixes letters of different alphabets that look alike; "
                "write it in one alphabet."
            )
        )
    return name


def _hidden(char: str) -> bool:
    """Whether ``char`` shows nothing of its own: a control, format (bidi controls and
    zero-width characters among them), private-use or unassigned character."""
    return unicodedata.category(char).startswith("C")


def create_club(
    user: AbstractBaseUser, name: str, description: str, games: list[str], access: str
) -> Club:
    """Found a club; its creator is its first admin."""
    name = checked_name(name)
    with transaction.atomic():
        club = Club.objects.create(
            name=name, description=description, games=games, access=access, created_by=user
        )
        Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    return club


def join(club: Club, user: AbstractBaseUser, code: str = "") -> str:
    """Join an open club, ask to join one by request, or take an invitation (by name, or the
    club's invite link, whose ``code`` is given); in words."""
    mine = membership(club, user)
    if code and code == club.invite_code and (mine is None or mine.status != Status.BANNED):
        if club.hidden:
            raise ClubError(_("This club is closed."))
        if mine is not None and mine.status == Status.ACTIVE:
            raise ClubError(_("You are a member already."))
        Membership.objects.update_or_create(
            club=club, user=user, defaults={"status": Status.ACTIVE}
        )
        return _("Welcome to %(club)s!") % {"club": club}
    if club.hidden:
        raise ClubError(_("This club is closed."))
    if mine is not None:
        if mine.status == Status.ACTIVE:
            raise ClubError(_("You are a member already."))
        if mine.status == Status.BANNED:
            raise ClubError(_("The club's admins removed you from this club."))
        if mine.status == Status.REQUESTED:
            raise ClubError(_("Your request waits for an admin."))
        mine.status = Status.ACTIVE  # invited: accepting
        mine.save(update_fields=["status"])
        return _("Welcome to %(club)s!") % {"club": club}
    if club.access == Club.Access.INVITATION:
        raise ClubError(_("This club takes members by invitation only."))
    status = Status.ACTIVE if club.access == Club.Access.OPEN else Status.REQUESTED
    Membership.objects.create(club=club, user=user, status=status)
    if status == Status.REQUESTED:
        return _("Your request was sent to the club's admins.")
    return _("Welcome to %(club)s!") % {"club": club}


def leave(club: Club, user: AbstractBaseUser) -> None:
    mine = membership(club, user)
    if mine is None or mine.status == Status.BANNED:
        raise ClubError(_("You are not a member of this club."))
    admins = club.memberships.filter(status=Status.ACTIVE, role=Role.ADMIN)
    if mine.role == Role.ADMIN and admins.count() == 1 and club.memberships.count() > 1:
        raise ClubError(_("Make another member an admin before you leave."))
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if club.created_by_id == user.pk:
            # An owner who leaves hands the club over to the longest-standing other admin.
            heir = admins.exclude(user=user).order_by("created_at", "pk").first()
            if heir is not None:
                club.created_by_id = heir.user_id
                club.save(update_fields=["created_by"])
        mine.delete()


def hand_over(club: Club, owner: AbstractBaseUser, username: str) -> str:
    """The owner hands the club over to another of its admins, whom the others then cannot
    remove or ban; in words."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if club.created_by_id != owner.pk or not is_admin(club, owner):
            raise ClubError(_("Only the club's owner can hand it over."))
        heir = (
            club.memberships.filter(
                user__username=username,
                user__is_active=True,
                status=Status.ACTIVE,
                role=Role.ADMIN,
            )
            .exclude(user=owner)
            .select_related("user")
            .first()
        )
        if heir is None:
            raise ClubError(_("Hand the club over to another of its admins."))
        club.created_by = heir.user
        club.save(update_fields=["created_by"])
    return _("%(name)s owns the club now.") % {"name": heir.user.get_username()}


def _require_admin(club: Club, admin: AbstractBaseUser) -> None:
    if not is_admin(club, admin):
        raise ClubError(_("Only the club's admins can do that."))


def new_invite_link(club: Club, admin: AbstractBaseUser) -> str:
    """Give the club a new invite link: the old one no longer lets anyone in."""
    _require_admin(club, admin)
    club.invite_code = new_invite_code()
    club.save(update_fields=["invite_code"])
    return _("The club has a new invite link; the old one no longer works.")


def invite(club: Club, admin: AbstractBaseUser, username: str) -> Membership:
    """Invite a player to the club (they accept by joining)."""
    _require_admin(club, admin)
    try:
        player = friends.player_named(username)
    except friends.FriendError as error:
        raise ClubError(str(error)) from None
    if friends.blocked_between(admin, player):
        raise ClubError(_("You cannot invite %(name)s.") % {"name": player})
    try:
        with transaction.atomic():
            return Membership.objects.create(club=club, user=player, status=Status.INVITED)
    except IntegrityError:
        raise ClubError(_("%(name)s is in this club's list already.") % {"name": player}) from None


def manage(club: Club, admin: AbstractBaseUser, username: str, action: str) -> str:
    """An admin's decision about a member or applicant: ``accept``, ``remove``, ``ban``,
    ``unban`` or ``admin`` (make an admin); in words. No admin removes or bans the club's
    owner."""
    with transaction.atomic():
        # The club's row, locked: its owner does not change while this is decided.
        club = Club.objects.select_for_update().get(pk=club.pk)
        return _decide(club, admin, username, action)


def _decide(club: Club, admin: AbstractBaseUser, username: str, action: str) -> str:
    _require_admin(club, admin)
    target = Membership.objects.filter(club=club, user__username=username).first()
    if target is None:
        raise ClubError(_("%(name)s is not in this club's list.") % {"name": username})
    if target.user_id == admin.pk and action in ("remove", "ban"):
        raise ClubError(_("Leave the club instead."))
    values = {"name": username}
    if target.user_id == club.created_by_id and action in ("remove", "ban"):
        raise ClubError(
            _("%(name)s owns the club: its admins cannot remove or ban its owner.") % values
        )
    if action == "accept" and target.status == Status.REQUESTED:
        target.status = Status.ACTIVE
        target.save(update_fields=["status"])
        return _("%(name)s is a member now.") % values
    if action == "admin" and target.status == Status.ACTIVE:
        target.role = Role.ADMIN
        target.save(update_fields=["role"])
        return _("%(name)s is an admin now.") % values
    if action == "remove":
        target.delete()
        return _("%(name)s is no longer in the club.") % values
    if action == "ban":
        target.status, target.role = Status.BANNED, Role.MEMBER
        target.save(update_fields=["status", "role"])
        return _("%(name)s is banned from the club.") % values
    if action == "unban" and target.status == Status.BANNED:
        target.delete()
        return _("%(name)s may join again.") % values
    raise ClubError(_("That cannot be done to %(name)s now.") % values)


def announce(club: Club, admin: AbstractBaseUser, text: str) -> Announcement:
    _require_admin(club, admin)
    text = text.strip()
    if not text:
        raise ClubError(_("An announcement needs some text."))
    return Announcement.objects.create(club=club, author=admin, text=text[:1000])


def club_tables(club: Club) -> list[Table]:
    """The club's latest :data:`LISTED` tables waiting for players or playing, newest first."""
    return list(
        club.tables.filter(
            status__in=[Table.Status.OPEN, Table.Status.PLAYING], event_table__isnull=True
        )
        .prefetch_related("seats__user")
        .order_by("-updated_at")[:LISTED]
    )


@dataclass
class Line:
    """One player's (or, in a game of partnerships, one partnership's) line of a club's
    standings."""

    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


@dataclass
class GameStandings:
    game: str
    label: str
    players: list[Line] = field(default_factory=list)
    #: A game of partnerships: the partnerships, by their two names.
    pairs: list[Line] = field(default_factory=list)


#: What a line counts, added up by the database.
COUNTS = {
    "played": Count("pk"),
    "won": Count("pk", filter=Q(outcome=Outcome.WIN)),
    "lost": Count("pk", filter=Q(outcome=Outcome.LOSS)),
    "drawn": Count("pk", filter=~Q(outcome__in=[Outcome.WIN, Outcome.LOSS])),
}


def standings(club: Club) -> list[GameStandings]:
    """Each game's standings among the club's members: the finished matches played at the
    club's tables, by player, and in a game of partnerships (its teams are pairs) by
    partnership; most won first, the first :data:`STANDINGS_LINES` of each.
    Added up by the database: a fixed number of queries, each returning at most that many
    lines, however many matches the club has played."""
    members = Membership.objects.filter(club=club, status=Status.ACTIVE).values("user_id")
    seats = MatchPlayer.objects.filter(
        match__table__club=club,
        match__table__event_table__isnull=True,  # events have standings of their own
        match__status=Match.Status.FINISHED,
        user__in=members,
    ).exclude(outcome="")
    result = []
    for game in sorted(set(seats.values_list("match__game", flat=True).distinct())):
        players = (
            seats.filter(match__game=game)
            .values("user__username")
            .annotate(**COUNTS)
            .order_by("-won", "lost", "user__username")[:STANDINGS_LINES]
        )
        pairs: list[Line] = []
        teams = get_game(game).teams({})
        if all(len(team) == 2 for team in teams):  # the game is played by partnerships
            partner = MatchPlayer.objects.filter(
                match=OuterRef("match"), seat=OuterRef("partner_seat"), user__in=members
            ).values("user__username")[:1]
            pairs = [
                Line(
                    pgettext("a pair of players", "%(first)s & %(second)s") % row,
                    *(row[k] for k in COUNTS),
                )
                for row in seats.filter(match__game=game, seat__in=[team[0] for team in teams])
                .annotate(partner_seat=Case(*(When(seat=one, then=two) for one, two in teams)))
                .annotate(partner=Subquery(partner))
                .exclude(partner=None)
                .annotate(
                    first=Least("user__username", "partner"),
                    second=Greatest("user__username", "partner"),
                )
                .values("first", "second")
                .annotate(**COUNTS)
                .order_by("-won", "lost", "first", "second")[:STANDINGS_LINES]
            ]
        result.append(
            GameStandings(
                game,
                str(get_game(game).label),
                [Line(row["user__username"], *(row[k] for k in COUNTS)) for row in players],
                pairs,
            )
        )
    return result


def members_page(
    club: Club, viewer: AbstractBaseUser, page_number: str | int | None = 1
) -> dict[str, object]:
    """What the club's page lists of its people: a page of its active members (by name, with
    presence where they show it to the viewer), and for admins the oldest :data:`LISTED`
    requests, invitations and bans of each kind, and for its owner the admins they may hand it
    over to. A fixed number of queries, whatever the club's size."""
    rows = Membership.objects.filter(club=club).select_related("user")
    page = Paginator(
        rows.filter(status=Status.ACTIVE).order_by("user__username"), MEMBERS_PER_PAGE
    ).get_page(page_number)
    active = list(page)
    shown = friends.shows_online_to([m.user for m in active], viewer)
    up = online(shown)
    waiting = {
        status: list(rows.filter(status=status).order_by("created_at")[:LISTED])
        for status in (Status.REQUESTED, Status.INVITED, Status.BANNED)
    }
    return {
        "members_page": page,
        "members": [(m, (m.user_id in up) if m.user_id in shown else None) for m in active],
        "requested": waiting[Status.REQUESTED],
        "invited": waiting[Status.INVITED],
        "banned": waiting[Status.BANNED],
        "heirs": [
            m.user.get_username()
            for m in rows.filter(status=Status.ACTIVE, role=Role.ADMIN, user__is_active=True)
            .exclude(user_id=club.created_by_id)
            .order_by("user__username")[:LISTED]
        ]
        if getattr(viewer, "pk", None) == club.created_by_id
        else [],
    }


def clubs_page(user: AbstractBaseUser) -> dict[str, object]:
    """The clubs list: the player's clubs and invitations, and the clubs anyone may find (the
    first :data:`LISTED` of each, by name)."""

    def mine(status: str) -> list[Club]:
        return list(
            visible_clubs()
            .filter(memberships__user=user, memberships__status=status)
            .order_by("name")[:LISTED]
        )

    return {
        "mine": mine(Status.ACTIVE),
        "invitations": mine(Status.INVITED),
        "others": list(
            visible_clubs()
            .exclude(Q(memberships__user=user))
            .exclude(access=Club.Access.INVITATION)
            .order_by("name")[:LISTED]
        ),
    }
