"""Tables, seats, matches, the move log, chat and presence.

A :class:`Match` stores its engine state as the engine's own JSON text plus a ``version`` that
grows by one with every accepted move; :class:`Move` is the append-only log from which any match
can be replayed (seed + options + moves through the engine).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .catalog import game_choices
from .engines import fair_deals
from .presenters.computers import computer_name


def new_invite_code() -> str:
    """An unguessable code for a table's URL (128 bits)."""
    return secrets.token_urlsafe(16)


def new_seed() -> str:
    """A seed from a fresh secret and no contributions, for a match made other than by starting
    it at a table (which records its secret and contributions)."""
    return fair_deals.derive_seed(fair_deals.new_secret(), [])


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


class Table(models.Model):
    """A place where a game is played; one match after another (rematches) on the same seats."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="owned_tables",
        verbose_name=_("owner"),
    )
    is_private = models.BooleanField(_("private"), default=False)
    #: A club's table: only the club's members see and join it.
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("club"),
    )
    #: Seconds a player has for a move before a computer player moves for them (0: no timer).
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=0)
    #: Opened by "Play now": computers fill it, and later "Play now" players take their seats.
    quick = models.BooleanField(_("quick game"), default=False)
    code = models.CharField(_("invite code"), max_length=32, unique=True, default=new_invite_code)
    #: Grows with every change anyone can see (seats, status, moves): live views compare it.
    revision = models.PositiveIntegerField(default=0, verbose_name=_("revision"))
    #: Seats whose players asked for a rematch after the last match.
    rematch_votes = models.JSONField(default=list, blank=True, verbose_name=_("rematch votes"))
    #: The server's secret for the next match's deals (``games.engines.fair_deals``): never
    #: shown; its commitment is, before any contribution is taken.
    next_secret = models.CharField(
        _("secret of the next match"), max_length=64, default=fair_deals.new_secret
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["is_private", "status", "-updated_at"])]
        constraints = [
            # A commitment shown at one table is never shown at another.
            models.UniqueConstraint(fields=["next_secret"], name="table_unique_next_secret"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.code])

    @property
    def next_commitment(self) -> str:
        """The SHA-256 of the next match's secret, shown at the table."""
        return fair_deals.commitment(self.next_secret)


class Seat(models.Model):
    """One chair at a table: empty, a user, or (later) a computer player."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    #: Level of the computer player in this seat ("" for none).
    bot_level = models.CharField(_("computer player"), max_length=10, blank=True)
    #: The random contribution of this seat's player's browser to the next match's seed.
    contribution = models.CharField(_("contribution to the deals"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.index}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def computer_name(self) -> str:
        """The name of the computer player in this seat ("" for none)."""
        return computer_name(self.bot_level, self.index) if self.bot_level else ""


class Match(models.Model):
    """One match played at a table: its seed, options, engine state and result."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(_("number"))
    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    #: The deals come from the seed (``games.engines.chance``), the seed from the secret and
    #: the contributions (``games.engines.fair_deals``); none of the three is shown while it runs.
    seed = models.CharField(_("seed"), max_length=64, default=new_seed)
    secret = models.CharField(_("secret"), max_length=64, blank=True)
    contributions = models.JSONField(_("contributions"), default=list, blank=True)
    #: A duplicate event's table: every table of its round plays the same seed, so the same
    #: deals (``games.engines.duplicate``); the event holds the secret and contributions.
    shared_deals = models.BooleanField(_("deals shared with a round's tables"), default=False)
    state = models.TextField(_("engine state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    result = models.JSONField(_("result"), null=True, blank=True)
    #: The last accepted move (also the last row of the move log), kept here so that a live
    #: table's read after a move needs no query of the log.
    last_seat = models.PositiveSmallIntegerField(_("last seat"), null=True, blank=True)
    last_action = models.CharField(_("last action"), max_length=64, blank=True)
    #: When the last move (or the start of the match or of a deal) was made: a computer
    #: player's move is due a moment after it, however often anyone connects meanwhile.
    moved_at = models.DateTimeField(_("last move made"), null=True, blank=True)
    #: When the current turn began (the turn timer counts from here).
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    #: Since when the player on turn has the rules of the game open: their clock waits.
    reading_since = models.DateTimeField(_("reading the rules since"), null=True, blank=True)
    #: How long the current turn's clock has waited already (READING_PAUSE at most a turn).
    reading_waited = models.DurationField(_("clock waited this turn"), default=timedelta(0))
    #: While a finished deal's result shows: when the next deal starts at the latest.
    paused_until = models.DateTimeField(_("deal result shown until"), null=True, blank=True)
    #: Seats whose humans asked for the next deal during the pause.
    ready_seats = models.JSONField(
        default=list, blank=True, verbose_name=_("ready for the next deal")
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="match_unique_number"),
            # A committed secret starts at most one match, and no two matches share deals.
            models.UniqueConstraint(
                fields=["secret"], condition=~models.Q(secret=""), name="match_unique_secret"
            ),
            models.UniqueConstraint(
                fields=["seed"], condition=Q(shared_deals=False), name="match_unique_seed"
            ),
        ]
        indexes = [models.Index(fields=["status", "-started_at"])]

    def __str__(self) -> str:
        return f"{self.get_game_display()} match {self.pk}"

    @property
    def commitment(self) -> str:
        """The SHA-256 of the match's secret, shown before it started ("" for none)."""
        return fair_deals.commitment(self.secret) if self.secret else ""


class DealReview(models.Model):
    """What a finished deal's cards allowed (``games.analysis``): worked out once, then kept."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deal_reviews", verbose_name=_("match")
    )
    #: The deal's number on the score sheet (1 for the first, thrown-in deals counted).
    deal = models.PositiveSmallIntegerField(_("deal"))
    #: The analysis' version: a review made by another version is worked out again.
    version = models.PositiveSmallIntegerField(_("version"))
    data = models.JSONField(_("review"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("deal review")
        verbose_name_plural = _("deal reviews")
        constraints = [
            models.UniqueConstraint(fields=["match", "deal"], name="deal_review_unique_deal")
        ]

    def __str__(self) -> str:
        return f"{self.match} deal {self.deal}"


class Outcome(models.TextChoices):
    """How a finished match ended for one seat."""

    WIN = "win", _("Won")
    LOSS = "loss", _("Lost")
    DRAW = "draw", _("Drawn")


class MatchPlayer(models.Model):
    """Who sat where in a match (kept when seats change later)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="players", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match_seats",
        verbose_name=_("user"),
    )
    bot_level = models.CharField(max_length=10, blank=True, verbose_name=_("computer player"))
    #: A computer player moves for this human (timer ran out, away too long, or banned) until
    #: they act again.
    covered = models.BooleanField(default=False, verbose_name=_("covered by a computer"))
    #: When this human's last connection to the table closed (None while connected).
    away_since = models.DateTimeField(null=True, blank=True, verbose_name=_("away since"))
    #: Turns in a row this human's timer ran out (a computer moved once for each).
    timeouts = models.PositiveSmallIntegerField(default=0, verbose_name=_("timeouts in a row"))
    #: The match version at which this human took the seat over from a computer player ("Play
    #: now" at a quick table); None when they sat there from the start.
    joined_version = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("joined at version")
    )
    #: How the match ended for this seat; set (with the ratings) when the match finishes.
    outcome = models.CharField(
        _("outcome"), max_length=4, choices=Outcome.choices, blank=True, default=""
    )

    class Meta:
        verbose_name = _("match player")
        verbose_name_plural = _("match players")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchplayer_unique_seat")
        ]
        # A player's matches, newest first (profile pages page through this index).
        indexes = [models.Index(fields=["user", "match"], name="matchplayer_user_match")]

    def __str__(self) -> str:
        return f"{self.match} seat {self.seat}"


class Move(models.Model):
    """An accepted action, in order: the append-only log a match is replayed from."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="moves", verbose_name=_("match")
    )
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.CharField(_("action"), max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"{self.seq}. seat {self.seat}: {self.action}"


class Rating(models.Model):
    """A user's current OpenSkill rating in one game (see :mod:`games.records.ratings`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("user"),
    )
    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    mu = models.FloatField(verbose_name=_("skill (mu)"))
    sigma = models.FloatField(verbose_name=_("uncertainty (sigma)"))
    #: The displayed rating, ``games.records.ratings.display_rating(mu, sigma)`` (leaderboards
    #: sort by it).
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("rated matches"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game")
        ]
        indexes = [models.Index(fields=["game", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} {self.game}: {self.rating}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating (the profile's rating chart)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    mu_before = models.FloatField(verbose_name=_("skill before"))
    sigma_before = models.FloatField(verbose_name=_("uncertainty before"))
    mu_after = models.FloatField(verbose_name=_("skill after"))
    sigma_after = models.FloatField(verbose_name=_("uncertainty after"))
    rating_before = models.IntegerField(verbose_name=_("rating before"))
    rating_after = models.IntegerField(verbose_name=_("rating after"))
    #: When the match finished (kept when ratings are rebuilt, so charts stay in order).
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("time"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="ratingchange_unique_match")
        ]
        indexes = [
            models.Index(fields=["user", "game", "created_at"], name="ratingchange_user_game")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game}: {self.rating_before} → {self.rating_after}"

    @property
    def delta(self) -> int:
        return self.rating_after - self.rating_before


class ChatMessage(models.Model):
    """A line of table chat, visible to seats and spectators."""

    MAX_LENGTH = 300

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("user"),
    )
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    #: A line the table's rules said because of the chat (``user`` chatted during the game:
    #: "talk"; ``user`` claimed the penalty: "penalty"), told in each reader's language.
    notice = models.CharField(_("rules notice"), max_length=10, blank=True, default="")
    hidden = models.BooleanField(_("hidden"), default=False)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["table", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Server(models.Model):
    """A server process holding websockets; its heartbeat (``seen_at``) keeps its presences live.

    A process that dies without closing its sockets (SIGKILL, power loss) stops beating: its
    presences are then ignored, and swept by the next live process (see games.live.presence).
    """

    name = models.CharField(max_length=100, primary_key=True, verbose_name=_("name"))
    seen_at = models.DateTimeField(verbose_name=_("seen at"))

    class Meta:
        verbose_name = _("server process")
        verbose_name_plural = _("server processes")

    def __str__(self) -> str:
        return self.name


class PresenceQuerySet(models.QuerySet):
    def live(self) -> PresenceQuerySet:
        """Presences held by server processes that are still beating."""
        cutoff = timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
        return self.filter(server__seen_at__gte=cutoff)


class Presence(models.Model):
    """One open websocket of a user at a table (presence dots; several tabs allowed)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="presences", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    server = models.ForeignKey(
        Server, on_delete=models.CASCADE, related_name="presences", verbose_name=_("server")
    )
    channel_name = models.CharField(max_length=200, unique=True, verbose_name=_("channel"))
    connected_at = models.DateTimeField(auto_now_add=True, verbose_name=_("connected at"))

    objects = PresenceQuerySet.as_manager()

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        indexes = [models.Index(fields=["table", "user"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"


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
        ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("message")
    )
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("table")
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


class Invitation(models.Model):
    """A player's invitation of a friend to a table, until it is answered or the table is gone."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("table")
    )
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_sent",
        verbose_name=_("from"),
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_received",
        verbose_name=_("to"),
    )
    #: The seat the inviter chose for the friend (None: any free seat).
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "to_user"],
                condition=models.Q(status="pending"),
                name="one_pending_invitation_per_table_and_friend",
            )
        ]

    def __str__(self) -> str:
        return f"{self.from_user} invites {self.to_user} to {self.table}"


class Event(models.Model):
    """A club's duplicate Belote event: pairs registered in advance, rounds of the same deals
    at every table, matchpoints (``games.engines.duplicate``, ``docs/duplicate.md``)."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("in progress")
        FINISHED = "finished", pgettext_lazy("event", "finished")
        CANCELLED = "cancelled", _("cancelled")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="events", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="events_created",
        verbose_name=_("created by"),
    )
    #: When it starts by itself (None: when an admin starts it).
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"))
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=0)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    #: The round being played (0 before the start).
    current_round = models.PositiveSmallIntegerField(_("round"), default=0)
    #: The server's secret for the event's deals: its commitment shows from the start, the
    #: secret itself once the event is over.
    secret = models.CharField(_("secret"), max_length=64, default=fair_deals.new_secret)
    #: The seed, from the secret and the pairs' contributions, fixed at the start.
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: The analysis' version every played deal of the over event has a kept review of (0:
    #: not yet): until it is the game's, the pars are being worked out (``games.events.par``).
    reviewed_version = models.PositiveSmallIntegerField(_("reviews kept in version"), default=0)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [models.UniqueConstraint(fields=["secret"], name="event_unique_secret")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.pk])

    @property
    def commitment(self) -> str:
        """The SHA-256 of the event's secret, shown before the deals are drawn."""
        return fair_deals.commitment(self.secret)


class EventPair(models.Model):
    """A partnership registered for an event (``partner`` None: a computer partner)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("event")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="event_pairs",
        verbose_name=_("player"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="event_partnerships",
        verbose_name=_("partner"),
    )
    #: The pair's number in the movement, from 0 (given at the start).
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    #: The registering browser's random contribution to the event's seed.
    contribution = models.CharField(_("contribution to the deals"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["event", "number", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_pair_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.player} & {self.partner or '—'}"


class EventTable(models.Model):
    """One table of an event's round: which pair sits as team 0 (seats 1 and 3) and which as
    team 1 (None: computers)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="tables", verbose_name=_("event")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("table"))
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="event_table", verbose_name=_("table")
    )
    team_0 = models.ForeignKey(
        EventPair,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pair in seats 1 and 3"),
    )
    team_1 = models.ForeignKey(
        EventPair,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pair in seats 2 and 4"),
    )
    #: Every table of the round has finished: its records, reviews and results may show.
    revealed = models.BooleanField(_("round over everywhere"), default=False)
    #: Kept once revealed: {"matchpoints": [team 0's, team 1's], "top": the most either could
    #: have had} over the round's deals (``games.events.results``).
    points = models.JSONField(_("matchpoints"), null=True, blank=True)

    class Meta:
        verbose_name = _("event table")
        verbose_name_plural = _("event tables")
        ordering = ["event", "round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round", "number"], name="event_table_unique_place"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.round} table {self.number + 1}"
