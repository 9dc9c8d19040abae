"""Reviews of finished deals: worked out by the game's analysis once, then kept.

A review shows every hand of a deal, so only ended matches have them (the record and the
replay offer them). Working one out replays the match and solves the deal: that runs in the
process pool (``games.processes``), off the web process.

The pool's processes import this module before Django is set up, so the models are imported
where they are used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import django
from django.apps import apps
from django.db import IntegrityError, transaction

from cardroom import metrics

from .. import processes
from ..catalog import get_game

if TYPE_CHECKING:
    from ..models import Match


class Refused(Exception):
    """The review is not kept yet, and the asker may not have one worked out now."""


def deal_review(
    match: Match, number: int, may_work_out: Callable[[], bool] | None = None
) -> dict[str, object] | None:
    """The review of deal ``number`` (from 1) of the ended ``match``, worked out on first
    asking; None when the deal has none (thrown in, not finished, or a game without reviews).

    ``may_work_out`` is asked (once) before a review that is not kept is worked out; False
    raises :class:`Refused`.
    """
    from ..models import DealReview, Match
    from .replay import logged_moves

    if match.status == Match.Status.RUNNING:
        raise ValueError("a running match's deals are not reviewed")
    spec = get_game(match.game)
    if not spec.review_version:
        return None
    if number not in spec.reviewable_deals(spec.engine.loads(match.state)):
        return None
    kept = DealReview.objects.filter(match=match, deal=number, version=spec.review_version).first()
    if kept is not None:
        return kept.data
    if may_work_out is not None and not may_work_out():
        raise Refused
    match_key = (match.game, match.seed, match.options)
    with metrics.waiting("review"):
        review = processes.in_pool(work_out, match_key, logged_moves(match), number)
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


def work_out(
    match: tuple[str, str, dict[str, object]], moves: Sequence[tuple[int, str]], number: int
) -> dict[str, object] | None:
    """Replay the match whose game, seed and options are ``match`` through ``moves`` (its
    log), and review deal ``number``."""
    if not apps.ready:
        django.setup()
    from ..models import Match
    from .replay import replay_states

    game, seed, options = match
    states = list(replay_states(Match(game=game, seed=seed, options=options), moves))
    return get_game(game).review_deal(states, number)
