"""Clubs: the list, a club's page, and the forms of its members and admins (all POST; a
refusal comes back as a message and changes nothing)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from .. import live
from ..catalog import all_games, get_game
from ..events import running
from ..models import Club
from ..people import access, clubs
from ..refusals import Refusal
from ..tables.rows import create_table
from . import done
from .forms import UsernameForm


class ClubForm(forms.Form):
    """A new club."""

    name = forms.CharField(label=gettext_lazy("Club name"), max_length=60)
    description = forms.CharField(
        label=gettext_lazy("Description"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    games = forms.MultipleChoiceField(
        label=gettext_lazy("Games"),
        choices=lambda: [(game.name, game.label) for game in all_games()],
        widget=forms.CheckboxSelectMultiple,
    )
    access = forms.ChoiceField(
        label=gettext_lazy("Who may join"), choices=Club.Access.choices, initial="request"
    )


class EventForm(forms.Form):
    """A new event of a club."""

    name = forms.CharField(label=gettext_lazy("Event name"), max_length=80)
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"), min_value=1, max_value=running.MAX_ROUNDS, initial=4
    )
    deals_per_round = forms.IntegerField(
        label=gettext_lazy("Deals per round"),
        min_value=1,
        max_value=running.MAX_DEALS_PER_ROUND,
        initial=4,
    )
    turn_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Turn timer"),
        choices=[
            (30, gettext_lazy("30 seconds a move")),
            (60, gettext_lazy("60 seconds a move")),
            (0, gettext_lazy("No timer")),
        ],
        coerce=int,
        initial=30,
    )
    ask_to_announce = forms.BooleanField(
        label=gettext_lazy("Ask before announcing"),
        help_text=gettext_lazy(
            "With their first card the players choose which declarations to announce, and with "
            "the first of a trump king and queen whether to say belot. Off: everything is "
            "announced."
        ),
        required=False,
        initial=True,
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at (your time)"),
        required=False,
        help_text=gettext_lazy("Leave empty to start it yourself once the pairs have registered."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M"],
    )
    #: The browser's minutes behind UTC (``static/js/local-time.js``): the time typed is theirs.
    utc_offset = forms.IntegerField(
        required=False, min_value=-14 * 60, max_value=14 * 60, widget=forms.HiddenInput
    )

    def clean(self) -> dict:
        data = super().clean()
        offset = data.pop("utc_offset", None) or 0
        if data.get("starts_at") is not None:
            data["starts_at"] += timedelta(minutes=offset)
        return data


def _club(pk: int, user) -> Club:
    club = get_object_or_404(Club, pk=pk)
    if club.hidden and not user.is_staff:
        raise Http404
    return club


@require_GET
@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "games/clubs/list.html", {**clubs.clubs_page(request.user), "form": ClubForm()}
    )


@require_POST
@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "games/clubs/list.html",
            {**clubs.clubs_page(request.user), "form": form},
            status=400,
        )
    try:
        club = clubs.create_club(request.user, **form.cleaned_data)
    except Refusal as error:
        form.add_error("name", str(error))
        return render(
            request,
            "games/clubs/list.html",
            {**clubs.clubs_page(request.user), "form": form},
            status=400,
        )
    return redirect(club)


@require_GET
@login_required
def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    member = access.is_member(club, request.user)
    return render(
        request,
        "games/clubs/club.html",
        {
            "club": club,
            "mine": clubs.membership(club, request.user),
            # Opened through the club's invite link: joining needs no request or invitation.
            "invite": request.GET.get("invite", "")[:32]
            if request.GET.get("invite") == club.invite_code
            else "",
            "is_member": member,
            "is_admin": clubs.is_admin(club, request.user),
            "announcements": club.announcements.filter(hidden=False)
            .select_related("author")
            .order_by("-created_at")[:20],
            "tables": clubs.club_tables(club) if member else [],
            "events": club.events.exclude(status="cancelled").order_by("-created_at")[:20],
            "event_form": EventForm(),
            "standings": clubs.standings(club),
            "games": [get_game(name) for name in club.games if name in _game_names()],
            **clubs.members_page(club, request.user, request.GET.get("page")),
        },
    )


def _game_names() -> set[str]:
    return {game.name for game in all_games()}


@require_POST
@login_required
def join(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    code = request.POST.get("invite", "")[:32]
    return done(request, club, clubs.join, club, request.user, code)


@require_POST
@login_required
def new_invite_link(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    return done(request, club, clubs.new_invite_link, club, request.user)


@require_POST
@login_required
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)

    def left() -> HttpResponse:
        clubs.leave(club, request.user)
        messages.success(request, _("You left %(club)s.") % {"club": club})
        return redirect("clubs")

    return done(request, club, left)


@require_POST
@login_required
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    name = UsernameForm.named_in(request)

    def invited() -> str:
        clubs.invite(club, request.user, name)
        return _("%(name)s is invited.") % {"name": name}

    return done(request, club, invited)


@require_POST
@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    username = UsernameForm.named_in(request)
    action = request.POST.get("action", "")
    return done(request, club, clubs.manage, club, request.user, username, action)


@require_POST
@login_required
def hand_over(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)
    username = UsernameForm.named_in(request)
    return done(request, club, clubs.hand_over, club, request.user, username)


@require_POST
@login_required
def announce(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(pk, request.user)

    def posted() -> str:
        clubs.announce(club, request.user, request.POST.get("text", "")[:1000])
        return _("Announcement posted.")

    return done(request, club, posted)


@require_POST
@login_required
def new_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a table of one of the club's games for its members only."""
    club = _club(pk, request.user)
    game = request.POST.get("game", "")
    if not access.is_member(club, request.user):
        messages.error(request, _("Only the club's members can open its tables."))
        return redirect(club)
    if game not in club.games or game not in _game_names():
        messages.error(request, _("This club does not play that game."))
        return redirect(club)
    fields = get_game(game).options_form.base_fields
    options = {name: field.initial for name, field in fields.items()}

    def opened() -> HttpResponse:
        table = create_table(request.user, game, options, is_private=True, club=club)
        live.announce(lobby=True)
        return redirect(table)

    return done(request, club, opened)
