"""Per-account and per-address limits, so that one account or one address cannot crowd out
everyone else. Each limit is a setting; each refusal says what happened.

Counters, and the places an account's open sockets hold, live in the cache (Redis when
``REDIS_URL`` is set, so every process shares them).
django-ratelimit would do the counting but refuses the in-process cache of a single-process
install, hence this small fixed-window counter.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from ..models import Table

HOUR = 3600


def spend(key: str, limit: int, seconds: int) -> bool:
    """Count one use of ``key``; False once more than ``limit`` uses fell in ``seconds``."""
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=seconds)
        count = 1
    return count <= limit


def claim_socket(user_id: int, channel_name: str) -> str | None:
    """Take one of the account's ``MAX_SOCKETS_PER_ACCOUNT`` places for the socket
    ``channel_name`` (lobby or table, in any process: the places are cache keys); None when
    all are taken.

    A place lapses after ``PRESENCE_STALE_SECONDS`` unless :func:`keep_sockets` refreshes
    it, so the sockets of a killed process stop counting as its presences do.
    """
    places = [f"sockets:{user_id}:{n}" for n in range(settings.MAX_SOCKETS_PER_ACCOUNT)]
    taken = cache.get_many(places)
    for place in places:
        if place not in taken and cache.add(
            place, channel_name, timeout=settings.PRESENCE_STALE_SECONDS
        ):
            return place
    return None


def keep_sockets(places: dict[str, str]) -> None:
    """Refresh the places (place -> channel name) of this process's open sockets."""
    cache.set_many(places, timeout=settings.PRESENCE_STALE_SECONDS)


def release_socket(place: str, channel_name: str) -> None:
    """Free the place :func:`claim_socket` gave the socket ``channel_name``."""
    if cache.get(place) == channel_name:
        cache.delete(place)


def open_tables(user: AbstractBaseUser) -> int:
    """Tables the user opened that are waiting or playing and changed within a day (a table
    left waiting for longer no longer counts)."""
    since = timezone.now() - timedelta(days=1)
    return Table.objects.filter(
        owner=user,
        status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        updated_at__gte=since,
        event_table__isnull=True,  # an event's tables are the event's, not its creator's
    ).count()


def tables_in_play(user: AbstractBaseUser) -> int:
    """Tables waiting or playing (changed within a day) that the user opened or sits at: what
    "Play now" counts against ``MAX_OPEN_TABLES_PER_ACCOUNT``, since it also seats people at
    tables others opened."""
    since = timezone.now() - timedelta(days=1)
    return (
        Table.objects.filter(
            Q(owner=user) | Q(seats__user=user),
            status__in=[Table.Status.OPEN, Table.Status.PLAYING],
            updated_at__gte=since,
        )
        .distinct()
        .count()
    )


def signup_key(address: str | None) -> str:
    return f"signups:{address}"


def report_key(user: AbstractBaseUser) -> str:
    return f"reports:{user.pk}"


def review_key(user: AbstractBaseUser, address: str | None) -> str:
    """Whom reviews worked out are counted against: the account, else the address."""
    return f"reviews:user:{user.pk}" if user.is_authenticated else f"reviews:address:{address}"
