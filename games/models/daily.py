"""The daily Belote: one set of deals a day that every player may play once, alone with
computers, each deal compared with every other player's result on it (matchpoints)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..engines import fair_deals
from .tables import Table


class Daily(models.Model):
    """A day's set of deals: open from midnight to the next midnight in the site's daily time
    zone (``DAILY_TIME_ZONE``), drawn from a secret committed to from the start."""

    day = models.DateField(_("day"), unique=True)
    deals = models.PositiveSmallIntegerField(_("deals"))
    #: The server's secret for the day's deals: its commitment shows from the start, the
    #: secret itself once the day is over.
    secret = models.CharField(_("secret"), max_length=64, default=fair_deals.new_secret)
    #: The seed, from the secret alone (nobody contributes to a daily).
    seed = models.CharField(_("seed"), max_length=64)
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    #: The day's close was processed: unfinished sets stopped and counted, places kept.
    closed = models.BooleanField(_("closed"), default=False)
    #: Players who began the set.
    players = models.PositiveIntegerField(_("players"), default=0)
    #: Sets whose results count (finished, or stopped by the close): the standings' version.
    recorded = models.PositiveIntegerField(_("results counted"), default=0)

    class Meta:
        verbose_name = _("daily Belote")
        verbose_name_plural = _("daily Belotes")
        constraints = [models.UniqueConstraint(fields=["secret"], name="daily_unique_secret")]

    def __str__(self) -> str:
        return str(self.day)

    def get_absolute_url(self) -> str:
        return reverse("daily", args=[self.day.isoformat()])

    @property
    def commitment(self) -> str:
        """The SHA-256 of the day's secret, shown before anyone plays."""
        return fair_deals.commitment(self.secret)


class DailyEntry(models.Model):
    """One player's set of a day: their table (they sit in seat 1, computers in the others),
    and once counted their score on each deal."""

    daily = models.ForeignKey(
        Daily, on_delete=models.CASCADE, related_name="entries", verbose_name=_("daily Belote")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="daily_entries",
        verbose_name=_("player"),
    )
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="daily_entry",
        verbose_name=_("table"),
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    #: Every deal of the set was played.
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: The results count (at the finish, or when the day closed on an unfinished set).
    recorded_at = models.DateTimeField(_("counted"), null=True, blank=True)
    deals_played = models.PositiveSmallIntegerField(_("deals played"), default=0)
    #: The player's score on each deal played (their side's written points minus the
    #: opponents'), comma-separated in deal order.
    scores = models.CharField(_("scores"), max_length=200, blank=True)
    #: Kept when the day closes: the final percentage and place.
    percent = models.FloatField(_("percentage"), null=True, blank=True)
    rank = models.PositiveIntegerField(_("place"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily set")
        verbose_name_plural = _("daily sets")
        constraints = [
            models.UniqueConstraint(fields=["daily", "user"], name="daily_entry_once_a_day")
        ]
        indexes = [models.Index(fields=["daily", "recorded_at"])]

    def __str__(self) -> str:
        return f"{self.daily} {self.user}"

    @property
    def score_list(self) -> list[int]:
        return [int(score) for score in self.scores.split(",")] if self.scores else []


class DailyTally(models.Model):
    """How many players had one result on one deal of a day: the traveller's line, and the
    counts every matchpoint is worked out from."""

    daily = models.ForeignKey(
        Daily, on_delete=models.CASCADE, related_name="tallies", verbose_name=_("daily Belote")
    )
    deal = models.PositiveSmallIntegerField(_("deal"))
    #: The contract's call ("" for a thrown-in deal), its declarer's seat (-1: none), its
    #: multiplier and how it went.
    contract = models.CharField(_("contract"), max_length=8, blank=True)
    declarer = models.SmallIntegerField(_("declarer"), default=-1)
    multiplier = models.PositiveSmallIntegerField(_("multiplier"), default=1)
    outcome = models.CharField(_("outcome"), max_length=8)
    #: What the player's side and the opponents wrote for the deal.
    written_us = models.IntegerField(_("player's side wrote"))
    written_them = models.IntegerField(_("opponents wrote"))
    count = models.PositiveIntegerField(_("players"), default=0)

    class Meta:
        verbose_name = _("daily result")
        verbose_name_plural = _("daily results")
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "daily",
                    "deal",
                    "contract",
                    "declarer",
                    "multiplier",
                    "outcome",
                    "written_us",
                    "written_them",
                ],
                name="daily_tally_unique_result",
            )
        ]

    def __str__(self) -> str:
        return f"{self.daily} deal {self.deal}: {self.written_us}-{self.written_them}"

    @property
    def score(self) -> int:
        return self.written_us - self.written_them
