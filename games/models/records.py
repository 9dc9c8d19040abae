"""What stays after a match: its deals' reviews and the players' ratings."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..catalog import game_choices
from .tables import Match


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
