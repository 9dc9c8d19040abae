"""What an event shows of its play: the standings after each round (a barometer), the results
by pair and by deal once it is over, and its published log.

Only rounds every table finished count (:attr:`EventTable.revealed`): before that, nothing of a
round's deals, results or reviews shows to anyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .. import verify
from ..catalog import get_game
from ..engines import belote, chance, duplicate, fair_deals
from ..models import DealReview, Event, EventPair, EventTable, Match, Move
from ..presenters.belote import deal_summary

#: The version of an event's published log (``python -m games.verify`` reads it).
LOG_FORMAT = "cardroom-event-log"


def pair_name(pair: EventPair | None) -> str:
    """A pair as the results name it: both players, a computer partner, or computers."""
    if pair is None:
        return computers_name(None)
    if pair.partner is None:
        return _("%(name)s and a computer") % {"name": pair.player.get_username()}
    return pgettext("a pair of players", "%(first)s & %(second)s") % {
        "first": pair.player.get_username(),
        "second": pair.partner.get_username(),
    }


def computers_name(number: int | None) -> str:
    """A computer pair as the results name it: by its number in the event, when known."""
    if number is None:
        return _("Computers")
    return _("Computer pair %(n)d") % {"n": number}


def team_names(place: EventTable) -> tuple[str, str]:
    """The names of the pairs at an event table: in seats 1 and 3, then in seats 2 and 4."""
    return (
        pair_name(place.team_0) if place.team_0_id else computers_name(place.computers_0),
        pair_name(place.team_1) if place.team_1_id else computers_name(place.computers_1),
    )


@dataclass
class TableDeal:
    """One table's play of one deal."""

    table: EventTable
    match: Match
    number: int  # the deal's number in the round, from 1
    names: tuple[str, str]
    result: dict[str, object]  # the deal's line of the score sheet
    score: tuple[int, int]
    matchpoints: tuple[float, float] = (0.0, 0.0)
    par: dict[str, object] | None = None

    @property
    def summary(self) -> str:
        return deal_summary(self.result)


@dataclass
class Deal:
    """A deal of a round, as every table played it."""

    round: int
    number: int
    tables: list[TableDeal] = field(default_factory=list)


@dataclass
class Line:
    """A pair's line of the standings: a registered pair's, or a computer pair's (``pair``
    None, ``computers`` its number)."""

    pair: EventPair | None
    name: str
    computers: int | None = None
    matchpoints: float = 0.0
    top: float = 0.0  # the most it could have scored on the deals it played
    by_round: list[float] = field(default_factory=list)
    place: int = 0  # from 1; pairs on the same matchpoints share places, place to last_place
    last_place: int = 0

    @property
    def is_computers(self) -> bool:
        return self.pair is None

    @property
    def shared(self) -> bool:
        return self.last_place > self.place

    @property
    def percent(self) -> float:
        return round(100 * self.matchpoints / self.top, 1) if self.top else 0.0


class TableProgress(TypedDict):
    """A table of the current round: who plays whom, and how far they are."""

    number: int
    names: tuple[str, str]
    done: int
    finished: bool


def round_progress(event: Event) -> list[TableProgress]:
    """The current round's tables: who plays whom and how many deals each has finished (two
    queries)."""
    if event.status != Event.Status.RUNNING:
        return []
    places = list(
        EventTable.objects.filter(event=event, round=event.current_round)
        .select_related("team_0__player", "team_0__partner", "team_1__player", "team_1__partner")
        .order_by("number")
    )
    latest: dict[int, Match] = {}
    for match in Match.objects.filter(table_id__in=[p.table_id for p in places]).order_by("number"):
        latest[match.table_id] = match
    rows: list[TableProgress] = []
    for place in places:
        match = latest.get(place.table_id)
        done = len(belote.deal_results(belote.loads(match.state))) if match else 0
        rows.append(
            {
                "number": place.number + 1,
                "names": team_names(place),
                "done": done,
                "finished": match is not None and match.status != Match.Status.RUNNING,
            }
        )
    return rows


def seen(event: Event, progress: list[TableProgress]) -> str:
    """What the live part of a running event's page shows, in short: it is sent again only
    when this changes (the round, the deals played in it, the rounds revealed)."""
    revealed = EventTable.objects.filter(event=event, revealed=True).count()
    return f"{event.current_round}:{sum(row['done'] for row in progress)}:{revealed}"


def revealed_deals(event: Event, round_number: int | None = None) -> list[Deal]:
    """Every deal of the rounds every table has finished (of round ``round_number`` only,
    when given), with each table's result and matchpoints."""
    places = EventTable.objects.filter(event=event, revealed=True)
    if round_number is not None:
        places = places.filter(round=round_number)
    places = list(
        places.select_related(
            "team_0__player", "team_0__partner", "team_1__player", "team_1__partner"
        ).order_by("round", "number")
    )
    matches = {
        match.table_id: match
        for match in Match.objects.filter(table__in=[p.table_id for p in places]).exclude(
            status=Match.Status.RUNNING
        )
    }
    deals: list[Deal] = []
    for number in sorted({p.round for p in places}):
        in_round = [p for p in places if p.round == number and p.table_id in matches]
        sheets = {
            p.pk: belote.deal_results(belote.loads(matches[p.table_id].state)) for p in in_round
        }
        for index in range(event.deals_per_round):
            deal = Deal(number, index + 1)
            for place in in_round:
                sheet = sheets[place.pk]
                if index >= len(sheet):
                    continue  # an aborted table stopped before this deal
                deal.tables.append(
                    TableDeal(
                        place,
                        matches[place.table_id],
                        index + 1,
                        team_names(place),
                        dict(sheet[index]),
                        duplicate.deal_score(sheet[index]),
                    )
                )
            points = duplicate.deal_matchpoints({t.table.pk: t.score for t in deal.tables})
            for played in deal.tables:
                played.matchpoints = points[played.table.pk]
            deals.append(deal)
    return deals


def keep_points(event: Event, round_number: int) -> None:
    """Keep what each table of the revealed round scored over its deals (:attr:`EventTable.
    points`), so that the standings are added up without replaying anything."""
    totals: dict[int, list[float]] = {}
    for deal in revealed_deals(event, round_number):
        for played in deal.tables:
            total = totals.setdefault(played.table.pk, [0.0, 0.0, 0])
            total[0] += played.matchpoints[0]
            total[1] += played.matchpoints[1]
            total[2] += len(deal.tables) - 1
    places = list(EventTable.objects.filter(event=event, round=round_number, revealed=True))
    for place in places:
        first, second, top = totals.get(place.pk, [0.0, 0.0, 0])
        place.points = {"matchpoints": [first, second], "top": top}
    EventTable.objects.bulk_update(places, ["points"])


def shown_rounds(event: Event) -> list[int]:
    """The rounds every table has finished."""
    return sorted(
        set(EventTable.objects.filter(event=event, revealed=True).values_list("round", flat=True))
    )


def standings(event: Event) -> list[Line]:
    """Every pair by matchpoints over the revealed rounds, best first, the computer pairs that
    played the deals among them, pairs on the same matchpoints sharing their places: added up
    from the points kept per table (two queries)."""
    places = list(EventTable.objects.filter(event=event, revealed=True))
    unkept = sorted({place.round for place in places if place.points is None})
    for number in unkept:  # revealed before the points were kept
        keep_points(event, number)
    if unkept:
        places = list(EventTable.objects.filter(event=event, revealed=True))
    rounds = sorted({place.round for place in places})
    lines: dict[tuple[str, int | None], Line] = {
        ("pair", pair.pk): Line(pair, pair_name(pair), by_round=[0.0] * len(rounds))
        for pair in event.pairs.select_related("player", "partner")
    }
    for place in places:
        kept = place.points or {"matchpoints": [0.0, 0.0], "top": 0}
        teams = ((place.team_0_id, place.computers_0), (place.team_1_id, place.computers_1))
        for (pair_id, computers), points in zip(teams, kept["matchpoints"], strict=True):
            key = ("pair", pair_id) if pair_id is not None else ("computers", computers)
            if key not in lines:
                name = computers_name(computers)
                lines[key] = Line(None, name, computers, by_round=[0.0] * len(rounds))
            line = lines[key]
            line.matchpoints += points
            line.top += kept["top"]
            line.by_round[rounds.index(place.round)] += points
    ordered = sorted(lines.values(), key=lambda line: (-line.matchpoints, line.name))
    first = 1
    for _points, group in groupby(ordered, key=lambda line: line.matchpoints):
        tied = list(group)
        last = first + len(tied) - 1
        for line in tied:
            line.place, line.last_place = first, last
        first = last + 1
    return ordered


def add_par(deals: list[Deal]) -> None:
    """Each played deal's par, from its kept double-dummy review (one query; a review not kept
    yet is being worked out in the background, ``games.events.par``)."""
    played = [t for deal in deals for t in deal.tables if t.result["contract"] is not None]
    if not played:
        return
    version = get_game(played[0].match.game).review_version
    # Every table plays the round's deals in order: the deal's number is the match's.
    kept = {
        (review.match_id, review.deal): review.data
        for review in DealReview.objects.filter(
            match__in={t.match.pk for t in played}, version=version
        ).only("match_id", "deal", "data")
    }
    for table in played:
        review = kept.get((table.match.pk, table.number))
        table.par = review["par"] if review else None


def event_log(event: Event) -> dict[str, object]:
    """A finished event's log for anyone to check with ``python -m games.verify``: the secret
    with its commitment, the pairs' contributions, the seed, each round's deals and every
    table's match (its seed, deals, actions and result). Four queries, whatever its size."""
    if event.status != Event.Status.FINISHED:
        raise ValueError("only a finished event has a published log")
    pairs = list(event.pairs.exclude(number=None))
    places = list(
        EventTable.objects.filter(event=event)
        .select_related("team_0", "team_1")
        .order_by("round", "number")
    )
    latest: dict[int, Match] = {}
    for match in Match.objects.filter(table_id__in=[p.table_id for p in places]).order_by("number"):
        latest[match.table_id] = match
    moves: dict[int, list[tuple[int, str]]] = {match.pk: [] for match in latest.values()}
    for match_id, seat, action in (
        Move.objects.filter(match_id__in=list(moves)).order_by("match_id", "seq")
    ).values_list("match_id", "seat", "action"):
        moves[match_id].append((seat, action))
    rounds = []
    for number in range(1, event.rounds + 1):
        tables = []
        for place in (p for p in places if p.round == number):
            match = latest.get(place.table_id)
            if match is None:
                continue
            spec = get_game(match.game)
            state = spec.engine.loads(match.state)
            tables.append(
                {
                    "table": place.number + 1,
                    "match": match.pk,
                    "team_0": place.team_0.number if place.team_0 else None,
                    "team_1": place.team_1.number if place.team_1 else None,
                    # A side no pair sits at: the computer pair's number in the standings.
                    "computers_0": None if place.team_0 else place.computers_0,
                    "computers_1": None if place.team_1 else place.computers_1,
                    "options": spec.engine_options(match.options),
                    "seed": match.seed,
                    "deals": spec.drawn_deals(match.seed, match.options, state),
                    "actions": [[seat, action] for seat, action in moves[match.pk]],
                    "status": match.status,
                    "result": match.result if match.status == Match.Status.FINISHED else None,
                }
            )
        rounds.append(
            {
                "round": number,
                "deals": duplicate.event_deals(event.seed, number, event.deals_per_round),
                "tables": tables,
            }
        )
    return {
        "format": LOG_FORMAT,
        "version": verify.VERSION,
        "deal_algorithm": chance.ALGORITHM,
        "seed_algorithm": fair_deals.SEED_ALGORITHM,
        "event": event.pk,
        "game": "belote",
        "deals_per_round": event.deals_per_round,
        "commitment": event.commitment,
        "secret": event.secret,
        "contributions": [
            {"seat": pair.number, "value": pair.contribution} for pair in pairs if pair.contribution
        ],
        "seed": event.seed,
        "rounds": rounds,
    }
