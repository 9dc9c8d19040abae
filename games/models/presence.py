"""Who has a table open: the server processes holding sockets and each socket's presence."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import Table


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
