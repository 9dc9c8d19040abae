"""Tables and what happens at them: seats, matches, who played them, the move log, chat and
invitations.

A :class:`Match` stores its engine state as the engine's own JSON text plus a ``version`` that
grows by one with every accepted move; :class:`Move` is the append-only log from which any match
can be replayed (seed + options + moves through the engine).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..catalog import game_choices
from ..engines import fair_deals
from ..presenters.computers import computer_name
from .people import Club, new_invite_code


def new_seed() -> str:
    """A seed from a fresh secret and no contributions, for a match made other than by starting
    it at a table (which records its secret and contributions)."""
    return fair_deals.derive_seed(fair_deals.new_secret(), [])


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
    #: The first deal this human played when they took the seat over from a computer player
    #: (None when they sat there from the start), and that computer's level: the deals before
    #: it were the computer's, and its score sheet rows name it.
    joined_deal = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("first deal played")
    )
    replaced_level = models.CharField(
        max_length=10, blank=True, verbose_name=_("computer player before")
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
