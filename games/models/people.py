"""People: clubs (members, announcements), what a player chose for the site
(``Profile``), how a username looks (``UsernameSkeleton``), and moderation (sanctions,
reports)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_invite_code() -> str:
    """An unguessable code for a table's URL (128 bits)."""
    return secrets.token_urlsafe(16)


class Club(models.Model):
    """A group of players with its own members, tables, announcements and standings."""

    class Access(models.TextChoices):
        OPEN = "open", _("Open: anyone may join")
        REQUEST = "request", _("By request: an admin accepts each member")
        INVITATION = "invitation", _("By invitation only")

    name = models.CharField(_("name"), max_length=60, unique=True)
    #: How the name looks (:func:`games.people.text.skeleton`, kept current by
    #: ``games.people.signals``): a new club's name may not look like an existing one's.
    name_skeleton = models.TextField(_("name skeleton"), db_index=True, editable=False)
    description = models.TextField(_("description"), max_length=1000, blank=True)
    #: The games the club plays (catalog names).
    games = models.JSONField(_("games"), default=list)
    access = models.CharField(
        _("who may join"), max_length=12, choices=Access.choices, default=Access.REQUEST
    )
    #: The club's owner: its founder, or whom the club was handed over to. Its admins cannot
    #: remove or ban the owner.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="clubs_created",
        verbose_name=_("created by"),
    )
    #: Hidden by a moderator: nobody but moderators sees it.
    hidden = models.BooleanField(_("hidden"), default=False)
    #: The code of the club's invite link: whoever opens it may join, whatever the club's rule.
    invite_code = models.CharField(
        _("invite code"), max_length=32, unique=True, default=new_invite_code
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.pk])


class Membership(models.Model):
    """A player's place in a club: a member or an admin, or asking, invited or banned."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    class Status(models.TextChoices):
        ACTIVE = "active", _("member")
        REQUESTED = "requested", _("asks to join")
        INVITED = "invited", _("invited")
        BANNED = "banned", _("banned")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club}"


class Announcement(models.Model):
    """An admin's announcement on the club's page."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("club")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("author")
    )
    text = models.TextField(_("text"), max_length=1000)
    hidden = models.BooleanField(_("hidden"), default=False)
    created_at = models.DateTimeField(_("posted"), auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return self.text[:40]


class UsernameSkeleton(models.Model):
    """How a user's name looks (:func:`games.people.text.skeleton`), kept for every user: sign-up
    refuses a name that looks like a taken one with one indexed look-up."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_skeleton",
        verbose_name=_("user"),
    )
    skeleton = models.TextField(_("skeleton"))

    class Meta:
        verbose_name = _("username skeleton")
        verbose_name_plural = _("username skeletons")
        indexes = [models.Index(fields=["skeleton"], name="username_skeleton")]

    def __str__(self) -> str:
        return self.skeleton


class Profile(models.Model):
    """What a player chose for the site itself, kept with the account (any device)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="profile",
        verbose_name=_("user"),
    )
    #: The site's language for this player ("": the browser's, as for visitors).
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Audience(models.TextChoices):
        """Who may do something that reaches the player."""

        EVERYONE = "everyone", _("Everyone")
        FRIENDS = "friends", _("Friends only")
        NOBODY = "nobody", _("Nobody")

    #: Who may send the player a friend request (everyone or nobody: friends are friends).
    requests_from = models.CharField(
        _("friend requests from"),
        max_length=10,
        choices=[Audience.choices[0], Audience.choices[2]],  # everyone, nobody
        default=Audience.EVERYONE,
    )
    #: Who may invite the player to a table.
    invitations_from = models.CharField(
        _("invitations from"), max_length=10, choices=Audience.choices, default=Audience.FRIENDS
    )
    #: Who sees whether the player is online, and at which table.
    online_to = models.CharField(
        _("shown online to"), max_length=10, choices=Audience.choices, default=Audience.FRIENDS
    )
    #: Whether an invitation is also sent to the account's e-mail address.
    email_invitations = models.BooleanField(_("invitations by e-mail"), default=False)
    #: The address whose owner followed its confirmation link: mail goes to the account's
    #: address only while it is this one.
    confirmed_email = models.EmailField(_("confirmed e-mail address"), blank=True, default="")

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class Sanction(models.Model):
    """A moderator's mute (no chat until ``until``) or ban (account closed) of a user."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Mute")
        BAN = "ban", _("Ban")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sanctions",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=300)
    #: When it ends; None: until lifted.
    until = models.DateTimeField(_("until"), null=True, blank=True)
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("moderator"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        indexes = [models.Index(fields=["user", "kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.user}"


class Report(models.Model):
    """A player's report of a chat message or of another player, for the moderators' queue."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    message = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("message"),
    )
    table = models.ForeignKey(
        "games.Table", on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("table")
    )
    reason = models.CharField(_("reason"), max_length=500)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("resolved by"),
    )

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Report on {self.reported_user} ({self.get_status_display()})"
