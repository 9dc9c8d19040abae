"""The client's real address and scheme when trusted reverse proxies stand in front of the site.

Each trusted proxy appends the address it received the request from to ``X-Forwarded-For``.
With ``TRUSTED_PROXIES`` = N, the client is therefore the N-th address from the right; what
stands left of it came from the client and is ignored. With no proxy configured the headers
are ignored altogether. (python-ipware counts proxies in another header layout, hence this.)
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest


def forwarded_client(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address, from the connection's peer and its ``X-Forwarded-For``."""
    count = settings.TRUSTED_PROXIES
    if not count:
        return peer
    hops = [hop.strip() for hop in (forwarded_for or "").split(",") if hop.strip()]
    if not hops:
        return peer
    return hops[-count] if len(hops) >= count else hops[0]


def client_ip(request: HttpRequest) -> str | None:
    """The address a request came from (django-axes and every per-address limit use it)."""
    return forwarded_client(
        request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR")
    )


def header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """An ASGI scope's header, decoded (None when absent)."""
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return None


def websocket_scheme(scope: dict) -> str:
    """The page scheme (``http`` or ``https``) a websocket was opened from."""
    if settings.TRUSTED_PROXIES:
        proto = header(scope.get("headers", ()), b"x-forwarded-proto")
        if proto:
            return "https" if proto.split(",")[0].strip().lower() == "https" else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"
