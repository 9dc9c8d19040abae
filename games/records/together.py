"""Two players' record with each other: the finished matches they both played, won and lost
side by side (as partners, in a game of teams) and against each other."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from ..catalog import get_game
from ..models import MatchPlayer, Outcome
from ..people import access

#: The matches together listed per player, newest first.
LATEST = 3


@dataclass
class Together:
    """The viewer's record with one other player, per game."""

    #: game (its name in the active language) -> [won, lost] on the same side.
    along: dict[str, list[int]] = field(default_factory=dict)
    #: game -> [won, lost] by the viewer against them.
    against: dict[str, list[int]] = field(default_factory=dict)
    #: The latest games they played together, newest first (match ids).
    matches: list[int] = field(default_factory=list)


def records_with(viewer: AbstractBaseUser, others: list[AbstractBaseUser]) -> dict[int, Together]:
    """``viewer``'s record with each of ``others`` (by user id; absent: no match together).
    Who played on whose side is the game's to say (:meth:`~games.catalog.Game.teams`).

    Two queries, added up by the database: however many matches either played, what comes
    back is a line per player, game, options and pair of seats, and each player's
    :data:`LATEST` matches."""
    if not others:
        return {}
    mine = (
        MatchPlayer.objects.filter(user=viewer)
        .exclude(outcome="")
        .filter(access.records_shown_to(viewer, "match__"))  # not a round still being played
    )
    seat = MatchPlayer.objects.filter(user=viewer, match=OuterRef("match"))
    theirs = MatchPlayer.objects.filter(user__in=others, match__in=mine.values("match")).annotate(
        my_outcome=Subquery(seat.values("outcome")[:1]),
        my_seat=Subquery(seat.values("seat")[:1]),
    )
    records: dict[int, Together] = {}
    lines = (
        theirs.values("user_id", "match__game", "match__options", "my_seat", "seat")
        .annotate(
            won=Count("pk", filter=Q(my_outcome=Outcome.WIN)),
            lost=Count("pk", filter=Q(my_outcome=Outcome.LOSS)),
        )
        .order_by("user_id", "match__game")
    )
    for line in lines:
        game = get_game(line["match__game"])
        along = any(
            line["my_seat"] in team and line["seat"] in team
            for team in game.teams(line["match__options"])
        )
        record = records.setdefault(line["user_id"], Together())
        tally = (record.along if along else record.against).setdefault(str(game.label), [0, 0])
        tally[0] += line["won"]
        tally[1] += line["lost"]
    latest = (
        theirs.annotate(
            newest=Window(RowNumber(), partition_by=[F("user_id")], order_by=F("match_id").desc())
        )
        .filter(newest__lte=LATEST)
        .order_by("user_id", "-match_id")
        .values_list("user_id", "match_id")
    )
    for user_id, match_id in latest:
        records[user_id].matches.append(match_id)
    return records
