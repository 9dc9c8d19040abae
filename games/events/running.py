"""An event from its scheduling to its end: pairs register, the event starts (at its time or
when an admin starts it), each round's tables play, the next round begins once every table of
the last one finished.

Every refusal raises :class:`EventError` with a message for the player and changes nothing.
The round's tables are ordinary private tables of the club whose matches share one seed
(``duplicate.round_seed``); nothing of a round shows before every table finished it
(:attr:`EventTable.revealed`). Once the last round is over, the deals' reviews are worked out
in the background (``par``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..catalog import get_game
from ..engines import duplicate, fair_deals
from ..models import Club, Event, EventPair, EventTable, Match, Presence, Seat, Table
from ..people import access, clubs, friends
from ..refusals import Refusal
from ..tables.extensions import Notice
from ..tables.matches import begin_match
from ..tables.quick import default_options
from . import par, results

#: The limits an admin may set.
MAX_ROUNDS = 12
MAX_DEALS_PER_ROUND = 8
MAX_PAIRS = 32
#: The requests to partner someone that a page lists.
LISTED = 50


class EventError(Refusal):
    """An event action that cannot be done; the message says why."""


@dataclass
class Started:
    """A round that began: who is told where to sit, and which tables' computers to wake."""

    event: Event
    round: int
    #: Per human player, the code of their table.
    seats: dict[int, str] = field(default_factory=dict)
    tables: list[int] = field(default_factory=list)
    finished: bool = False
    #: The human players told: the round's, or everyone registered when the event ended.
    players: list[int] = field(default_factory=list)


def create_event(
    club: Club,
    admin: AbstractBaseUser,
    name: str,
    rounds: int,
    deals_per_round: int,
    turn_seconds: int,
    starts_at: datetime | None,
    ask_to_announce: bool = True,
) -> Event:
    """Schedule an event (``starts_at`` None: an admin starts it; ``ask_to_announce``: its
    tables' Belote option, players choose which declarations to announce)."""
    if not clubs.is_admin(club, admin):
        raise EventError(_("Only the club's admins can do that."))
    if "belote" not in club.games:
        raise EventError(_("Duplicate events are played in Belote, which this club does not play."))
    name = name.strip()
    if not name:
        raise EventError(_("An event needs a name."))
    if not 1 <= rounds <= MAX_ROUNDS or not 1 <= deals_per_round <= MAX_DEALS_PER_ROUND:
        raise EventError(
            _("An event has 1 to %(rounds)d rounds of 1 to %(deals)d deals.")
            % {"rounds": MAX_ROUNDS, "deals": MAX_DEALS_PER_ROUND}
        )
    if starts_at is not None and starts_at <= timezone.now():
        raise EventError(_("The start time has passed: choose a later one, or start it now."))
    return Event.objects.create(
        club=club,
        name=name[:80],
        created_by=admin,
        rounds=rounds,
        deals_per_round=deals_per_round,
        turn_seconds=turn_seconds,
        starts_at=starts_at,
        ask_to_announce=ask_to_announce,
    )


def runs(event: Event, user: AbstractBaseUser) -> bool:
    """Whether ``user`` runs ``event`` (starts or cancels it): a club's admins; staff, a
    public cup."""
    if event.club_id is None:
        return user.is_authenticated and user.is_staff
    return clubs.is_admin(event.club, user)


def _not_yours(event: Event) -> str:
    if event.club_id is None:
        return _("Only staff can do that.")
    return _("Only the club's admins can do that.")


def pair_of(event: Event, user: AbstractBaseUser) -> EventPair | None:
    """The pair ``user`` plays in at ``event``, if any: one they registered (their partner's
    answer may still be waiting) or one whose request they accepted."""
    if not user.is_authenticated:
        return None
    return event.pairs.filter(Q(player=user) | Q(partner=user, waiting=False)).first()


def requests_for(user: AbstractBaseUser, event: Event | None = None) -> list[EventPair]:
    """The first :data:`LISTED` requests to partner someone waiting for ``user``'s answer (at
    ``event``, or at every event still open for registration), oldest first."""
    if not user.is_authenticated:
        return []
    asked = EventPair.objects.filter(
        partner=user, waiting=True, event__status=Event.Status.REGISTRATION
    )
    if event is not None:
        asked = asked.filter(event=event)
    return list(asked.select_related("player", "event").order_by("created_at", "pk")[:LISTED])


def _blocks(user: AbstractBaseUser, partner: AbstractBaseUser) -> None:
    """Refuse a partnership that either player blocks."""
    if friends.blocks(partner, user):
        raise EventError(
            _("%(name)s does not take partner requests from you.")
            % {"name": partner.get_username()}
        )
    if friends.blocks(user, partner):
        raise EventError(
            _("You block %(name)s: unblock them first to play together.")
            % {"name": partner.get_username()}
        )


def _may_play(event: Event, user: AbstractBaseUser) -> None:
    """Refuse a player who may not play in ``event``."""
    if not access.may_play_in(event, user):
        if event.club_id is None:
            raise EventError(_("Sign in to play in the cup."))
        raise EventError(_("Only the club's members can play in its events."))


def _full(event: Event) -> bool:
    return event.pairs.filter(waiting=False).count() >= MAX_PAIRS


def register(
    event: Event, user: AbstractBaseUser, partner_name: str, contribution: str = ""
) -> EventPair:
    """Register ``user`` with a partner, by username ("" : a computer partner), both who may
    play in the event (``access.may_play_in``); ``contribution``: the browser's share of the
    event's seed. A human partner is asked: the pair waits for their answer
    (:func:`answer_request`)."""
    if contribution and not fair_deals.is_contribution(contribution):
        raise EventError(
            _("Your browser's contribution to the deals was not 64 hexadecimal digits.")
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("Registration for this event is closed."))
        _may_play(event, user)
        partner = None
        if partner_name.strip():
            partner = (
                get_user_model()
                .objects.filter(username__iexact=partner_name.strip(), is_active=True)
                .first()
            )
            if partner is None or not access.may_partner(event, user, partner):
                name = {"name": partner_name.strip()}
                if event.club_id is None:
                    raise EventError(_("%(name)s cannot be your partner.") % name)
                raise EventError(_("%(name)s is not a member of this club.") % name)
            if partner.pk == user.pk:
                raise EventError(_("Your partner is someone else."))
            _blocks(user, partner)
        for player in (user, partner):
            if player is not None and pair_of(event, player) is not None:
                raise EventError(
                    _("%(name)s is registered already.") % {"name": player.get_username()}
                )
        if _full(event):
            raise EventError(_("This event is full."))
        return EventPair.objects.create(
            event=event,
            player=user,
            partner=partner,
            contribution=contribution,
            waiting=partner is not None,
        )


@dataclass
class Answer:
    """What a partner's answer did: in words for them, and the notices for the players."""

    said: str
    notices: list[Notice] = field(default_factory=list)


def answer_request(pair_id: int, user: AbstractBaseUser, accept: bool) -> Answer:
    """``user`` accepts or declines the request to partner a player at an event. Accepting
    registers the pair, and the other requests waiting for ``user`` there lapse; each player
    asking is told."""
    with transaction.atomic():
        pair = (
            EventPair.objects.select_related("player", "event")
            .filter(pk=pair_id, partner=user, waiting=True)
            .first()
        )
        if pair is None:
            raise EventError(_("That request is no longer waiting for your answer."))
        event = Event.objects.select_for_update().get(pk=pair.event_id)
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("Registration for this event is closed."))
        player = pair.player
        names = {"name": player.get_username(), "event": event.name}
        if not accept:
            pair.delete()
            return Answer(
                _("You declined to partner %(name)s in %(event)s.") % names,
                [Notice(player.pk, "event_partner_declined", event.pk)],
            )
        _may_play(event, user)
        _blocks(user, player)
        if pair_of(event, user) is not None:
            raise EventError(
                _("You are registered already: withdraw first to partner %(name)s.") % names
            )
        if _full(event):
            raise EventError(_("This event is full."))
        pair.waiting = False
        pair.save(update_fields=["waiting"])
        lapsed = EventPair.objects.filter(event=event, partner=user, waiting=True)
        others = list(lapsed.values_list("player_id", flat=True))
        lapsed.delete()
        return Answer(
            _("You and %(name)s are registered for %(event)s.") % names,
            [Notice(player.pk, "event_partner_accepted", pair.pk)]
            + [Notice(other, "event_partner_declined", event.pk) for other in others],
        )


def free_members(event: Event, user: AbstractBaseUser, limit: int) -> list[str]:
    """The first ``limit`` of the club's active members ``user`` may ask to partner them (not
    registered yet, and neither blocking the other), by name; at a public cup, of their friends
    (anyone else is typed)."""
    taken = {
        pk
        for pair in event.pairs.all()
        for pk in (pair.player_id, None if pair.waiting else pair.partner_id)
        if pk
    }
    apart = friends.blocked_either_way(user)
    if event.club_id is None:
        names = sorted(
            friend.get_username()
            for friend in friends.friends_of(user)
            if friend.pk not in taken | apart and friend.is_active
        )
        return names[:limit]
    return list(
        event.club.memberships.filter(status="active", user__is_active=True)
        .exclude(user_id__in=taken | apart | {user.pk})
        .order_by("user__username")
        .values_list("user__username", flat=True)[:limit]
    )


def withdraw(event: Event, user: AbstractBaseUser) -> None:
    """Take ``user``'s pair out of the event before it starts (or their request to a
    partner who has not answered yet)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("The event has started: pairs stay until its end."))
        pair = pair_of(event, user)
        if pair is None:
            raise EventError(_("You are not registered."))
        pair.delete()


def catch_up(event: Event) -> Started | None:
    """Begin the next round if every table of the current one has finished (a process that
    ended the last match may have stopped before it could)."""
    place = EventTable.objects.filter(event=event, round=event.current_round).first()
    return table_finished(place.table_id) if place is not None else None


def start(event: Event, admin: AbstractBaseUser | None) -> Started:
    """Start the event now: an admin asks (``admin``), or its time came (None)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if admin is not None and not runs(event, admin):
            raise EventError(_not_yours(event))
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("This event has started already."))
        # Requests their partners never answered lapse: those pairs do not play.
        event.pairs.filter(waiting=True).delete()
        pairs = list(event.pairs.order_by("created_at", "pk"))
        if len(pairs) < 2:
            raise EventError(_("An event needs at least two registered pairs to start."))
        for number, pair in enumerate(pairs):
            pair.number = number
        EventPair.objects.bulk_update(pairs, ["number"])
        contributions: list[fair_deals.Contribution] = [
            {"seat": pair.number, "value": pair.contribution} for pair in pairs if pair.contribution
        ]
        event.seed = fair_deals.derive_seed(event.secret, contributions)
        event.status = Event.Status.RUNNING
        event.save(update_fields=["seed", "status"])
        return _begin_round(event, 1, pairs)


def start_if_due(event: Event) -> Started | None:
    """Start the event if its start time has come (with too few pairs, it is cancelled)."""
    if (
        event.status != Event.Status.REGISTRATION
        or event.starts_at is None
        or event.starts_at > timezone.now()
    ):
        return None
    try:
        return start(event, None)
    except EventError:
        Event.objects.filter(pk=event.pk, status=Event.Status.REGISTRATION).update(
            status=Event.Status.CANCELLED
        )
        return None


def due_events() -> list[Event]:
    """Events whose start time has come and that have not started."""
    return list(
        Event.objects.filter(status=Event.Status.REGISTRATION, starts_at__lte=timezone.now())
    )


def _begin_round(event: Event, number: int, pairs: list[EventPair]) -> Started:
    """Open the tables of round ``number`` and start their matches, all from the round's seed."""
    by_number = {pair.number: pair for pair in pairs}
    spec = get_game("belote")
    options = default_options("belote") | {
        "deals": event.deals_per_round,
        "ask_to_announce": event.ask_to_announce,
    }
    seed = duplicate.round_seed(event.seed, number)
    started = Started(event, number)
    tables = duplicate.movement(len(pairs), event.rounds)[number - 1]
    for index, (first, second) in enumerate(tables):
        table = Table.objects.create(
            game="belote",
            options=options,
            owner=event.created_by,
            is_private=True,
            club=event.club,
            turn_seconds=event.turn_seconds,
        )
        team_0, team_1 = by_number.get(first), by_number.get(second)
        computers = [
            slot - len(pairs) + 1 if duplicate.is_computers(len(pairs), slot) else None
            for slot in (first, second)
        ]
        seats = []
        for team, pair in ((0, team_0), (1, team_1)):
            people = [pair.player, pair.partner] if pair is not None else [None, None]
            for offset, person in enumerate(people):
                seats.append(
                    Seat(
                        table=table,
                        index=team + 2 * offset,
                        user=person,
                        bot_level="" if person is not None else spec.cover_level,
                    )
                )
                if person is not None:
                    started.seats[person.pk] = table.code
                    started.players.append(person.pk)
        Seat.objects.bulk_create(sorted(seats, key=lambda seat: seat.index))
        EventTable.objects.create(
            event=event,
            round=number,
            number=index,
            table=table,
            team_0=team_0,
            team_1=team_1,
            computers_0=computers[0],
            computers_1=computers[1],
        )
        match = begin_match(table, shared_seed=seed)
        # Nobody has the new table open yet: each player is away until they open it, so a
        # computer covers a player who never comes once the usual grace has passed.
        match.players.exclude(user=None).update(away_since=timezone.now())
        started.tables.append(table.pk)
    event.current_round = number
    event.save(update_fields=["current_round"])
    return started


def table_finished(table_id: int) -> Started | None:
    """Call when a match at the table ended: if it was the last table of its event's round to
    finish, the round's results show and the next round begins, or the event ends. Returns
    what began, for the players to be told; None when nothing did."""
    place = EventTable.objects.filter(table_id=table_id).first()
    if place is None:
        return None
    round_tables = EventTable.objects.filter(event_id=place.event_id, round=place.round)
    playing = Match.objects.filter(table__event_table__in=round_tables, status=Match.Status.RUNNING)
    if playing.exists():
        return None  # looked again under the event's lock below, when it is worth it
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=place.event_id)
        if event.status != Event.Status.RUNNING or event.current_round != place.round:
            return None
        if playing.exists():
            return None
        round_tables.update(revealed=True)
        results.keep_points(event, place.round)
        pairs = list(event.pairs.select_related("player", "partner"))
        if place.round < event.rounds:
            return _begin_round(event, place.round + 1, pairs)
        people = [pk for pair in pairs for pk in (pair.player_id, pair.partner_id) if pk]
        event.status = Event.Status.FINISHED
        event.finished_at = timezone.now()
        event.save(update_fields=["status", "finished_at"])
        transaction.on_commit(partial(par.schedule, event.pk))
        return Started(event, place.round, finished=True, players=people)


def notices(started: Started) -> list[Notice]:
    """What tells the players that a round began (each where to sit, their pages waking the
    round's tables) or that the event is over."""
    kind = "event_over" if started.finished else "event_round"
    return [
        Notice(pk, kind, started.event.pk, started.seats.get(pk, ""), tuple(started.tables))
        for pk in started.players
    ]


def match_ended(table_id: int) -> list[Notice]:
    """:func:`table_finished` as the match's end is announced (``tables.extensions``): what
    began, as notices for the players."""
    started = table_finished(table_id)
    return notices(started) if started is not None else []


def my_table(event: Event, user: AbstractBaseUser) -> Table | None:
    """The table ``user`` plays at in the event's current round."""
    if not user.is_authenticated or event.status != Event.Status.RUNNING:
        return None
    place = (
        EventTable.objects.filter(event=event, round=event.current_round, table__seats__user=user)
        .select_related("table")
        .first()
    )
    return place.table if place else None


def tables_to_drive(table_id: int) -> list[int]:
    """The running tables of the same event round as ``table_id`` that nobody has open (only
    computers sit there, or its players are away): nothing else wakes their computers, so a
    player's connection does."""
    place = EventTable.objects.filter(table_id=table_id).first()
    if place is None:
        return []
    return list(
        Table.objects.filter(
            event_table__event_id=place.event_id,
            event_table__round=place.round,
            status=Table.Status.PLAYING,
        )
        .exclude(pk__in=Presence.objects.live().values("table_id"))
        .values_list("pk", flat=True)
    )


def close(event: Event, admin: AbstractBaseUser) -> None:
    """Cancel an event before it starts."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not runs(event, admin):
            raise EventError(_not_yours(event))
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("This event has started already."))
        event.status = Event.Status.CANCELLED
        event.save(update_fields=["status"])
