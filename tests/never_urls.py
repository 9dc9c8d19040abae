"""The site's URLs plus a view that never answers (``tests.never_settings``)."""

from __future__ import annotations

import asyncio

from django.http import HttpRequest, HttpResponse
from django.urls import path

from cardroom.urls import urlpatterns as site_urlpatterns


async def never_answers(request: HttpRequest) -> HttpResponse:
    """Wait until the server gives up on the request (it is cancelled then)."""
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


urlpatterns = [path("test/never-answers/", never_answers), *site_urlpatterns]
