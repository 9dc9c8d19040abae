"""Starting a match: its seats, its players and its seed (from the table's committed secret
and the players' contributions, see ``games.engines.fair_deals``)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from ..catalog import get_game
from ..engines import fair_deals
from ..models import Match, MatchPlayer, Table
from .rows import (
    TableError,
    bump,
)


def current_match(table: Table) -> Match | None:
    """The table's latest match (running or not), or None before the first one."""
    return table.matches.order_by("-number").first()


def begin_match(table: Table, shared_seed: str = "") -> Match:
    """Start a match on the table's current seats (the table is locked by the caller).

    Its deals come from the table's committed secret and its players' contributions
    (``games.engines.fair_deals``); the table then commits to a new secret for the match after it.
    ``shared_seed``: a duplicate round's seed instead, the same at every table of the round.
    """
    seats = list(table.seats.all())
    if any(seat.is_free for seat in seats):
        raise TableError(_("Every seat must be taken before the match can start."))
    spec = get_game(table.game)
    last = current_match(table)
    contributions: list[fair_deals.Contribution] = [
        {"seat": seat.index, "value": seat.contribution}
        for seat in seats
        if seat.user_id is not None and seat.contribution
    ]
    match = Match(
        table=table,
        number=(last.number + 1) if last else 1,
        game=table.game,
        options=table.options,
        moved_at=timezone.now(),
        turn_started_at=timezone.now(),
        secret="" if shared_seed else table.next_secret,
        contributions=[] if shared_seed else contributions,
        seed=shared_seed or fair_deals.derive_seed(table.next_secret, contributions),
        shared_deals=bool(shared_seed),
    )
    match.state = spec.engine.dumps(spec.new_state(match.seed, table.options))
    match.save()
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=seat.index, user_id=seat.user_id, bot_level=seat.bot_level)
        for seat in seats
    )
    table.seats.exclude(contribution="").update(contribution="")
    table.status = Table.Status.PLAYING
    table.rematch_votes = []
    table.next_secret = fair_deals.new_secret()
    bump(table, "status", "rematch_votes", "next_secret")
    return match
