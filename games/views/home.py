"""The home page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Welcome page; logged-in players see the lobby."""
    return render(request, "games/home.html")
