"""Views of the card room, one module per area."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from ..catalog import Game, get_game


def game_or_404(name: str) -> Game:
    """The game ``name``, or a 404 for a game the site does not offer."""
    try:
        return get_game(name)
    except LookupError:
        raise Http404 from None


def next_url(request: HttpRequest, default: str) -> str:
    """Where to go next: the request's ``next`` when it is a page of this site, else ``default``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else default
