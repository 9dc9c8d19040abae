"""Websocket handshakes are accepted only from the site's own pages.

A browser sends the page's origin (scheme, host and port) with every websocket. It must be the
origin of the address the socket was opened on, or one of ``CSRF_TRUSTED_ORIGINS`` (exact, or
``https://*.example.com`` for subdomains): the rule Django's CSRF check applies to forms.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

from .proxies import header, websocket_scheme


def origin_allowed(scope: dict) -> bool:
    """Whether the handshake in ``scope`` comes from a page of this site."""
    headers = scope.get("headers", ())
    origin = header(headers, b"origin")
    host = header(headers, b"host")
    if not origin or origin == "null":
        return False
    own = f"{websocket_scheme(scope)}://{host}"
    if host and origin == own and validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        return True
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    return any(
        "*" in trusted
        and urlsplit(trusted).scheme == parts.scheme
        and is_same_domain(parts.netloc, urlsplit(trusted).netloc.lstrip("*"))
        for trusted in settings.CSRF_TRUSTED_ORIGINS
    )


class SameOriginValidator:
    """ASGI middleware: refuse websocket handshakes from other origins (close code 1006)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
