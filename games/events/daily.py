"""The daily Belote: a set of deals a day (``DAILY_DEALS``, from each midnight of
``DAILY_TIME_ZONE`` to the next) that every signed-in player may play once, in seat 1 with a
computer partner against two computers, at their own pace; each deal scored on its own as at a
duplicate event (``games.engines.duplicate``) and compared with every other player's result
on it: 1 matchpoint per player outscored, ½ per tie, as a percentage.

- The day's set is made on first asking (a page, or ``manage.py start_due_events``): one row
  per day, so two processes asking at once get the same set.
- Its deals come from a secret committed to from the start (its SHA-256 shows on the daily's
  page); every player's match plays ``duplicate.round_seed(seed, 1)``, so the day's log is an
  event log of one round (``python -m games.verify`` checks it).
- A set's results count when its last deal ends (:func:`match_ended`) or, unfinished, when the
  day closes (:func:`close_due`). Counting one adds to :class:`DailyTally` (how many players had
  each result on each deal): the same few writes whoever played before. The standings are
  worked out from those counts and the sets' scores, once per new count and process.
- Who may see what before the day closes is ``games.people.access``'s: nothing of the deals
  reaches a player before they finished their set.
"""

from __future__ import annotations

import secrets
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import partial
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import background, verify
from ..catalog import get_game
from ..engines import belote, chance, duplicate, fair_deals
from ..models import Daily, DailyEntry, DailyTally, DealReview, Match, Move, Seat, Table
from ..presenters.belote import deal_summary
from ..records import reviews
from ..refusals import Refusal
from ..tables.extensions import Notice
from ..tables.matches import begin_match
from ..tables.quick import default_options
from ..tables.rows import abort_table

#: Players per page of the standings.
PER_PAGE = 50
#: How long a claim on a set's reviews outlives its holder's last review.
CLAIM_SECONDS = 120


class DailyError(Refusal):
    """A daily action that cannot be done; the message says why."""


def zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def day_of(moment: datetime | None = None) -> date:
    """The daily's day at ``moment`` (now): the date in the daily's time zone."""
    return (moment or timezone.now()).astimezone(zone()).date()


def bounds(day: date) -> tuple[datetime, datetime]:
    """When ``day``'s set opens and closes: its midnight and the next, in the daily's zone."""
    here = zone()
    opens = datetime.combine(day, time(0), tzinfo=here)
    closes = datetime.combine(day + timedelta(days=1), time(0), tzinfo=here)
    return opens, closes


def daily_of(day: date) -> Daily:
    """The set of ``day``, made on first asking (by whichever process asks first)."""
    found = Daily.objects.filter(day=day).first()
    if found is not None:
        return found
    opens, closes = bounds(day)
    secret = fair_deals.new_secret()
    try:
        with transaction.atomic():
            return Daily.objects.create(
                day=day,
                deals=settings.DAILY_DEALS,
                secret=secret,
                seed=fair_deals.derive_seed(secret, []),
                opens_at=opens,
                closes_at=closes,
            )
    except IntegrityError:  # another process made it meanwhile
        return Daily.objects.get(day=day)


def today() -> Daily:
    """Today's set (made if it is not yet)."""
    return daily_of(day_of())


def is_open(daily: Daily, now: datetime | None = None) -> bool:
    return daily.opens_at <= (now or timezone.now()) < daily.closes_at


def match_seed(daily: Daily) -> str:
    """The seed every player's match of the day plays: the day's one round."""
    return duplicate.round_seed(daily.seed, 1)


def entry_of(daily: Daily, user: AbstractBaseUser) -> DailyEntry | None:
    if not user.is_authenticated:
        return None
    return DailyEntry.objects.filter(daily=daily, user_id=user.pk).select_related("table").first()


def start(daily: Daily, user: AbstractBaseUser) -> DailyEntry:
    """Seat ``user`` at their table of the day: a new one the first time (their match begins
    at once), the same one afterwards, from any device."""
    if not user.is_authenticated or not user.is_active:
        raise DailyError(_("Sign in to play the daily Belote."))
    entry = entry_of(daily, user)
    if entry is not None:
        return entry
    if not is_open(daily):
        raise DailyError(_("This daily Belote is closed: today's is open."))
    spec = get_game("belote")
    try:
        with transaction.atomic():
            table = Table.objects.create(
                game="belote",
                options=default_options("belote") | {"deals": daily.deals},
                owner=user,
                is_private=True,
                turn_seconds=0,
            )
            Seat.objects.bulk_create(
                Seat(
                    table=table,
                    index=index,
                    user=user if index == 0 else None,
                    bot_level="" if index == 0 else spec.cover_level,
                )
                for index in range(4)
            )
            entry = DailyEntry.objects.create(daily=daily, user=user, table=table)
            begin_match(table, shared_seed=match_seed(daily))
            Daily.objects.filter(pk=daily.pk).update(players=F("players") + 1)
    except IntegrityError:  # the same player's other click made it meanwhile
        entry = entry_of(daily, user)
        if entry is None:
            raise
    return entry


def set_match(entry: DailyEntry) -> Match | None:
    """The match of the player's set: their table's first (a daily table plays no other)."""
    if entry.table_id is None:
        return None
    return Match.objects.filter(table_id=entry.table_id).order_by("number").first()


def deals_done(entry: DailyEntry, match: Match | None = None) -> int:
    """How many deals of the set the player has played (one query, or none given the match)."""
    if entry.recorded_at is not None:
        return entry.deals_played
    match = match or set_match(entry)
    if match is None:
        return 0
    return len(belote.deal_results(belote.loads(match.state)))


def _tally_key(line: belote.DealResult, number: int) -> dict[str, object]:
    us, them = duplicate.deal_score(line)
    return {
        "deal": number,
        "contract": line["contract"] or "",
        "declarer": -1 if line["declarer"] is None else line["declarer"],
        "multiplier": line["multiplier"] if line["contract"] else 1,
        "outcome": line["outcome"],
        "written_us": us,
        "written_them": them,
    }


def _count(daily: Daily, key: dict[str, object]) -> None:
    """Add one player to the deal's result ``key`` (made on its first player)."""
    rows = DailyTally.objects.filter(daily=daily, **key)
    if rows.update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            DailyTally.objects.create(daily=daily, count=1, **key)
    except IntegrityError:  # another player's first of the same result, meanwhile
        rows.update(count=F("count") + 1)


def record(entry_id: int) -> bool:
    """Count the set's results: every deal its match finished (all of them once it ended, the
    ones played when the day closed on it). Once only; False when there was nothing to do."""
    with transaction.atomic():
        entry = (
            DailyEntry.objects.select_for_update(of=("self",))
            .select_related("daily")
            .filter(pk=entry_id, recorded_at=None)
            .first()
        )
        if entry is None:
            return False
        daily = entry.daily
        match = set_match(entry)
        sheet = belote.deal_results(belote.loads(match.state))[: daily.deals] if match else []
        finished = match is not None and match.status == Match.Status.FINISHED
        if not finished and not daily.closed and timezone.now() < daily.closes_at:
            return False  # still being played
        for number, line in enumerate(sheet, start=1):
            _count(daily, _tally_key(line, number))
        now = timezone.now()
        entry.scores = ",".join(str(a - b) for a, b in map(duplicate.deal_score, sheet))
        entry.deals_played = len(sheet)
        entry.recorded_at = now
        if finished:
            entry.finished_at = match.finished_at or now
        entry.save(update_fields=["scores", "deals_played", "recorded_at", "finished_at"])
        if sheet:
            Daily.objects.filter(pk=daily.pk).update(recorded=F("recorded") + 1)
        if finished:
            transaction.on_commit(partial(schedule_reviews, entry.pk))
    return True


def match_ended(table_id: int) -> list[Notice]:
    """A daily set's last deal ended (``tables.extensions``): count its results."""
    entry = DailyEntry.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    if entry is not None:
        record(entry)
    return []


def catch_up(entry: DailyEntry | None) -> DailyEntry | None:
    """The entry, counted if its match ended and a process stopped before counting it (its
    day then read again: the standings' version moved on)."""
    if entry is None or entry.recorded_at is not None:
        return entry
    match = set_match(entry)
    if match is not None and match.status == Match.Status.FINISHED and record(entry.pk):
        entry.refresh_from_db()
        entry.daily.refresh_from_db()
    return entry


# --------------------------------------------------------------------------------------------
# The close


def due() -> list[Daily]:
    """Sets whose day is over and whose close is not processed yet."""
    return list(Daily.objects.filter(closed=False, closes_at__lte=timezone.now()))


def close(daily: Daily) -> list[int]:
    """Process the close of an over day: stop the sets still being played (their deals
    played so far count), keep every player's final percentage and place. Idempotent; returns
    the tables stopped (their players are told by the caller)."""
    if timezone.now() < daily.closes_at:
        raise ValueError("the day is not over")
    with transaction.atomic():
        locked = Daily.objects.select_for_update().get(pk=daily.pk)
        if locked.closed:
            return []
        Daily.objects.filter(pk=daily.pk).update(closed=True)
    stopped = []
    unfinished = DailyEntry.objects.filter(daily=daily, recorded_at=None)
    for entry_id, table_id in unfinished.values_list("pk", "table_id"):
        if (
            table_id is not None
            and Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).exists()
        ):
            abort_table(table_id)
            stopped.append(table_id)
        record(entry_id)
    daily.refresh_from_db()
    board = standings(daily)
    places = []
    for line in board.lines:
        places.append(DailyEntry(pk=line.entry_id, percent=line.percent, rank=line.rank))
    DailyEntry.objects.bulk_update(places, ["percent", "rank"], batch_size=1000)
    return stopped


def open_and_close() -> tuple[Daily, list[int]]:
    """What ``start_due_events`` does for the daily: today's set made, the over days closed
    (the tables it stopped)."""
    stopped = [table for daily in due() for table in close(daily)]
    return today(), stopped


# --------------------------------------------------------------------------------------------
# Standings


@dataclass(frozen=True)
class Line:
    """A player's line of the day's standings."""

    rank: int
    entry_id: int
    user_id: int
    percent: float | None  # None: nobody else played their deals yet
    deals: int


@dataclass
class Board:
    """The day's standings, best first, for one count of results (``Daily.recorded``)."""

    version: int
    lines: list[Line] = field(default_factory=list)
    by_user: dict[int, int] = field(default_factory=dict)  # user id -> index in lines

    def lines_of(self, user_ids: set[int]) -> list[Line]:
        """The lines of ``user_ids`` (those who have one), in the standings' order."""
        places = sorted(self.by_user[u] for u in user_ids if u in self.by_user)
        return [self.lines[index] for index in places]

    def line_of(self, user_id: int) -> Line | None:
        index = self.by_user.get(user_id)
        return None if index is None else self.lines[index]

    @property
    def players(self) -> int:
        return len(self.lines)


def _points_by_score(daily: Daily) -> dict[int, tuple[int, dict[int, float]]]:
    """Per deal: how many players it was played by, and the matchpoints each score earns
    (1 per other player outscored, ½ per other player with the same score)."""
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for deal, us, them, count in DailyTally.objects.filter(daily=daily).values_list(
        "deal", "written_us", "written_them", "count"
    ):
        counts[deal][us - them] += count
    out = {}
    for deal, by_score in counts.items():
        below = 0
        points = {}
        for score in sorted(by_score):
            same = by_score[score]
            points[score] = below + (same - 1) / 2
            below += same
        out[deal] = (below, points)
    return out


_boards: dict[int, Board] = {}
_boards_lock = threading.Lock()


def standings(daily: Daily) -> Board:
    """The day's standings as its counted results stand: worked out once per new count in
    each process (two queries), then kept."""
    kept = _boards.get(daily.pk)
    if kept is not None and kept.version == daily.recorded:
        return kept
    points = _points_by_score(daily)
    rows = (
        DailyEntry.objects.filter(daily=daily, recorded_at__isnull=False)
        .exclude(scores="")
        .values_list("pk", "user_id", "scores")
    )
    scored = []
    for entry_id, user_id, text in rows.iterator(chunk_size=5000):
        total = top = 0.0
        scores = text.split(",")
        for number, score in enumerate(scores, start=1):
            players, earned = points.get(number, (1, {}))
            total += earned.get(int(score), 0.0)
            top += players - 1
        percent = round(100 * total / top, 2) if top else None
        scored.append((percent, len(scores), entry_id, user_id))
    scored.sort(key=lambda row: (row[0] is None, -(row[0] or 0), -row[1], row[3]))
    board = Board(daily.recorded)
    rank = 0
    previous = None
    for index, (percent, deals, entry_id, user_id) in enumerate(scored):
        if (percent, deals) != previous:
            rank, previous = index + 1, (percent, deals)
        board.lines.append(Line(rank, entry_id, user_id, percent, deals))
        board.by_user[user_id] = index
    with _boards_lock:
        current = _boards.get(daily.pk)
        if current is None or current.version <= board.version:
            _boards[daily.pk] = board
    return board


# --------------------------------------------------------------------------------------------
# The deals and their travellers


@dataclass
class TravellerLine:
    """One result on a deal and how many players had it."""

    contract: str
    declarer: int | None
    multiplier: int
    outcome: str
    written: tuple[int, int]
    score: int
    count: int
    matchpoints: float
    percent: float | None
    mine: bool = False

    @property
    def result(self) -> dict[str, object]:
        """The line as a score sheet's (what ``presenters.belote.deal_summary`` words)."""
        return {
            "contract": self.contract or None,
            "declarer": self.declarer,
            "multiplier": self.multiplier,
            "outcome": self.outcome,
        }

    @property
    def summary(self) -> str:
        return deal_summary(self.result)


def traveller(
    daily: Daily, number: int, mine: tuple[object, ...] | None = None
) -> list[TravellerLine]:
    """Every result on deal ``number``, best for the players first (one query); ``mine``: the
    viewer's own result's key, marked."""
    rows = list(
        DailyTally.objects.filter(daily=daily, deal=number).values_list(
            "contract", "declarer", "multiplier", "outcome", "written_us", "written_them", "count"
        )
    )
    by_score: dict[int, int] = defaultdict(int)
    for *_rest, us, them, count in rows:
        by_score[us - them] += count
    players = sum(by_score.values())
    below: dict[int, int] = {}
    seen = 0
    for score in sorted(by_score):
        below[score] = seen
        seen += by_score[score]
    lines = []
    for contract, declarer, multiplier, outcome, us, them, count in rows:
        score = us - them
        points = below[score] + (by_score[score] - 1) / 2
        key = (contract, declarer, multiplier, outcome, us, them)
        lines.append(
            TravellerLine(
                contract,
                None if declarer < 0 else declarer,
                multiplier,
                outcome,
                (us, them),
                score,
                count,
                points,
                round(100 * points / (players - 1), 1) if players > 1 else None,
                mine == key,
            )
        )
    lines.sort(key=lambda line: (-line.score, -line.count, line.contract))
    return lines


def key_of(line: belote.DealResult) -> tuple[object, ...]:
    """A score sheet's line as its traveller line's key."""
    key = _tally_key(line, 0)
    return tuple(key[name] for name in list(key)[1:])


@dataclass
class PlayedDeal:
    """A deal of the viewer's set: their result, its par and the link to its review."""

    number: int
    result: dict[str, object]
    written: tuple[int, int]
    match_id: int
    par: dict[str, object] | None = None

    @property
    def summary(self) -> str:
        return deal_summary(self.result)


def my_deals(entry: DailyEntry) -> list[PlayedDeal]:
    """The deals the viewer's set played, each with its par once its review is kept (two
    queries)."""
    match = set_match(entry)
    if match is None:
        return []
    sheet = belote.deal_results(belote.loads(match.state))[: entry.daily.deals]
    # Only each review's par is read: a whole review is far larger.
    pars = dict(
        DealReview.objects.filter(
            match=match, version=get_game("belote").review_version
        ).values_list("deal", "data__par")
    )
    return [
        PlayedDeal(number, dict(line), duplicate.deal_score(line), match.pk, pars.get(number))
        for number, line in enumerate(sheet, start=1)
    ]


def schedule_reviews(entry_id: int) -> None:
    """Have the finished set's deal reviews worked out in the background (the par the
    daily's page shows)."""
    background.run_later(("daily-reviews", entry_id), partial(work_out_reviews, entry_id))


def work_out_reviews(entry_id: int) -> None:
    """Claim the set (a cache key every process shares) and work its missing reviews out."""
    entry = DailyEntry.objects.filter(pk=entry_id).first()
    match = set_match(entry) if entry is not None else None
    if match is None or match.status == Match.Status.RUNNING:
        return
    key, token = f"daily-reviews:{entry_id}", secrets.token_hex(8)
    if not cache.add(key, token, timeout=CLAIM_SECONDS):
        return
    spec = get_game(match.game)
    for number in spec.reviewable_deals(spec.engine.loads(match.state)):
        if cache.get(key) != token:
            return
        cache.touch(key, CLAIM_SECONDS)
        reviews.deal_review(match, number)
    if cache.get(key) == token:
        cache.delete(key)


# --------------------------------------------------------------------------------------------
# A player's dailies


@dataclass
class Summary:
    """What the home page says of today's daily to a player."""

    daily: Daily
    entry: DailyEntry | None
    line: Line | None
    counted: int


def summary(user: AbstractBaseUser) -> Summary:
    """Today's daily for the home page: how many played, and the player's place once counted."""
    daily = today()
    entry = entry_of(daily, user)
    if entry is not None:
        entry.daily = daily
    entry = catch_up(entry)
    board = standings(daily) if entry is not None and entry.recorded_at is not None else None
    line = board.line_of(user.pk) if board is not None else None
    return Summary(daily, entry, line, daily.recorded)


def streak_of(days: list[date], on: date) -> int:
    """Days in a row among ``days`` (latest first) up to ``on``, or up to the day before while
    ``on`` is not among them (today's set may still be played)."""
    if not days:
        return 0
    expected = on if days[0] == on else on - timedelta(days=1)
    count = 0
    for day in days:
        if day > on:
            continue
        if day != expected:
            break
        count += 1
        expected -= timedelta(days=1)
    return count


@dataclass
class PastDaily:
    """A daily on a player's profile."""

    daily: Daily
    entry: DailyEntry
    percent: float | None
    rank: int | None
    players: int


#: Days a profile reads back, for the streak.
STREAK_DAYS = 400


def dailies_of(user: AbstractBaseUser, limit: int = 10) -> tuple[list[PastDaily], int]:
    """``user``'s latest counted dailies with their percentage and place (kept at the close;
    today's from the standings as they stand), and their streak: one query, and today's
    standings when they are not kept in this process yet."""
    entries = list(
        DailyEntry.objects.filter(user_id=user.pk)
        .select_related("daily")
        .order_by("-daily__day")[:STREAK_DAYS]
    )
    days = [entry.daily.day for entry in entries]
    out = []
    for entry in [entry for entry in entries if entry.recorded_at is not None][:limit]:
        daily = entry.daily
        if entry.rank is not None:
            out.append(PastDaily(daily, entry, entry.percent, entry.rank, daily.recorded))
            continue
        board = standings(daily)
        line = board.line_of(user.pk)
        out.append(
            PastDaily(
                daily,
                entry,
                line.percent if line else None,
                line.rank if line else None,
                board.players,
            )
        )
    return out, streak_of(days, day_of())


# --------------------------------------------------------------------------------------------
# The log


def daily_log(daily: Daily) -> dict[str, object]:
    """An over day's log for anyone to check with ``python -m games.verify``: an event log of
    one round, each player's match a table of it (four queries)."""
    if not daily.closed:
        raise ValueError("a day's log is published once it closed")
    entries = list(
        DailyEntry.objects.filter(daily=daily).exclude(table=None).order_by("started_at", "pk")
    )
    latest = {
        match.table_id: match
        for match in Match.objects.filter(table_id__in=[e.table_id for e in entries]).order_by(
            "-number"
        )
    }
    moves: dict[int, list[list[object]]] = {match.pk: [] for match in latest.values()}
    for match_id, seat, action in (
        Move.objects.filter(match_id__in=list(moves)).order_by("match_id", "seq")
    ).values_list("match_id", "seat", "action"):
        moves[match_id].append([seat, action])
    spec = get_game("belote")
    tables = []
    for number, entry in enumerate(entries, start=1):
        match = latest.get(entry.table_id)
        if match is None:
            continue
        state = spec.engine.loads(match.state)
        tables.append(
            {
                "table": number,
                "match": match.pk,
                "options": spec.engine_options(match.options),
                "seed": match.seed,
                "deals": spec.drawn_deals(match.seed, match.options, state),
                "actions": moves[match.pk],
                "status": match.status,
                "result": match.result if match.status == Match.Status.FINISHED else None,
            }
        )
    return {
        "format": verify.EVENT_FORMAT,
        "version": verify.VERSION,
        "deal_algorithm": chance.ALGORITHM,
        "seed_algorithm": fair_deals.SEED_ALGORITHM,
        "daily": daily.day.isoformat(),
        "game": "belote",
        "deals_per_round": daily.deals,
        "commitment": daily.commitment,
        "secret": daily.secret,
        "contributions": [],
        "seed": daily.seed,
        "rounds": [
            {
                "round": 1,
                "deals": duplicate.event_deals(daily.seed, 1, daily.deals),
                "tables": tables,
            }
        ],
    }
