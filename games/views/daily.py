"""The daily Belote's pages: the day's page (play or resume, the standings, and once the
player finished or the day closed every deal with its traveller), a deal's traveller, the
day's published log."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from friendship.models import Friend

from .. import live
from ..events import daily as service
from ..models import Daily
from ..people import access
from . import done


def _daily(day: str) -> Daily:
    """The set of ``day`` (an ISO date): today's made on first asking, a past one if it was
    played, never a day still to come."""
    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        raise Http404 from None
    today = service.day_of()
    if wanted > today:
        raise Http404("that day's deals are not drawn yet")
    if wanted == today:
        return service.today()
    found = Daily.objects.filter(day=wanted).first()
    if found is None:
        raise Http404
    return _closed(found)


def _closed(daily: Daily) -> Daily:
    """The day, its close processed if it is over (its stopped tables' players told)."""
    if not daily.closed and daily.closes_at <= timezone.now():
        for table_id in service.close(daily):
            live.notify.announce(table_id)
        daily.refresh_from_db()
    return daily


def friend_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Friend.objects.filter(to_user_id=user.pk).values_list("from_user_id", flat=True))


@require_GET
def today(request: HttpRequest) -> HttpResponse:
    return redirect(service.today())


@require_GET
@login_required
def daily_page(request: HttpRequest, day: str) -> HttpResponse:
    daily = _daily(day)
    entry = service.entry_of(daily, request.user)
    if entry is not None:
        entry.daily = daily  # read again by a catch-up that counts the set
    entry = service.catch_up(entry)
    board = service.standings(daily)
    friends = friend_ids(request.user)
    only_friends = request.GET.get("friends") == "1"
    lines = board.lines
    if only_friends:
        lines = board.lines_of(friends | {request.user.pk})
    page = Paginator(lines, service.PER_PAGE).get_page(request.GET.get("page"))
    mine = board.line_of(request.user.pk)
    shown = list(page.object_list)
    ids = {line.user_id for line in shown} | ({mine.user_id} if mine else set())
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    may_see = access.may_see_daily_deals(daily, request.user)
    deals = service.my_deals(entry) if may_see and entry is not None else []
    played = service.deals_done(entry) if entry is not None else 0
    return render(
        request,
        "daily/day.html",
        {
            "daily": daily,
            "is_today": service.is_open(daily),
            "entry": entry,
            "played": played,
            "board": board,
            "page": page,
            "rows": [
                (line, names.get(line.user_id, ""), line.user_id in friends) for line in shown
            ],
            "mine": mine,
            "mine_shown": mine is not None and any(line is mine for line in shown),
            "only_friends": only_friends,
            "may_see": may_see,
            "deals": deals,
            "numbers": range(1, daily.deals + 1),
            "par_pending": any(d.par is None and d.result["contract"] for d in deals),
        },
    )


@require_POST
@login_required
def play(request: HttpRequest, day: str) -> HttpResponse:
    daily = _daily(day)

    def started() -> HttpResponse:
        entry = service.start(daily, request.user)
        if entry.table is None:
            return redirect(daily)
        return redirect(entry.table)

    return done(request, daily, started)


@require_GET
@login_required
def deal_page(request: HttpRequest, day: str, number: int) -> HttpResponse:
    """A deal's traveller: every result on it, how many had each, their matchpoints; only to
    a player who finished their set, or to anyone once the day closed."""
    daily = _daily(day)
    if not 1 <= number <= daily.deals:
        raise Http404
    if not access.may_see_daily_deals(daily, request.user):
        raise Http404("the day's deals show to those who finished their set")
    entry = service.entry_of(daily, request.user)
    mine = None
    played = None
    if entry is not None:
        deals = {d.number: d for d in service.my_deals(entry)}
        played = deals.get(number)
        if played is not None:
            mine = service.key_of(played.result)
    lines = service.traveller(daily, number, mine)
    return render(
        request,
        "daily/deal.html",
        {
            "daily": daily,
            "number": number,
            "lines": lines,
            "players": sum(line.count for line in lines),
            "played": played,
            "numbers": range(1, daily.deals + 1),
        },
    )


@require_GET
def daily_log(request: HttpRequest, day: str) -> HttpResponse:
    """A closed day's log, for ``python -m games.verify``."""
    daily = _daily(day)
    if not daily.closed:
        raise Http404("the log is published when the day is over")
    response = JsonResponse(service.daily_log(daily), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = (
        f'attachment; filename="cardroom-daily-{daily.day.isoformat()}.json"'
    )
    return response
