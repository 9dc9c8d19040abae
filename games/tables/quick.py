"""Quick tables ("Play now"): a table with computer players in the seats nobody takes, where
people take computer players' seats from the next deal, and whose next match starts once
everyone still at it asked for it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..catalog import get_game
from ..models import Match, MatchPlayer, Seat, Table
from ..people import limits
from ..people.online import at_table
from .matches import begin_match, quick_rematch_seats
from .rows import (
    TableError,
    bump,
    checked_contribution,
    create_table,
    keep_contribution,
    lock_account,
    lock_table,
    too_many_tables,
)

#: The turn timer of a quick table (seconds) once a second person plays there: its players may
#: be strangers, who should not wait long for someone who wandered off. A player alone with
#: computers has no timer (a newcomer may read the rules between moves).
QUICK_TURN_SECONDS = 30


class PlayNow(NamedTuple):
    """Where "Play now" sent a player."""

    table: Table
    #: ``"back"``: they sat there already; ``"created"``: a new table, started at once.
    how: str


class InProgress(NamedTuple):
    """A quick table's match a player may join (taking a computer player's seat), and how far
    it has gone, from the side of the seat they would take ("10-39, deal 3")."""

    table: Table
    progress: str
    #: What joining means ("You take a computer player's seat at the next deal.").
    note: str


class ShownSecret(NamedTuple):
    """The secret of a player's next quick table, whose commitment their "Play now" page
    showed, and the contribution their browser sent with the click."""

    secret: str
    contribution: str


def default_options(game: str) -> dict[str, object]:
    """The options a quick table of ``game`` gets (nobody chooses): its options form's initial
    values, with the game's ``quick_options`` over them."""
    spec = get_game(game)
    fields = spec.options_form.base_fields
    return {name: field.initial for name, field in fields.items()} | spec.quick_options


def play_now(user: AbstractBaseUser, game: str, shown: ShownSecret | None = None) -> PlayNow:
    """Seat ``user`` at a quick table of ``game``: theirs if they sit at one already, else a
    new table with computer players in the other seats, started at once at 0-0 (its first
    match from ``shown``, when given). Joining a match in progress is a choice of its own
    (:func:`match_in_progress`, :func:`claim_computer_seat`)."""
    get_game(game)  # LookupError for a game the site does not offer
    if shown is not None:
        shown = shown._replace(contribution=checked_contribution(shown.contribution))
    with transaction.atomic():
        lock_account(user)  # of two clicks sent together, the second finds the first's table
        mine = Table.objects.filter(
            quick=True,
            game=game,
            status__in=[Table.Status.OPEN, Table.Status.PLAYING],
            seats__user=user,
        ).first()
        if mine is not None:
            return PlayNow(mine, "back")
        if limits.tables_in_play(user) >= settings.MAX_OPEN_TABLES_PER_ACCOUNT:
            raise too_many_tables()
        return PlayNow(open_quick_table(user, game, shown), "created")


def match_in_progress(user: AbstractBaseUser, game: str) -> InProgress | None:
    """The quick table of ``game`` whose running match ``user`` would join if they chose to
    (none when they sit at a quick table of ``game`` already, or none has a computer's seat)."""
    if Table.objects.filter(
        quick=True,
        game=game,
        status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        seats__user=user,
    ).exists():
        return None
    table = joinable_quick_tables(game).first()
    if table is None:
        return None
    match = table.matches.order_by("-number").first()
    if match is None or match.status != Match.Status.RUNNING:
        return None
    seat = table.seats.filter(user=None).exclude(bot_level="").order_by("index").first()
    if seat is None:
        return None
    spec = get_game(game)
    progress = spec.progress(spec.engine.loads(match.state), seat.index)
    return InProgress(table, progress, spec.join_note)


def joinable_quick_tables(game: str | None = None) -> QuerySet[Table]:
    """Public quick tables playing with a computer player whose seat a human may take, those
    with the most humans first."""
    tables = Table.objects.filter(quick=True, is_private=False, status=Table.Status.PLAYING)
    if game is not None:
        tables = tables.filter(game=game)
    return (
        tables.annotate(
            computer_seats=Count("seats", filter=Q(seats__user=None) & ~Q(seats__bot_level="")),
            humans=Count("seats", filter=Q(seats__user__isnull=False)),
        )
        .filter(computer_seats__gt=0)
        .order_by("-humans", "-updated_at")
    )


class SeatGone(TableError):
    """The quick table has no computer player's seat to take any more."""


def claim_computer_seat(table_id: int, user: AbstractBaseUser) -> int:
    """Give ``user`` the seat of a computer player at a running quick table; returns its index.

    The table's seat is theirs at once, but the running match's computer player plays on until
    the next deal starts (:func:`hand_over_claimed_seats`); a game without deals hands it over
    with the next match. Someone who presses "Play now" wants that next match too: they count
    as having asked for it.
    """
    with transaction.atomic():
        lock_account(user)
        table = lock_table(table_id)
        if not table.quick or table.is_private:
            raise TableError(_("Only quick tables let you take a computer player's seat."))
        if table.status != Table.Status.PLAYING:
            raise SeatGone(_("This quick game is over: press “Play now” for another."))
        seats = list(table.seats.all())
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            return mine.index
        if limits.tables_in_play(user) >= settings.MAX_OPEN_TABLES_PER_ACCOUNT:
            raise too_many_tables()
        seat = next((seat for seat in seats if seat.user_id is None and seat.bot_level), None)
        if seat is None:
            raise SeatGone(_("Every seat at this table has a player now."))
        seat.user, seat.bot_level = user, ""
        seat.save(update_fields=["user", "bot_level"])
        table.rematch_votes = sorted({*table.rematch_votes, seat.index})
        bump(table, "rematch_votes")
    return seat.index


def open_quick_table(user: AbstractBaseUser, game: str, shown: ShownSecret | None = None) -> Table:
    """A new public quick table of ``game``: ``user`` in the first seat, computer players in
    the others, its match started (from the secret and contribution ``shown``, when given)."""

    with transaction.atomic():
        table = create_table(user, game, default_options(game), is_private=False)
        table = lock_table(table.pk)
        table.quick = True
        if shown is not None:
            if not secret_spent(shown.secret):
                table.next_secret = shown.secret
            keep_contribution(table, user, shown.contribution)
        table.save(update_fields=["quick", "next_secret"])
        table.seats.filter(user=None).update(bot_level=get_game(game).cover_level)
        begin_match(table)
    return table


def secret_spent(secret: str) -> bool:
    """Whether ``secret`` is committed at a table or started a match already: a secret starts
    at most one match (the database refuses a second; this finds it first)."""
    return (
        Match.objects.filter(secret=secret).exists()
        or Table.objects.filter(next_secret=secret).exists()
    )


def waiting_claims(
    seats: Iterable[Seat], match: Match | None, players: Iterable[MatchPlayer]
) -> dict[int, MatchPlayer]:
    """The seats whose humans wait for the next deal, by index, each with the computer player
    that still plays it in the running ``match`` (no query)."""
    if match is None or match.status != Match.Status.RUNNING:
        return {}
    computers = {player.seat: player for player in players if player.user_id is None}
    return {
        seat.index: computers[seat.index]
        for seat in seats
        if seat.user_id is not None and seat.index in computers
    }


def hand_over_claimed_seats(table: Table, match: Match, version: int, deal: int) -> list[int]:
    """The humans who claimed computer players' seats at a quick table take them over: the
    ``match`` has just started its deal number ``deal``, at ``version``. The caller holds the
    table's lock. Returns the seats handed over."""
    if not table.quick:
        return []
    seats = list(table.seats.all())
    claims = waiting_claims(seats, match, match.players.all())
    if not claims:
        return []
    users = {seat.index: seat.user_id for seat in seats if seat.index in claims}
    here = at_table(table, users.values())
    now = timezone.now()
    for index, player in claims.items():
        player.replaced_level, player.joined_deal = player.bot_level, deal
        player.user_id, player.bot_level = users[index], ""
        player.covered, player.joined_version = False, version
        # Someone who closed the page meanwhile is away: a computer covers them after the
        # usual grace, as for anyone who leaves during a match.
        player.away_since = None if player.user_id in here else now
    MatchPlayer.objects.bulk_update(
        claims.values(),
        [
            "user",
            "bot_level",
            "covered",
            "joined_version",
            "joined_deal",
            "replaced_level",
            "away_since",
        ],
    )
    table.turn_seconds = QUICK_TURN_SECONDS  # no longer alone with computers: the clock runs
    bump(table, "turn_seconds")
    return sorted(claims)


def leave_quick_table(table: Table, user: AbstractBaseUser) -> None:
    """A player leaves a quick table: a computer player takes the seat. During a match only
    a seat still waiting for the next deal can be given back."""
    if table.status == Table.Status.ABORTED:
        raise TableError(_("This table was closed."))
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise TableError(_("You are not sitting at this table."))
    level = get_game(table.game).cover_level
    if table.status == Table.Status.PLAYING:
        match = table.matches.order_by("-number").first()
        claim = waiting_claims([seat], match, match.players.filter(seat=seat.index))
        if seat.index not in claim:
            raise TableError(_("Seats can't change while a match is being played."))
        level = claim[seat.index].bot_level
    seat.user, seat.bot_level, seat.contribution = None, level, ""
    seat.save(update_fields=["user", "bot_level", "contribution"])
    votes = [index for index in table.rematch_votes if index != seat.index]
    if table.status == Table.Status.FINISHED and quick_rematch_seats(
        table, list(table.seats.all()), votes
    ):
        begin_match(table)  # the others had all asked for the next match
        return
    table.rematch_votes = votes
    bump(table, "rematch_votes")
