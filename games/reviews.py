"""Reviews of finished deals: worked out by the game's analysis once, then kept.

A review shows every hand of a deal, so only ended matches have them (the record and the
replay offer them).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from .catalog import get_game
from .models import DealReview, Match
from .replay import replay_states


def deal_review(match: Match, number: int) -> dict[str, Any] | None:
    """The review of deal ``number`` (from 1) of the ended ``match``, worked out on first
    asking; None when the deal has none (thrown in, not finished, or a game without reviews)."""
    if match.status == Match.Status.RUNNING:
        raise ValueError("a running match's deals are not reviewed")
    spec = get_game(match.game)
    if not spec.review_version:
        return None
    kept = DealReview.objects.filter(match=match, deal=number, version=spec.review_version).first()
    if kept is not None:
        return kept.data
    review = spec.review_deal(list(replay_states(match)), number)
    if review is None:
        return None
    try:
        with transaction.atomic():
            DealReview.objects.update_or_create(
                match=match,
                deal=number,
                defaults={"version": spec.review_version, "data": review},
            )
    except IntegrityError:
        pass  # another request kept the same review meanwhile
    return review
