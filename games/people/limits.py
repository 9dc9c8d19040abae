"""Per-account and per-address limits, so that one account or one address cannot crowd out
everyone else. Each limit is a setting; each refusal says what happened.

Counters live in the cache (Redis when ``REDIS_URL`` is set, so every process shares them);
the sockets an account may hold open are counted by :mod:`games.people.online`.
django-ratelimit would do the counting but refuses the in-process cache of a single-process
install, hence this small fixed-window counter.
"""

from __future__ import annotations

from datetime import timedelta

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
            Q(owner=user, event_table__isnull=True) | Q(seats__user=user),
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
