"""Views of the card room, one module per area."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVarTuple, Unpack

from django.contrib import messages
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect

from ..catalog import Game, get_game
from ..refusals import Refusal


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


Args = TypeVarTuple("Args")


def done(
    request: HttpRequest,
    then: Model | str,
    action: Callable[[Unpack[Args]], object],
    *args: *Args,
    said: str = "",
) -> HttpResponse:
    """Do ``action(*args)`` and go to ``then`` (a model, a URL or a view's name), whose page
    says what was done (the words the action returns, else ``said``) or, when it is a
    :class:`Refusal`, why not: nothing changed then.

    An action whose success goes elsewhere returns its own response.
    """
    try:
        outcome = action(*args)
    except Refusal as refusal:
        messages.error(request, str(refusal))
    else:
        if isinstance(outcome, HttpResponse):
            return outcome
        words = outcome if isinstance(outcome, str) and outcome else said
        if words:
            messages.success(request, words)
    target = resolve_url(then)
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)
