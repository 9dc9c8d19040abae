"""Two players' record with each other: the finished matches they both played, won and lost
side by side (in Belote, as partners) and against each other."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser

from ..catalog import get_game
from ..models import MatchPlayer, Outcome


@dataclass
class Together:
    """The viewer's record with one other player, per game."""

    #: game (its name in the active language) -> [won, lost] on the same side.
    along: dict[str, list[int]] = field(default_factory=dict)
    #: game -> [won, lost] by the viewer against them.
    against: dict[str, list[int]] = field(default_factory=dict)
    #: The games they played together, newest first (match ids).
    matches: list[int] = field(default_factory=list)


def records_with(viewer: AbstractBaseUser, others: list[AbstractBaseUser]) -> dict[int, Together]:
    """``viewer``'s record with each of ``others`` (by user id; absent: no match together).
    Sides alternate by seat in both games."""
    if not others:
        return {}
    mine = {
        p.match_id: p
        for p in MatchPlayer.objects.filter(user=viewer)
        .exclude(outcome="")
        .exclude(match__table__event_table__revealed=False)  # a round still being played
    }
    theirs = (
        MatchPlayer.objects.filter(match_id__in=mine, user__in=others)
        .select_related("match")
        .order_by("-match_id")
    )
    records: dict[int, Together] = {}
    for player in theirs:
        me = mine[player.match_id]
        record = records.setdefault(player.user_id, Together())
        game = str(get_game(player.match.game).label)
        side = record.along if (me.seat - player.seat) % 2 == 0 else record.against
        counts = side.setdefault(game, [0, 0])
        if me.outcome == Outcome.WIN:
            counts[0] += 1
        elif me.outcome == Outcome.LOSS:
            counts[1] += 1
        record.matches.append(player.match_id)
    return records
