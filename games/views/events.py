"""Duplicate events: scheduling from the club's page, the event's page (registration, the
rounds in progress, the standings, the results) and its published log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import live
from ..events import results, running
from ..live.moves import event_news
from ..models import Event
from ..people import clubs
from .clubs import EventForm, _club


def _event(pk: int, user) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if event.club.hidden and not user.is_staff:
        raise Http404
    return event


def _tell(started: running.Started | None) -> None:
    """Tell the players of a round that began where to sit."""
    if started is not None:
        for group, message in event_news(started):
            live.notify.send_sync(group, message)


@require_POST
@login_required
def new_event(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    form = EventForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(club)
    try:
        event = running.create_event(club, request.user, **form.cleaned_data)
    except running.EventError as error:
        messages.error(request, str(error))
        return redirect(club)
    return redirect(event)


def _page(request: HttpRequest, event: Event) -> dict:
    """What the event's page and its live part show."""
    _tell(running.start_if_due(event))
    if event.status == Event.Status.RUNNING:
        _tell(running.catch_up(event))
    event.refresh_from_db()
    deals = results.revealed_deals(event)
    progress = results.round_progress(event)
    over = event.status == Event.Status.FINISHED
    if over:
        results.add_par(deals)
    return {
        "event": event,
        "club": event.club,
        "is_admin": clubs.is_admin(event.club, request.user),
        "is_member": clubs.is_member(event.club, request.user),
        "pair": running.pair_of(event, request.user),
        "pairs": [
            (pair, results.pair_name(pair))
            for pair in event.pairs.select_related("player", "partner").order_by("created_at")
        ],
        "my_table": running.my_table(event, request.user),
        "progress": progress,
        # What the live part shows, in short: it is sent again only when this changes.
        "seen": f"{event.current_round}:{sum(row['done'] for row in progress)}:{len(deals)}",
        "standings": results.standings(event, deals),
        "rounds_shown": sorted({deal.round for deal in deals}),
        "deals": deals if over else [],
        "partners": running.free_members(event, request.user),
    }


@require_GET
@login_required
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    return render(request, "games/events/event.html", _page(request, event))


@require_GET
@login_required
def event_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the event's page (htmx polls it); a change of stage reloads the page."""
    event = _event(pk, request.user)
    context = _page(request, event)
    if request.GET.get("status") != context["event"].status:
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if request.GET.get("seen") == context["seen"]:
        return HttpResponse(status=204)  # nothing new: the part stays, and the focus in it
    return render(request, "games/events/progress.html", context)


def _done(request: HttpRequest, event: Event, said: str, action, *args) -> HttpResponse:
    try:
        outcome = action(*args)
    except running.EventError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, said)
        if isinstance(outcome, running.Started):
            _tell(outcome)
    return redirect(event)


@require_POST
@login_required
def register(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    return _done(
        request,
        event,
        _("You are registered."),
        running.register,
        event,
        request.user,
        request.POST.get("partner", "")[:150],
        request.POST.get("contribution", ""),  # a wrong one is refused, never cut to fit
    )


@require_POST
@login_required
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    return _done(
        request, event, _("Your pair is withdrawn."), running.withdraw, event, request.user
    )


@require_POST
@login_required
def start(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    return _done(request, event, _("The event has started."), running.start, event, request.user)


@require_POST
@login_required
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    return _done(request, event, _("The event is cancelled."), running.close, event, request.user)


@require_GET
def event_log(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished event's log, for ``python -m games.verify``."""
    event = _event(pk, request.user)
    if event.status != Event.Status.FINISHED:
        raise Http404("the log is published when the event is over")
    response = JsonResponse(results.event_log(event), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="cardroom-event-{event.pk}.json"'
    return response
