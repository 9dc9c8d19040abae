"""The benchmark behind ``python manage.py bench daily``: the daily Belote's standings page and
a deal's traveller with many players' finished sets.

It makes today's daily with ``players`` finished sets (each deal's results drawn from a spread
of contracts and scores, the counts kept as a finish keeps them), one more player who really
played the set (the viewer, with friends among the others), then times the pages the viewer
opens, through Django's handler in this process: the standings (first page, a middle page, the
friends view) and each deal's traveller. The first view after a new finish works the standings
out again; that is timed apart (``recount``). Each view's wall-clock time and this process's
CPU time are both counted: on a busy machine the wall clock measures the machine, the CPU time
(the database's too, with SQLite in this process) what the view costs.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from friendship.models import Friend

from games.engines import belote
from games.events import daily
from games.models import Daily, DailyEntry, DailyTally, Match
from games.tables import play

#: Per deal, how many different results the crowd's sets spread over.
RESULTS_PER_DEAL = 40
FRIENDS = 60
TARGET_MS = 100.0


@dataclass
class Timing:
    """One page's times over its views, in milliseconds."""

    page: str
    views: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    cpu_p50_ms: float
    cpu_p95_ms: float


def _results(rng: random.Random) -> list[tuple[str, int, int, str, int, int]]:
    """A deal's spread of results: (contract, declarer, multiplier, outcome, us, them)."""
    out = []
    for _ in range(RESULTS_PER_DEAL):
        contract = rng.choice(["C", "D", "H", "S", "N", "A"])
        declarer = rng.randrange(4)
        multiplier = rng.choice([1, 1, 1, 2, 4])
        made = rng.random() < 0.75
        points = rng.randrange(8, 30) * multiplier
        declarers = declarer % 2 == 0
        if made:
            us, them = (
                (points, rng.randrange(0, 14)) if declarers else (rng.randrange(0, 14), points)
            )
        else:
            us, them = (0, points + 16) if declarers else (points + 16, 0)
        out.append((contract, declarer, multiplier, "made" if made else "inside", us, them))
    return out


def build(players: int, seed: int = 1) -> tuple[Daily, Any]:
    """Today's daily with ``players`` finished sets and the viewer's own; the viewer."""
    rng = random.Random(seed)
    User = get_user_model()
    today = daily.today()
    prefix = f"daily-bench-{today.pk}-{seed}"
    crowd = User.objects.bulk_create(
        [User(username=f"{prefix}-{i}") for i in range(players)], batch_size=2000
    )
    crowd = list(User.objects.filter(username__startswith=f"{prefix}-").order_by("pk"))
    spreads = {deal: _results(rng) for deal in range(1, today.deals + 1)}
    weights = [rng.random() ** 2 for _ in range(RESULTS_PER_DEAL)]
    counts: Counter[tuple[int, tuple[str, int, int, str, int, int]]] = Counter()
    entries = []
    now = timezone.now()
    for user in crowd:
        scores = []
        for deal, spread in spreads.items():
            result = rng.choices(spread, weights)[0]
            counts[(deal, result)] += 1
            scores.append(str(result[4] - result[5]))
        entries.append(
            DailyEntry(
                daily=today,
                user=user,
                recorded_at=now,
                finished_at=now,
                deals_played=today.deals,
                scores=",".join(scores),
            )
        )
    with transaction.atomic():
        DailyEntry.objects.bulk_create(entries, batch_size=2000)
        DailyTally.objects.bulk_create(
            [
                DailyTally(
                    daily=today,
                    deal=deal,
                    contract=contract,
                    declarer=declarer,
                    multiplier=multiplier,
                    outcome=outcome,
                    written_us=us,
                    written_them=them,
                    count=count,
                )
                for (deal, (contract, declarer, multiplier, outcome, us, them)), count in (
                    counts.items()
                )
            ],
            batch_size=2000,
        )
        Daily.objects.filter(pk=today.pk).update(players=len(crowd), recorded=len(crowd))
    viewer = User.objects.create_user(f"{prefix}-viewer", password="bench-password-1")
    Friend.objects.bulk_create(
        [
            Friend(from_user=friend, to_user=viewer)
            for friend in crowd[:: max(1, players // FRIENDS)]
        ]
        + [
            Friend(from_user=viewer, to_user=friend)
            for friend in crowd[:: max(1, players // FRIENDS)]
        ]
    )
    today.refresh_from_db()
    entry = daily.start(today, viewer)
    _play_out(entry.table_id)
    daily.match_ended(entry.table_id)
    today.refresh_from_db()
    return today, viewer


def _play_out(table_id: int) -> None:
    match = Match.objects.get(table_id=table_id)
    state = belote.loads(match.state)
    while state.to_act is not None:
        seat = state.to_act
        action = belote.legal_actions(state, seat)[-1]
        match = play.apply_action(table_id, None, action, match.version, seat=seat).match
        if match.paused_until is not None:
            Match.objects.filter(pk=match.pk).update(paused_until=None)
        state = belote.loads(match.state)


def _time(client: Client, what: str, url: str, views: int, **query: str) -> Timing:
    client.get(url, query)  # warm: templates compiled, standings kept
    times, cpu = [], []
    for _ in range(views):
        start, start_cpu = time.perf_counter(), time.process_time()
        answer = client.get(url, query)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        if answer.status_code != 200:
            raise RuntimeError(f"{url} answered {answer.status_code}")
    times.sort()
    cpu.sort()
    return Timing(
        what,
        views,
        round(statistics.median(times), 2),
        round(_p95(times), 2),
        round(times[-1], 2),
        round(statistics.median(cpu), 2),
        round(_p95(cpu), 2),
    )


def _p95(ordered: list[float]) -> float:
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def run(players: int, views: int, say=print) -> dict[str, Any]:
    """Build, then time each page ``views`` times; and the standings' recount after a finish."""
    started = time.perf_counter()
    today, viewer = build(players)
    say(f"built {players} finished sets in {time.perf_counter() - started:.1f} s")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(viewer)
    day = today.day.isoformat()
    url = reverse("daily", args=[day])
    pages = (players + 1 + daily.PER_PAGE - 1) // daily.PER_PAGE
    timings = [
        _time(client, "standings, first page", url, views),
        _time(client, "standings, a middle page", url, views, page=str(pages // 2 or 1)),
        _time(client, "standings, friends only", url, views, friends="1"),
    ]
    for number in range(1, today.deals + 1):
        timings.append(
            _time(
                client,
                f"traveller of deal {number}",
                reverse("daily_deal", args=[day, number]),
                views,
            )
        )
    recounts = []
    for _ in range(5):
        daily._boards.clear()
        start = time.process_time()
        daily.standings(today)
        recounts.append((time.process_time() - start) * 1000)
    all_p95 = max(t.p95_ms for t in timings)
    cpu_p95 = max(t.cpu_p95_ms for t in timings)
    return {
        "players": players + 1,
        "deals": today.deals,
        "timings": [asdict(t) for t in timings],
        "recount_ms": round(statistics.median(recounts), 2),
        "worst_p95_ms": all_p95,
        "worst_cpu_p95_ms": cpu_p95,
        "load_average": list(os.getloadavg()),
        "target_ms": TARGET_MS,
        "within_target": all_p95 < TARGET_MS,
    }


def format_result(result: dict[str, Any]) -> str:
    lines = [
        f"daily Belote: {result['players']} finished sets of {result['deals']} deals",
        f"{'page':32} {'views':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
        f"{'CPU p50':>8} {'CPU p95':>8}",
    ]
    for t in result["timings"]:
        lines.append(
            f"{t['page']:32} {t['views']:>6} {t['p50_ms']:>8} {t['p95_ms']:>8} {t['max_ms']:>8} "
            f"{t['cpu_p50_ms']:>8} {t['cpu_p95_ms']:>8}"
        )
    lines.append(f"standings worked out again after a finish: {result['recount_ms']} ms of CPU")
    load = ", ".join(f"{figure:.1f}" for figure in result["load_average"])
    lines.append(f"load average at the end: {load}; worst CPU p95 {result['worst_cpu_p95_ms']} ms")
    verdict = "within" if result["within_target"] else "OVER"
    lines.append(
        f"worst p95 {result['worst_p95_ms']} ms: {verdict} the {result['target_ms']} ms target"
    )
    return "\n".join(lines)
