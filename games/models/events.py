"""Duplicate events, a club's or the site's (a public cup): the event, its registered pairs and
each round's tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from ..engines import fair_deals
from .people import Club
from .tables import Table


class Event(models.Model):
    """A duplicate Belote event: pairs registered in advance, rounds of the same deals at
    every table, matchpoints (``games.engines.duplicate``, ``docs/duplicate.md``). A club's
    event is its members'; one of no club is a public cup, scheduled by staff, open to every
    player."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("in progress")
        FINISHED = "finished", pgettext_lazy("event", "finished")
        CANCELLED = "cancelled", _("cancelled")

    #: None: a public cup, run by the site.
    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("club"),
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
    #: The tables' Belote option: players choose which declarations to announce (off:
    #: everything is announced, as at a quick table).
    ask_to_announce = models.BooleanField(_("ask before announcing"), default=True)
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
    #: When its players were told that it starts soon (None: not yet).
    reminded_at = models.DateTimeField(_("players reminded"), null=True, blank=True)
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
    def is_cup(self) -> bool:
        """Whether it is a public cup (the site's, no club's)."""
        return self.club_id is None

    @property
    def commitment(self) -> str:
        """The SHA-256 of the event's secret, shown before the deals are drawn."""
        return fair_deals.commitment(self.secret)


class EventPair(models.Model):
    """A partnership registered for an event (``partner`` None: a computer partner); one
    with a human partner waits for their answer until they accept it."""

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
    #: The partner has not accepted yet: the pair does not play unless they do before the start.
    waiting = models.BooleanField(_("waiting for the partner's answer"), default=False)
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
        return pgettext("a pair of players", "%(first)s & %(second)s") % {
            "first": self.player,
            "second": self.partner or "—",
        }


class EventTable(models.Model):
    """One table of an event's round: which pair sits as team 0 (seats 1 and 3) and which as
    team 1 (None: a computer pair, numbered in ``computers_0`` or ``computers_1``)."""

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
    #: The computer pair in seats 1 and 3, or in seats 2 and 4, numbered from 1 in the event.
    computers_0 = models.PositiveSmallIntegerField(
        _("computer pair in seats 1 and 3"), null=True, blank=True
    )
    computers_1 = models.PositiveSmallIntegerField(
        _("computer pair in seats 2 and 4"), null=True, blank=True
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
