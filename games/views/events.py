"""Duplicate events, a club's or a public cup: scheduling from the club's page (a cup's in the
admin), the event's page (registration, the rounds in progress, the standings, the results)
and its published log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import live
from ..events import cups, par, results, running
from ..models import Event
from ..people import access
from ..refusals import Refusal
from . import done, next_url
from .clubs import EventForm, _club

#: The most club members the registration form lists as partners.
MAX_PARTNER_CHOICES = 200


def _event(pk: int, user) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not access.may_see_event(event, user):
        raise Http404
    return event


def _tell(started: running.Started | None) -> None:
    """Tell the players of a round that began where to sit."""
    if started is not None:
        _send(running.notices(started))


def _send(notices: list) -> None:
    for group, message in live.notify.notice_messages(notices):
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

    def created() -> HttpResponse:
        return redirect(running.create_event(club, request.user, **form.cleaned_data))

    return done(request, club, created)


def remind(reminder: cups.Reminder | None, url: str) -> None:
    """Tell a cup's players that it starts soon, on their open pages and by mail (``url``:
    the cup's page)."""
    if reminder is not None:
        for group, message in live.notify.notice_messages(reminder.notices()):
            live.notify.send_sync(group, message)
        cups.mail(reminder, url)


def _advance(request: HttpRequest, event: Event) -> Event:
    """The event as it stands, once started if its time came or moved on to its next round
    if the last table of its round finished; a cup's players reminded if it starts soon."""
    remind(cups.remind_if_due(event), request.build_absolute_uri(event.get_absolute_url()))
    _tell(running.start_if_due(event))
    if event.status == Event.Status.RUNNING:
        _tell(running.catch_up(event))
    event.refresh_from_db()
    return event


def _page(request: HttpRequest, event: Event, progress: list | None = None) -> dict:
    """What the event's page and its live part show: the standings from the points kept per
    table, and once the event is over one round's deals (``?round=``) with the pars kept so
    far. No review is worked out here: the missing ones are asked for in the background."""
    if progress is None:
        progress = results.round_progress(event)
    over = event.status == Event.Status.FINISHED
    rounds = results.shown_rounds(event)
    shown = _chosen_round(request, rounds) if over else None
    deals = results.revealed_deals(event, shown) if shown is not None else []
    par_pending = over and not par.ready(event)
    if over:
        results.add_par(deals)
        if par_pending:
            par.schedule(event.pk)
    standings = results.standings(event) if rounds else []
    pair = running.pair_of(event, request.user)
    may_play = access.may_play_in(event, request.user)
    partners = (
        running.free_members(event, request.user, MAX_PARTNER_CHOICES + 1)
        if event.status == Event.Status.REGISTRATION and may_play and pair is None
        else []
    )
    return {
        "event": event,
        "club": event.club,
        "is_admin": running.runs(event, request.user),
        "is_member": may_play,
        "pair": pair,
        "asked": (
            running.requests_for(request.user, event)
            if event.status == Event.Status.REGISTRATION and pair is None
            else []
        ),
        "pairs": [
            (pair, results.pair_name(pair))
            for pair in event.pairs.filter(waiting=False)
            .select_related("player", "partner")
            .order_by("created_at")
        ],
        "my_table": running.my_table(event, request.user),
        "progress": progress,
        "seen": results.seen(event, progress) if event.status == Event.Status.RUNNING else "",
        "standings": standings,
        "computers_in_standings": any(line.is_computers for line in standings),
        "rounds_shown": rounds,
        "deals_round": shown,
        "deals": deals,
        "par_pending": par_pending,
        # Past so many, the partner is typed (with suggestions) rather than chosen from a list.
        "partners": partners[:MAX_PARTNER_CHOICES],
        # At a cup, any player may be named: only friends are suggested.
        "partner_typed": event.is_cup or len(partners) > MAX_PARTNER_CHOICES,
    }


def _chosen_round(request: HttpRequest, rounds: list[int]) -> int | None:
    """The round whose deals the results show: ``?round=``, else the first."""
    try:
        asked = int(request.GET.get("round", ""))
    except ValueError:
        asked = None
    return asked if asked in rounds else (rounds[0] if rounds else None)


@require_GET
@login_required
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = _advance(request, _event(pk, request.user))
    return render(request, "games/events/event.html", _page(request, event))


@require_GET
@login_required
def event_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """What htmx polls on the event's page: a change of stage reloads the page; a running
    event's live part comes again when it changed; an over event's page reloads once its pars
    are all worked out. Nothing is worked out here before the answer "no change"."""
    event = _advance(request, _event(pk, request.user))
    if request.GET.get("status") != event.status:
        return _reload()
    if event.status == Event.Status.FINISHED:
        if par.ready(event):
            return _reload()
        par.schedule(event.pk)  # taken up again if the process working them out died
        return HttpResponse(status=204)
    if event.status != Event.Status.RUNNING:
        return HttpResponse(status=204)
    progress = results.round_progress(event)
    if request.GET.get("seen") == results.seen(event, progress):
        return HttpResponse(status=204)  # nothing new: the part stays, and the focus in it
    return render(request, "games/events/progress.html", _page(request, event, progress))


def _reload() -> HttpResponse:
    response = HttpResponse(status=204)
    response["HX-Refresh"] = "true"
    return response


@require_POST
@login_required
def register(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    partner = request.POST.get("partner", "")[:150]
    contribution = request.POST.get("contribution", "")  # a wrong one is refused, never cut

    def registered() -> str:
        pair = running.register(event, request.user, partner, contribution)
        if not pair.waiting:
            return _("You are registered.")
        live.notice(pair.partner_id, "event_partner", pair.pk)
        return _("%(name)s is asked to partner you: you are registered once they accept.") % {
            "name": pair.partner.get_username()
        }

    return done(request, event, registered)


@require_POST
@login_required
def answer_partner(request: HttpRequest, pk: int, answer: str) -> HttpResponse:
    """Accept or decline a request to partner a player at an event; the player is told."""
    try:
        answered = running.answer_request(pk, request.user, answer == "accept")
    except Refusal as error:
        said = str(error)
    else:
        _send(answered.notices)
        said = answered.said
    if request.htmx:
        return render(request, "games/partials/notice_said.html", {"said": said})
    messages.info(request, said)
    return redirect(next_url(request, "notifications"))


@require_POST
@login_required
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    said = _("Your pair is withdrawn.")
    return done(request, event, running.withdraw, event, request.user, said=said)


@require_POST
@login_required
def start(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)

    def started() -> str:
        _tell(running.start(event, request.user))
        return _("The event has started.")

    return done(request, event, started)


@require_POST
@login_required
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk, request.user)
    said = _("The event is cancelled.")
    return done(request, event, running.close, event, request.user, said=said)


@require_GET
def event_log(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished event's log, for ``python -m games.verify``."""
    event = _event(pk, request.user)
    if event.status != Event.Status.FINISHED:
        raise Http404("the log is published when the event is over")
    response = JsonResponse(results.event_log(event), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="cardroom-event-{event.pk}.json"'
    return response
