"""Players report a chat message or another player to the moderators."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..models import ChatMessage
from ..people import access
from ..people.moderation import report
from ..refusals import Refusal
from . import next_url
from .forms import ReportForm


def _report_page(
    request: HttpRequest, subject: str, file_report, default_back: str
) -> HttpResponse:
    back = next_url(request, default_back)
    form = ReportForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            _report, created = file_report(form.reason())
        except Refusal as error:
            form.add_error(None, str(error))
        else:
            if created:
                messages.success(request, _("Thank you: the moderators will look at your report."))
            else:
                messages.info(request, _("You reported this already: the moderators have it."))
            return redirect(back)
    return render(request, "games/report.html", {"form": form, "subject": subject, "back": back})


@login_required
@require_http_methods(["GET", "POST"])
def report_message(request: HttpRequest, code: str, pk: int) -> HttpResponse:
    """Report a chat message (and so its author) of the table with invite ``code``.

    The invite code is what lets anyone open a table: only a visible message of the table it
    names, to someone who may open it, can be reported, so message numbers reveal nothing of
    other tables.
    """
    message = get_object_or_404(
        ChatMessage.objects.select_related("user", "table__club"),
        pk=pk,
        table__code=code,
        hidden=False,
    )
    if not access.may_open(message.table, request.user):
        raise Http404("only those who may open a table see its chat")
    subject = _("the message by %(name)s: “%(text)s”") % {
        "name": message.user.username,
        "text": message.text,
    }
    return _report_page(
        request,
        subject,
        lambda reason: report(request.user, reason, message=message),
        message.table.get_absolute_url(),
    )


@login_required
@require_http_methods(["GET", "POST"])
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report a player from their profile."""
    player = get_object_or_404(get_user_model(), username=username)
    return _report_page(
        request,
        _("the player %(name)s") % {"name": player.username},
        lambda reason: report(request.user, reason, user=player),
        reverse("profile", args=[player.username]),
    )
