"""The site's language: the browser's at first (``LocaleMiddleware``), then the one a visitor
picks with the switcher (a cookie), and for a logged-in player the one their profile keeps,
which follows them to every device they log in on. Sockets read the same cookie."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from ..models import Profile

#: The session key holding a logged-in player's language (from their profile).
SESSION_KEY = "language"


def _set_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the site's language (the navigation's switcher) and go back to the page."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest()
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    response = redirect(back)
    _set_cookie(response, language)
    if request.user.is_authenticated:
        Profile.objects.update_or_create(user=request.user, defaults={"language": language})
        request.session[SESSION_KEY] = language
    return response


def remember_on_login(
    sender: type[AbstractBaseUser], request: HttpRequest, user: AbstractBaseUser, **kwargs: object
) -> None:
    """A player who logs in gets the language their profile keeps (``user_logged_in``)."""
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if language:
        request.session[SESSION_KEY] = language


class AccountLanguageMiddleware:
    """Show a logged-in player's pages in their profile's language (kept in the session at log
    in), and give the browser the matching cookie for its sockets. After ``LocaleMiddleware``
    and the session's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        language = session.get(SESSION_KEY) if session is not None else None
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            _set_cookie(response, language)
        return response
