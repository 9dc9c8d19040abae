"""Table services: create a table, take and leave seats, ask for a rematch, and "Play now"'s
quick tables (where people take computer players' seats).

Every function that changes a table locks its row (``select_for_update``; on SQLite the
immediate transaction serialises writers) and bumps ``Table.revision``. Refusals raise
:class:`TableError` with a message for the player; nothing changes then.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import fair_deals, limits
from .catalog import get_game
from .models import Match, MatchPlayer, Presence, Seat, Table


class TableError(Exception):
    """A refused request; ``str(error)`` is a translated message fit for the player."""


def create_table(
    owner: AbstractBaseUser,
    game: str,
    options: dict[str, Any],
    *,
    is_private: bool,
    turn_seconds: int = 0,
) -> Table:
    """Open a new table with ``owner`` in its first seat and the others free (``turn_seconds``:
    the turn timer, 0 for none)."""
    spec = get_game(game)
    with transaction.atomic():
        lock_account(owner)
        if limits.open_tables(owner) >= settings.MAX_OPEN_TABLES_PER_ACCOUNT:
            raise _too_many_tables()
        table = Table.objects.create(
            game=game,
            options=options,
            owner=owner,
            is_private=is_private,
            turn_seconds=turn_seconds,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=index, user=owner if index == 0 else None)
            for index in range(spec.seat_count(options))
        )
    return table


def _too_many_tables() -> TableError:
    limit = settings.MAX_OPEN_TABLES_PER_ACCOUNT
    return TableError(
        ngettext(
            "You have %(count)d table waiting or playing already: finish it first.",
            "You have %(count)d tables waiting or playing already: finish one first.",
            limit,
        )
        % {"count": limit}
    )


def checked_contribution(value: str) -> str:
    """A player's contribution to the next match's seed, "" for none (``games.fair_deals``)."""
    if value and not fair_deals.is_contribution(value):
        raise TableError(
            _("Your browser's contribution to the deals was not 64 hexadecimal digits.")
        )
    return value


def keep_contribution(table: Table, user: AbstractBaseUser, value: str) -> None:
    """Record ``user``'s contribution to the table's next match, if they sent one."""
    if value:
        Seat.objects.filter(table=table, user=user).update(contribution=value)


def lock_account(user: AbstractBaseUser) -> None:
    """Take the account's lock inside the caller's transaction: one account's requests that
    open or join tables run one after another, so its limits and its "Play now" hold under
    concurrent clicks. Take it before any table's lock."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def lock_table(table_id: int) -> Table:
    """Fetch a table for update inside the caller's transaction (the per-table lock)."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("This table no longer exists.")) from None


def bump(table: Table, *fields: str) -> None:
    """Save ``fields`` and the next revision: live views of the table will refresh."""
    table.revision += 1
    table.save(update_fields=["revision", "updated_at", *fields])


def _require_seating_allowed(table: Table) -> None:
    if table.status == Table.Status.PLAYING:
        raise TableError(_("Seats can't change while a match is being played."))
    if table.status == Table.Status.ABORTED:
        raise TableError(_("This table was closed."))


def take_seat(table_id: int, user: AbstractBaseUser, index: int, contribution: str = "") -> bool:
    """Seat ``user`` at ``index``, leaving any other seat they had at this table; return
    whether anything changed (False: they sit there already). ``contribution``: their browser's
    share of the next match's seed."""
    contribution = checked_contribution(contribution)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_seating_allowed(table)
        seats = list(table.seats.all())
        if not 0 <= index < len(seats):
            raise TableError(_("There is no such seat."))
        target = seats[index]
        if target.user_id == user.pk:
            return False
        if not target.is_free:
            raise TableError(_("That seat is taken."))
        for seat in seats:
            if seat.user_id == user.pk:
                seat.user, seat.contribution = None, ""
                seat.save(update_fields=["user", "contribution"])
        target.user, target.contribution = user, contribution
        target.save(update_fields=["user", "contribution"])
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return True


def leave_seat(table_id: int, user: AbstractBaseUser) -> Table:
    """Free the seat ``user`` holds at this table (they stay as a spectator); at a quick table
    a computer player takes it back."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.quick:
            _leave_quick_table(table, user)
            return table
        _require_seating_allowed(table)
        if not Seat.objects.filter(table=table, user=user).update(user=None, contribution=""):
            raise TableError(_("You are not sitting at this table."))
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return table


def set_bot(table_id: int, user: AbstractBaseUser, index: int, level: str) -> Table:
    """The table's creator puts a computer player of ``level`` in a free seat, or, with an
    empty ``level``, takes one away."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's creator can seat computer players."))
        _require_seating_allowed(table)
        seat = table.seats.filter(index=index).first()
        if seat is None:
            raise TableError(_("There is no such seat."))
        if level:
            if level not in get_game(table.game).bots:
                raise TableError(_("There is no such computer player."))
            if seat.user_id is not None or seat.bot_level:
                raise TableError(_("That seat is taken."))
        elif not seat.bot_level:
            raise TableError(_("No computer player sits there."))
        elif table.quick:
            raise TableError(_("A quick table keeps a computer player in every seat nobody takes."))
        seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        table.rematch_votes = []
        bump(table, "rematch_votes")
    return table


def fill_with_bots(table_id: int, user: AbstractBaseUser, level: str) -> int:
    """The table's creator seats a computer player of ``level`` in every free seat; returns
    how many were seated."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's creator can seat computer players."))
        _require_seating_allowed(table)
        if level not in get_game(table.game).bots:
            raise TableError(_("There is no such computer player."))
        filled = table.seats.filter(user=None, bot_level="").update(bot_level=level)
        if filled:
            table.rematch_votes = []
            bump(table, "rematch_votes")
    return filled


# -- "Play now": quick tables -------------------------------------------------------------------

#: The turn timer of a quick table (seconds): its players may be strangers, who should not
#: wait long for someone who wandered off.
QUICK_TURN_SECONDS = 30


class PlayNow(NamedTuple):
    """Where "Play now" sent a player."""

    table: Table
    #: ``"back"``: they sat there already; ``"claimed"``: they take a computer player's seat
    #: at the next deal; ``"created"``: a new table, started at once.
    how: str


class ShownSecret(NamedTuple):
    """The secret of a player's next quick table, whose commitment their "Play now" page
    showed, and the contribution their browser sent with the click."""

    secret: str
    contribution: str


def default_options(game: str) -> dict[str, Any]:
    """The options a table of ``game`` gets when nobody chooses: its options form's initial
    values."""
    fields = get_game(game).options_form.base_fields
    return {name: field.initial for name, field in fields.items()}


def play_now(user: AbstractBaseUser, game: str, shown: ShownSecret | None = None) -> PlayNow:
    """Seat ``user`` at a quick table of ``game``: theirs if they sit at one already, else a
    computer player's seat at a running one (theirs from the next deal), else a new table
    with computer players in the other seats, started at once (its first match from
    ``shown``, when given)."""
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
            raise _too_many_tables()
        for table in joinable_quick_tables(game).exclude(seats__user=user)[:10]:
            try:
                claim_computer_seat(table.pk, user)
            except SeatGone:
                continue  # another player took the last one meanwhile, or the match ended
            return PlayNow(table, "claimed")
        return PlayNow(open_quick_table(user, game, shown), "created")


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
            raise _too_many_tables()
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
    from .play import _begin_match  # play builds on this module

    with transaction.atomic():
        table = create_table(
            user, game, default_options(game), is_private=False, turn_seconds=QUICK_TURN_SECONDS
        )
        table = lock_table(table.pk)
        table.quick = True
        if shown is not None:
            if not secret_spent(shown.secret):
                table.next_secret = shown.secret
            keep_contribution(table, user, shown.contribution)
        table.save(update_fields=["quick", "next_secret"])
        table.seats.filter(user=None).update(bot_level=get_game(game).cover_level)
        _begin_match(table)
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


def hand_over_claimed_seats(table: Table, match: Match, version: int) -> list[int]:
    """The humans who claimed computer players' seats at a quick table take them over: the
    ``match`` has just started a deal, at ``version``. The caller holds the table's lock.
    Returns the seats handed over."""
    if not table.quick:
        return []
    seats = list(table.seats.all())
    claims = waiting_claims(seats, match, match.players.all())
    if not claims:
        return []
    users = {seat.index: seat.user_id for seat in seats if seat.index in claims}
    here = _at_the_table(table, users.values())
    now = timezone.now()
    for index, player in claims.items():
        player.user_id, player.bot_level = users[index], ""
        player.covered, player.joined_version = False, version
        # Someone who closed the page meanwhile is away: a computer covers them after the
        # usual grace, as for anyone who leaves during a match.
        player.away_since = None if player.user_id in here else now
    MatchPlayer.objects.bulk_update(
        claims.values(), ["user", "bot_level", "covered", "joined_version", "away_since"]
    )
    bump(table)
    return sorted(claims)


def _at_the_table(table: Table, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a page of ``table`` open."""
    present = Presence.objects.live().filter(table=table, user_id__in=list(user_ids))
    return set(present.values_list("user_id", flat=True))


def quick_rematch_seats(table: Table, seats: list[Seat], votes: Iterable[int]) -> bool:
    """Whether a finished quick table's next match may start on ``votes``: every human who
    still has the table open asked for it. Those who left give their seats back to computer
    players then (done here when it may start; the caller holds the table's lock)."""
    humans = {seat.index: seat.user_id for seat in seats if seat.user_id is not None}
    here = _at_the_table(table, humans.values())
    staying = {index for index, user_id in humans.items() if user_id in here}
    if not staying or not staying <= set(votes):
        return False
    level = get_game(table.game).cover_level
    for seat in seats:
        if seat.index in humans and seat.index not in staying:
            seat.user, seat.bot_level, seat.contribution = None, level, ""
            seat.save(update_fields=["user", "bot_level", "contribution"])
    return True


def _leave_quick_table(table: Table, user: AbstractBaseUser) -> None:
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
        from .play import _begin_match  # play builds on this module

        _begin_match(table)  # the others had all asked for the next match
        return
    table.rematch_votes = votes
    bump(table, "rematch_votes")
