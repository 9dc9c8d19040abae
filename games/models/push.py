"""Web Push: the devices a player turned notifications on for, and which kinds of news they
want there while no page of the site is open."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser's push subscription (the Push API's endpoint and keys) for one player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    #: The push service's address for this browser: secret to anyone but the player.
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    #: The browser's public key (P-256, base64url) and authentication secret (RFC 8291).
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("authentication secret"), max_length=50)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} #{self.pk}"

    @property
    def host(self) -> str:
        """The push service's host, all that moderators need to see of the endpoint."""
        return self.endpoint.split("/")[2] if self.endpoint.count("/") >= 2 else ""


class PushChoices(models.Model):
    """Which news a player wants pushed to their devices while no page of the site is open."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="push_choices",
        verbose_name=_("user"),
    )
    turn = models.BooleanField(_("my turn at a table with a clock"), default=True)
    invitation = models.BooleanField(_("an invitation to a table"), default=True)
    friend_request = models.BooleanField(_("a friend request"), default=True)
    event = models.BooleanField(_("an event's round or a cup about to start"), default=True)
    daily = models.BooleanField(_("today's daily Belote"), default=False)
    #: The day of the latest daily Belote pushed to the player (one a day).
    daily_pushed = models.DateField(_("daily Belote pushed"), null=True, blank=True)

    #: The kinds, by field name, in the order the settings page lists them.
    KINDS = ("turn", "invitation", "friend_request", "event", "daily")

    class Meta:
        verbose_name = _("push choices")
        verbose_name_plural = _("push choices")

    def __str__(self) -> str:
        return str(self.user)
