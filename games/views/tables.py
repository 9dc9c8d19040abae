"""Creating tables and showing a table's page (live play goes over the websocket)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from .. import live
from ..catalog import all_games, get_game
from ..engines import fair_deals
from ..models import Table
from ..people import access, friends
from ..refusals import Refusal
from ..tables import invitations
from ..tables.lobby import lobby_context, quick_games
from ..tables.quick import ShownSecret, claim_computer_seat, play_now
from ..tables.rows import abort_table, create_table
from . import done, game_or_404, next_url
from .forms import TableForm, UsernameForm

#: The session key of the secret of the player's next "Play now" table: its commitment is on
#: the page before their browser's contribution comes with the click.
PLAY_NOW_SECRET = "play_now_secret"
#: A table's invite code, as a rules page opened from the table names it.
TABLE_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def play_now_commitment(request: HttpRequest) -> str:
    """The commitment to the secret of this player's next "Play now" table (chosen now, kept
    until a click uses it)."""
    secret = request.session.get(PLAY_NOW_SECRET)
    if not secret:
        secret = request.session[PLAY_NOW_SECRET] = fair_deals.new_secret()
    return fair_deals.commitment(secret)


def new_table_forms(data: QueryDict | None = None, game: str | None = None) -> dict[str, Form]:
    """The new-table form and the options form of the chosen game (the first one offered
    unless ``game`` or the form's data says)."""
    game = game or all_games()[0].name
    table_form = TableForm(data, initial={"game": game})
    chosen = data.get("game", game) if data is not None else game
    try:
        spec = get_game(chosen)
    except LookupError:
        spec = get_game(game)
    return {
        "table_form": table_form,
        "options_form": spec.options_form(data, prefix="options"),
    }


@login_required
@require_POST
def new_table(request: HttpRequest) -> HttpResponse:
    """Create a table from the lobby form; the creator lands on it and takes a seat there."""
    forms = new_table_forms(request.POST)
    table_form, options_form = forms["table_form"], forms["options_form"]
    table = None
    if table_form.is_valid() and options_form.is_valid():
        try:
            table = create_table(
                request.user,
                table_form.cleaned_data["game"],
                options_form.cleaned_data,
                is_private=table_form.cleaned_data["is_private"],
                turn_seconds=table_form.cleaned_data["turn_seconds"] or 0,
            )
        except Refusal as error:
            table_form.add_error(None, str(error))
    if table is None:
        context = lobby_context(request.user)
        context.update(forms, play_now_commitment=play_now_commitment(request))
        return render(request, "games/lobby.html", context, status=400)
    if not table.is_private:
        live.announce(lobby=True)
    return redirect(table)


@login_required
@require_POST
def play_now_view(request: HttpRequest) -> HttpResponse:
    """ "Play now": sit down at a quick table of the chosen game (see :func:`tables.play_now`)."""
    game = game_or_404(request.POST.get("game", "")).name
    secret = request.session.pop(PLAY_NOW_SECRET, "")
    shown = None
    if secret and request.POST.get("commitment") == fair_deals.commitment(secret):
        shown = ShownSecret(secret, request.POST.get("contribution", ""))

    def sit() -> HttpResponse:
        seated = play_now(request.user, game, shown)
        if seated.how != "back":
            live.announce(seated.table.pk, lobby=True)
        return redirect(seated.table)

    return done(request, "home", sit)


@login_required
@require_GET
def play_now_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's "Play now" button on a page of its own: where a visitor who pressed it goes
    once they have signed up or logged in."""
    name = game_or_404(game).name
    chosen = next(choice for choice in quick_games() if choice["name"] == name)
    context = {"game": chosen, "play_now_commitment": play_now_commitment(request)}
    return render(request, "games/play_now.html", context)


@login_required
@require_POST
def join_quick_table(request: HttpRequest, code: str) -> HttpResponse:
    """Take a computer player's seat at this quick table from the next deal (the lobby's
    "Join", an htmx request)."""
    table = get_object_or_404(Table, code=code)

    def claimed() -> HttpResponse:
        claim_computer_seat(table.pk, request.user)
        live.announce(table.pk, lobby=True)
        target = table.get_absolute_url()
        return HttpResponseClientRedirect(target) if request.htmx else redirect(target)

    return done(request, "home", claimed)


@login_required
@require_GET
def table_options(request: HttpRequest) -> HttpResponse:
    """The options fieldset for the game picked in the new-table form (an htmx partial)."""
    game = game_or_404(request.GET.get("game", "")).name
    return render(request, "games/partials/table_options.html", new_table_forms(game=game))


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    """A table's page; the websocket it opens keeps it live. A visitor who is not logged in
    (an invited friend, usually) is told who invites them, to sign up or log in first."""
    table = get_object_or_404(
        Table.objects.select_related("owner", "club", "daily_entry__daily"), code=code
    )
    if request.user.is_authenticated and not access.may_open(table, request.user):
        if not access.admitted_by_club(table, request.user) and not table.club.hidden:
            messages.error(
                request,
                _("Only the members of %(club)s can see or join its tables.")
                % {"club": table.club},
            )
            return redirect(table.club)
        # An event's round still being played elsewhere, or a creator who blocks them.
        raise Http404("this table does not open to this player")
    sender = invitations.named_inviter(table, request.GET.get("from", ""))
    if not request.user.is_authenticated:
        inviter = sender or table.owner
        return render(request, "games/invite_landing.html", {"table": table, "inviter": inviter})
    context = live.table_page(table, request.user)
    if (
        sender is not None
        and sender.pk != request.user.pk
        and not friends.are_friends(sender, request.user)
        and not friends.blocked_between(sender, request.user)
    ):
        context["befriend"] = sender
    if table.status == Table.Status.OPEN and (context["seated"] or context["is_owner"]):
        context["invite_friends"] = friends.friend_rows(request.user)[1]
        context["free_seats"] = [s["index"] for s in context["seats"] if s["is_free"]]
    return render(request, "games/table.html", context)


@login_required
@require_POST
def invite_friend(request: HttpRequest, code: str) -> HttpResponse:
    """Invite a friend from the table (an htmx form): they are told at once, on any page."""
    table = get_object_or_404(Table, code=code)
    seat = request.POST.get("seat", "")
    try:
        invitation = invitations.invite(
            table.pk,
            request.user,
            UsernameForm.named_in(request),
            int(seat) if seat.isdigit() else None,
        )
    except Refusal as error:
        return HttpResponse(escape(str(error)))
    live.notice(invitation.to_user_id, "invitation", invitation.pk)
    invitations.mail(invitation, request.build_absolute_uri(table.get_absolute_url()))
    return HttpResponse(
        escape(_("Invitation sent to %(name)s.") % {"name": invitation.to_user.username})
    )


@login_required
@require_POST
def close_table(request: HttpRequest, code: str) -> HttpResponse:
    """Close a waiting table its creator opened (My tables)."""
    table = get_object_or_404(Table, code=code, owner=request.user)
    if table.status != Table.Status.OPEN:
        messages.error(request, _("Only a table that waits for players can be closed."))
    else:
        abort_table(table.pk)
        live.announce(table.pk, lobby=True)
        messages.success(request, _("The table is closed."))
    return redirect(next_url(request, "home"))


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    """The rules of a game, as played on this site."""
    game_or_404(game)
    try:
        template = get_template(f"games/rules/{game}.html")
    except TemplateDoesNotExist:
        raise Http404 from None
    # Opened from a table: while the page is open, the reader's turn clock there waits.
    table = request.GET.get("table", "")
    context = {"reading_at": table if TABLE_CODE.fullmatch(table) else ""}
    return HttpResponse(template.render(context, request))
