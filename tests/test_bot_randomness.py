"""Computer players' random choices come from the match's secret seed: nobody can foresee them
from what the table shows while it runs, and they replay exactly once it is published."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from games.engines import fair_deals
from games.live import autoplay
from games.models import Match, Seat
from games.tables import matches, rows
from tests.factories import OPTIONS, make_players, match_of

pytestmark = pytest.mark.django_db


def draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(5)]


def test_a_computers_randomness_needs_the_secret_seed_and_replays_from_it():
    (alice,) = make_players(1)
    table = rows.create_table(alice, "belote", OPTIONS, is_private=True)
    Seat.objects.filter(table=table).exclude(index=0).update(bot_level="easy")
    matches.start_match(table.pk, alice)
    match = match_of(table)
    pending = next(
        autoplay.Pending(table.pk, match.version, seat, "easy", timezone.now(), False)
        for seat in (1, 2, 3)
    )
    *_, rng = autoplay.bot_input(pending)
    mine = draws(rng)
    # Not from what anyone sees at the table: the match's id, its version and the seat.
    public = f"{match.pk}:{match.version}:{pending.seat}"
    assert mine != draws(random.Random(public))
    # The same match at the same step chooses the same (replays, tests)…
    assert draws(autoplay.bot_input(pending)[2]) == mine
    # …and another secret, all else equal, makes other choices.
    Match.objects.filter(pk=match.pk).update(seed=fair_deals.new_secret())
    assert draws(autoplay.bot_input(pending)[2]) != mine
