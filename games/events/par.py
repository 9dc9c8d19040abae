"""An over event's pars: the reviews of its played deals, worked out once, in the background.

When the last round ends (and again whenever the results are asked for before they are all
kept), :func:`schedule` queues the event in this process's background thread
(``games.background``). There the process that claims the event (a cache key every process
shares: Redis when ``REDIS_URL`` is set) works out its missing reviews one at a time, in the
process pool (``games.records.reviews``), and marks the event reviewed. The claim lapses
:data:`CLAIM_SECONDS` after its holder began its latest review, so an event whose process
died is taken up again by the next asking. No request works a review out for an event.
"""

from __future__ import annotations

import secrets
from functools import partial

from django.core.cache import cache

from .. import background
from ..catalog import get_game
from ..models import DealReview, Event, EventTable, Match
from ..records import reviews

#: How long a claim outlives its holder's last review: far longer than one review takes.
CLAIM_SECONDS = 120


def ready(event: Event) -> bool:
    """Whether every played deal of the over ``event`` has its review kept."""
    return event.reviewed_version == get_game("belote").review_version


def schedule(event_id: int) -> None:
    """Have the over event's missing reviews worked out in the background (asked again while
    it is queued here, nothing more is queued)."""
    background.run_later(("event-reviews", event_id), partial(work_out, event_id))


def claim_key(event_id: int) -> str:
    return f"event-reviews:{event_id}"


def missing(event_id: int) -> list[tuple[Match, int]]:
    """The played deals of the event that have no kept review: (match, deal number)."""
    places = EventTable.objects.filter(event_id=event_id, revealed=True)
    matches = list(
        Match.objects.filter(table__event_table__in=places).exclude(status=Match.Status.RUNNING)
    )
    kept = set(
        DealReview.objects.filter(
            match__in=matches, version=get_game("belote").review_version
        ).values_list("match_id", "deal")
    )
    out = []
    for match in matches:
        spec = get_game(match.game)
        for number in spec.reviewable_deals(spec.engine.loads(match.state)):
            if (match.pk, number) not in kept:
                out.append((match, number))
    return out


def work_out(event_id: int) -> None:
    """Claim the event and work out its missing reviews one by one; once all are kept, mark
    it reviewed. Another process holding the claim leaves this one nothing to do."""
    event = Event.objects.filter(pk=event_id, status=Event.Status.FINISHED).first()
    if event is None or ready(event):
        return
    key, token = claim_key(event_id), secrets.token_hex(8)
    if not cache.add(key, token, timeout=CLAIM_SECONDS):
        return
    for match, number in missing(event_id):
        if cache.get(key) != token:
            return  # the claim lapsed and another process took the event over
        cache.touch(key, CLAIM_SECONDS)
        reviews.deal_review(match, number)
    Event.objects.filter(pk=event_id).update(reviewed_version=get_game("belote").review_version)
    # A failure above leaves the claim to lapse: the event is tried again after a while.
    if cache.get(key) == token:
        cache.delete(key)
