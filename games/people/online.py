"""Who is online, and who has a table's page open.

Every open socket of an account (a page of the site, lobby or table, in any server process)
holds one of the account's ``MAX_SOCKETS_PER_ACCOUNT`` places in the cache (Redis when
``REDIS_URL`` is set, so every process shares them): the places are both the socket limit and
the one answer to "is this player online" (:func:`online`). A place lapses after
``PRESENCE_STALE_SECONDS`` unless :func:`keep_sockets` refreshes it, so the sockets of a killed
process stop counting as its presences do. Who has a table's page open are the presences at
that table (:func:`at_table`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache

from ..models import Presence, Table


def _places(user_id: int) -> list[str]:
    """The cache keys of the account's places, in the order they are taken."""
    return [f"sockets:{user_id}:{n}" for n in range(settings.MAX_SOCKETS_PER_ACCOUNT)]


def claim_socket(user_id: int, channel_name: str) -> str | None:
    """Take one of the account's places for the socket ``channel_name``; None when all are
    taken."""
    places = _places(user_id)
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


def online(user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` with a page of the site open (a socket, in any process); one
    cache read for them all."""
    places = {place: user_id for user_id in user_ids for place in _places(user_id)}
    return {places[place] for place in cache.get_many(list(places))}


def at_table(table: Table, user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` with a page of ``table`` open."""
    present = Presence.objects.live().filter(table=table, user_id__in=list(user_ids))
    return set(present.values_list("user_id", flat=True))
