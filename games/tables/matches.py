"""A match's life around its moves: its start (by the table's creator, by a rematch, at a
quick table once everyone still there asked for it), the pause on a finished deal's result,
the turn clock that waits while its player reads the rules, and a player taking their seat
back from the computer covering it. The moves themselves are :mod:`games.tables.play`'s.

A match's seed comes from the table's committed secret and the players' contributions (see
``games.engines.fair_deals``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..catalog import Game, get_game
from ..engines import fair_deals
from ..engines.contract import GameState
from ..models import DailyEntry, EventTable, Match, MatchPlayer, Seat, Table
from ..people.online import at_table
from .rows import (
    TableError,
    bump,
    checked_contribution,
    keep_contribution,
    lock_table,
    lock_with_match,
)


class NoMatch(TableError):
    """The table has no running match (it ended, or was aborted, meanwhile)."""

    def __init__(self) -> None:
        super().__init__(_("No match is being played at this table."))


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


def start_match(table_id: int, user: AbstractBaseUser, contribution: str = "") -> Match:
    """The table's creator starts the first match once every seat is filled (later matches
    start through :func:`vote_rematch`); ``contribution``: their browser's share of its seed."""
    contribution = checked_contribution(contribution)
    with transaction.atomic():
        table = lock_table(table_id)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's creator can start the match."))
        if table.status == Table.Status.PLAYING:
            raise TableError(_("The match has already started."))
        if table.status == Table.Status.ABORTED:
            raise TableError(_("This table was closed."))
        if table.status == Table.Status.FINISHED:
            raise TableError(_("A new match starts when every player asks for a rematch."))
        keep_contribution(table, user, contribution)
        return begin_match(table)


class RematchVote(NamedTuple):
    """What a rematch vote did."""

    #: False when the player had asked already: nothing changed.
    changed: bool
    #: The new match, once every player asked.
    match: Match | None


def vote_rematch(table_id: int, user: AbstractBaseUser, contribution: str = "") -> RematchVote:
    """Ask for a rematch on the same seats; the new match starts when every player asked.
    ``contribution``: the player's browser's share of its seed."""
    contribution = checked_contribution(contribution)
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.FINISHED:
            raise TableError(_("A rematch can only follow a finished match."))
        if EventTable.objects.filter(table=table).exists():
            raise TableError(_("An event's table plays one match: the next round has its own."))
        if DailyEntry.objects.filter(table=table).exists():
            raise TableError(_("A daily Belote is played once: tomorrow's has new deals."))
        seats = list(table.seats.all())
        mine = [seat.index for seat in seats if seat.user_id == user.pk]
        if not mine:
            raise TableError(_("Only the players can ask for a rematch."))
        keep_contribution(table, user, contribution)
        votes = sorted(set(table.rematch_votes) | set(mine))
        humans = {seat.index for seat in seats if seat.user_id is not None}
        if table.quick:
            # Strangers who left a quick table do not hold up its next match.
            if quick_rematch_seats(table, seats, votes):
                return RematchVote(True, begin_match(table))
        elif humans <= set(votes):
            return RematchVote(True, begin_match(table))
        if set(votes) == set(table.rematch_votes):
            return RematchVote(False, None)
        table.rematch_votes = votes
        bump(table, "rematch_votes")
        return RematchVote(True, None)


def quick_rematch_seats(table: Table, seats: list[Seat], votes: Iterable[int]) -> bool:
    """Whether a finished quick table's next match may start on ``votes``: every human who
    still has the table open asked for it. Those who left give their seats back to computer
    players then (done here when it may start; the caller holds the table's lock)."""
    humans = {seat.index: seat.user_id for seat in seats if seat.user_id is not None}
    here = at_table(table, humans.values())
    staying = {index for index, user_id in humans.items() if user_id in here}
    if not staying or not staying <= set(votes):
        return False
    level = get_game(table.game).cover_level
    for seat in seats:
        if seat.index in humans and seat.index not in staying:
            seat.user, seat.bot_level, seat.contribution = None, level, ""
            seat.save(update_fields=["user", "bot_level", "contribution"])
    return True


def start_quick_rematch(table_id: int) -> Match | None:
    """Start a finished quick table's next match if everyone still at it has asked for it
    (call when someone left it: the others may have been waiting only for them)."""
    with transaction.atomic():
        table = lock_table(table_id)
        if not table.quick or table.status != Table.Status.FINISHED:
            return None
        if quick_rematch_seats(table, list(table.seats.all()), table.rematch_votes):
            return begin_match(table)
        return None


def take_over(table_id: int, user: AbstractBaseUser) -> bool:
    """A player takes their seat back from the computer player covering it."""
    with transaction.atomic():
        table, match = lock_with_match(table_id)
        if match is None or match.status != Match.Status.RUNNING:
            raise NoMatch
        if not match.players.filter(user=user, covered=True).update(covered=False):
            raise TableError(_("Nobody is playing for you."))
        bump(table)
        return True


#: The longest a turn's clock waits while its player reads the rules, however often they open them.
READING_PAUSE = timedelta(minutes=2)
#: What a new turn starts with: a running clock that may wait all of READING_PAUSE.
NEW_TURN_CLOCK: dict[str, object] = {"reading_since": None, "reading_waited": timedelta(0)}


def clock_waited(match: Match) -> bool:
    """Whether the current turn's clock waits, or waited, for its player reading the rules."""
    return match.reading_since is not None or bool(match.reading_waited)


def reading_left(match: Match) -> timedelta:
    """How much longer the current turn's clock may wait for its player reading the rules,
    counting every time they had the rules open this turn."""
    return max(READING_PAUSE - match.reading_waited, timedelta(0))


def read_rules(table_code: str, user: AbstractBaseUser, reading: bool) -> int | None:
    """Stop the turn clock while the player on turn has the rules of the table's game open
    (``reading``), or run it again; the clock waits READING_PAUSE at most a turn, however
    often the rules are opened. Returns the table's id if anything changed."""
    with transaction.atomic():
        table = Table.objects.filter(code=table_code).first()
        if table is None or not table.turn_seconds:
            return None
        table, match = lock_with_match(table.pk)
        if match is None or match.status != Match.Status.RUNNING or pause_active(match):
            return None
        if (match.reading_since is None) != reading or match.turn_started_at is None:
            return None
        now = timezone.now()
        if reading and (
            not reading_left(match)
            or match.turn_started_at + timedelta(seconds=table.turn_seconds) <= now
        ):
            return None  # the turn's wait is used up, or its time ran out
        to_act = get_game(match.game).engine.loads(match.state).to_act
        if not match.players.filter(user=user, seat=to_act, covered=False).exists():
            return None
        fields: dict[str, object] = {"reading_since": now if reading else None}
        if not reading:
            waited = min(now - match.reading_since, reading_left(match))
            fields["turn_started_at"] = match.turn_started_at + waited
            fields["reading_waited"] = match.reading_waited + waited
        if not Match.objects.filter(pk=match.pk, version=match.version).update(**fields):
            return None
        bump(table)
        return table.pk


def pause_active(match: Match) -> bool:
    """Whether a finished deal's result is showing and the next deal waits for it."""
    return match.paused_until is not None and match.paused_until > timezone.now()


def pause_after(
    spec: Game, match: Match, players: list[MatchPlayer], state: GameState
) -> datetime | None:
    """Until when the deal that ``state`` just finished shows, if it was played and humans
    play."""
    seconds = spec.deal_pause_seconds(match.options)
    if not seconds or not spec.last_deal_played(state):
        return None
    if all(player.user_id is None for player in players):
        return None
    return timezone.now() + timedelta(seconds=seconds)


def waiting_for_next_deal(match: Match, players: list[MatchPlayer]) -> list[MatchPlayer]:
    """The humans at the table who have not asked for the next deal yet (absent and covered
    ones are not waited for)."""
    return [
        player
        for player in players
        if player.user_id is not None
        and not player.covered
        and player.away_since is None
        and player.seat not in match.ready_seats
    ]


def ready_for_next_deal(table_id: int, user: AbstractBaseUser) -> bool:
    """The player has seen the deal's result; the next deal starts once every human has.
    Returns whether anything changed (False: they had asked already)."""
    with transaction.atomic():
        table, match = lock_with_match(table_id)
        if match is None or match.status != Match.Status.RUNNING or not pause_active(match):
            raise TableError(_("The next deal has already started."))
        players = list(match.players.all())
        mine = [player.seat for player in players if player.user_id == user.pk]
        if not mine:
            raise TableError(_("You are not playing in this match."))
        ready = sorted(set(match.ready_seats) | set(mine))
        if ready == match.ready_seats:
            return False
        match.ready_seats = ready
        fields: dict[str, object] = {"ready_seats": ready}
        if not waiting_for_next_deal(match, players):
            now = timezone.now()
            fields.update(paused_until=None, turn_started_at=now, moved_at=now)
            fields.update(NEW_TURN_CLOCK)
        if not Match.objects.filter(pk=match.pk, version=match.version).update(**fields):
            return False
        bump(table)
        return True


def end_pause(table_id: int, version: int) -> bool:
    """Start the next deal once its pause ran out (the automatic-move driver calls this);
    returns whether it was still paused at ``version``."""
    with transaction.atomic():
        table = lock_table(table_id)
        ended = Match.objects.filter(
            table_id=table_id,
            version=version,
            status=Match.Status.RUNNING,
            paused_until__lte=timezone.now(),
        ).update(
            paused_until=None,
            turn_started_at=timezone.now(),
            moved_at=timezone.now(),
            **NEW_TURN_CLOCK,
        )
        if ended:
            bump(table)
        return bool(ended)
