"""The home page: a welcome for visitors, the lobby for players."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..events import cups, daily
from ..tables.lobby import lobby_context, quick_games
from .tables import new_table_forms, play_now_commitment


def home(request: HttpRequest) -> HttpResponse:
    """Welcome page; logged-in players see the lobby with the new-table form."""
    if not request.user.is_authenticated:
        context = {
            "quick_games": quick_games(),
            "cups": cups.listed(),
            "daily": daily.summary(request.user),
        }
        return render(request, "games/home.html", context)
    context = lobby_context(request.user)
    context.update(
        new_table_forms(), play_now_commitment=play_now_commitment(request), cups=cups.listed()
    )
    context["daily"] = daily.summary(request.user)
    return render(request, "games/lobby.html", context)
