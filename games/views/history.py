"""Finished matches, their replays and the leaderboards (profiles are in ``accounts``)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from cardroom import metrics
from cardroom.proxies import client_ip

from ..catalog import all_games, game_label, get_game
from ..models import Match
from ..people import access, limits
from ..records import history, reviews
from . import game_or_404


def _done_match(request: HttpRequest, match_id: int) -> Match:
    """A finished or aborted match that the viewer may see (``access.records_shown_to``);
    running matches have no record or replay yet."""
    return get_object_or_404(
        Match.objects.filter(access.records_shown_to(request.user)).select_related(
            "table__event_table__event"
        ),
        pk=match_id,
        status__in=history.DONE,
    )


@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """The record of a finished (or aborted) match."""
    match = _done_match(request, match_id)
    return render(request, "games/history/match.html", history.match_record(match))


@require_GET
def deal_review(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """What a finished deal's cards allowed, worked out with every hand known; reviews not
    yet kept are worked out at most ``REVIEWS_PER_HOUR`` times an hour per account or
    address."""
    match = _done_match(request, match_id)
    key = limits.review_key(request.user, client_ip(request))
    try:
        context = history.review_page(
            match, number, lambda: limits.spend(key, settings.REVIEWS_PER_HOUR, limits.HOUR)
        )
    except reviews.Refused:
        metrics.refused(metrics.LIMIT)
        context = {"match": match, "game_label": game_label(match.game), "number": number}
        return render(request, "games/history/review_later.html", context, status=429)
    if context is None:
        raise Http404("this deal has no review")
    return render(request, get_game(match.game).review_template, context)


@require_GET
def match_log(request: HttpRequest, match_id: int) -> HttpResponse:
    """An ended match's log as JSON, for ``python -m games.verify``."""
    match = _done_match(request, match_id)
    if not match.secret:
        raise Http404("this match was played before deals could be checked")
    response = JsonResponse(history.match_log(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="cardroom-match-{match.pk}.json"'
    return response


@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """A finished match at one step of its move log; htmx requests get only the replay region."""
    match = _done_match(request, match_id)
    context = history.replay_step(match, request.GET.get("step", 0))
    htmx = getattr(request, "htmx", None)
    partial = bool(htmx) and not htmx.history_restore_request
    template = "games/history/replay_region.html" if partial else "games/history/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    """The leaderboards start with the first game offered."""
    return redirect("leaderboard", game=all_games()[0].name)


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """The rated players of a game, best first."""
    spec = game_or_404(game)
    page, rows = history.leaderboard(game, request.GET.get("page"))
    return render(
        request,
        "games/history/leaderboard.html",
        {
            "game": game,
            "game_label": str(spec.label),
            "games": [(other.name, str(other.label)) for other in all_games()],
            "page": page,
            "rows": rows,
        },
    )
