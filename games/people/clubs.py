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
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

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
from . import friends
from .text import skeleton

Status, Role = Membership.Status, Membership.Role


class ClubError(ValueError):
    """A club action that cannot be done; the message says why."""


def visible_clubs() -> QuerySet[Club]:
    return Club.objects.filter(hidden=False)


def membership(club: Club, user: AbstractBaseUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def is_member(club: Club, user: AbstractBaseUser) -> bool:
    """Whether ``user`` is an active member (admins included) of a club that is not hidden."""
    return (
        user.is_authenticated
        and user.is_active
        and not club.hidden
        and Membership.objects.filter(club=club, user=user, status=Status.ACTIVE).exists()
    )


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
    """The club's tables waiting for players or playing, newest first."""
    return list(
        club.tables.filter(
            status__in=[Table.Status.OPEN, Table.Status.PLAYING], event_table__isnull=True
        )
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


@dataclass
class Line:
    """One player's (or, in Belote, one partnership's) line of a club's standings."""

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
    #: Belote: the partnerships, by their two names.
    pairs: list[Line] = field(default_factory=list)


def standings(club: Club) -> list[GameStandings]:
    """Each game's standings among the club's members: the finished matches played at the
    club's tables, by player, and in Belote by partnership; most won first."""
    members = set(
        club.memberships.filter(status=Status.ACTIVE).values_list("user__username", flat=True)
    )
    players = (
        MatchPlayer.objects.filter(
            match__table__club=club,
            match__table__event_table__isnull=True,  # events have standings of their own
            match__status=Match.Status.FINISHED,
            user__isnull=False,
        )
        .exclude(outcome="")
        .select_related("match", "user")
    )
    by_game: dict[str, dict[str, Line]] = {}
    seats_of: dict[int, list[MatchPlayer]] = {}
    for player in players:
        name = player.user.get_username()
        if name not in members:
            continue
        line = by_game.setdefault(player.match.game, {}).setdefault(name, Line(name))
        _count(line, player.outcome)
        seats_of.setdefault(player.match_id, []).append(player)
    pairs: dict[str, Line] = {}
    for seated in seats_of.values():
        if seated[0].match.game != "belote":
            continue
        for side in (0, 1):
            two = sorted(p.user.get_username() for p in seated if p.seat % 2 == side)
            if len(two) == 2:
                key = " & ".join(two)
                _count(pairs.setdefault(key, Line(key)), seated_outcome(seated, side))
    result = []
    for game, lines in sorted(by_game.items()):
        ranked = sorted(lines.values(), key=lambda line: (-line.won, line.lost, line.name))
        result.append(
            GameStandings(
                game,
                str(get_game(game).label),
                ranked,
                sorted(pairs.values(), key=lambda line: (-line.won, line.lost, line.name))
                if game == "belote"
                else [],
            )
        )
    return result


def seated_outcome(seated: list[MatchPlayer], side: int) -> str:
    return next(p.outcome for p in seated if p.seat % 2 == side)


def _count(line: Line, outcome: str) -> None:
    line.played += 1
    if outcome == Outcome.WIN:
        line.won += 1
    elif outcome == Outcome.LOSS:
        line.lost += 1
    else:
        line.drawn += 1


def may_sit(table: Table, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may take a seat at ``table``: anyone, but only members at a club's."""
    return may_see(table, user)


def may_see(table: Table, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may see ``table`` (its page, watching, its chat): anyone, but only
    members at a club's."""
    return table.club_id is None or is_member(table.club, user)


def members_page(club: Club, viewer: AbstractBaseUser) -> dict[str, object]:
    """What the club's page lists of its people: active members (with presence where they
    show it to the viewer), for admins the requests, invitations and bans, and for its owner
    the admins they may hand it over to."""
    rows = list(club.memberships.select_related("user").order_by("user__username"))
    active = [m for m in rows if m.status == Status.ACTIVE]
    shown = {
        m.user_id
        for m in active
        if friends.allows(friends.choices_of(m.user).online_to, m.user, viewer)
        or m.user_id == getattr(viewer, "pk", None)
    }
    up = friends.online(list(shown))
    return {
        "members": [(m, (m.user_id in up) if m.user_id in shown else None) for m in active],
        "requested": [m for m in rows if m.status == Status.REQUESTED],
        "invited": [m for m in rows if m.status == Status.INVITED],
        "banned": [m for m in rows if m.status == Status.BANNED],
        "heirs": [
            m.user.get_username()
            for m in active
            if m.role == Role.ADMIN and m.user_id != club.created_by_id and m.user.is_active
        ]
        if getattr(viewer, "pk", None) == club.created_by_id
        else [],
    }


def clubs_page(user: AbstractBaseUser) -> dict[str, object]:
    """The clubs list: the player's clubs and invitations, and the clubs anyone may find."""
    mine = Membership.objects.filter(user=user, club__hidden=False).select_related("club")
    return {
        "mine": [m.club for m in mine if m.status == Status.ACTIVE],
        "invitations": [m.club for m in mine if m.status == Status.INVITED],
        "others": list(
            visible_clubs()
            .exclude(Q(memberships__user=user))
            .exclude(access=Club.Access.INVITATION)
            .order_by("name")[:50]
        ),
    }
