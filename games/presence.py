"""Who is connected to a table: presence dots, and when a seated player went away."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from .models import Match, MatchPlayer, Presence, Table


def _running_seats(table_id: int, user: AbstractBaseUser):
    return MatchPlayer.objects.filter(
        match__table_id=table_id, match__status=Match.Status.RUNNING, user=user
    )


def join(code: str, user: AbstractBaseUser, channel_name: str) -> int | None:
    """Record a connection to the table with invite ``code``; returns its id (None: no table)."""
    table = Table.objects.filter(code=code).only("pk").first()
    if table is None:
        return None
    with transaction.atomic():
        Presence.objects.create(table=table, user=user, channel_name=channel_name)
        _running_seats(table.pk, user).update(away_since=None)
    return table.pk


def leave(table_id: int, user: AbstractBaseUser, channel_name: str) -> None:
    """Forget a connection; a player with no connection left is away from now on."""
    with transaction.atomic():
        Presence.objects.filter(channel_name=channel_name).delete()
        if not Presence.objects.filter(table_id=table_id, user=user).exists():
            _running_seats(table_id, user).update(away_since=timezone.now())
