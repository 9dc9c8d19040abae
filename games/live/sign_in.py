"""Who a websocket belongs to: channels' ``AuthMiddlewareStack``, its read made as an arrival.

Channels reads the session and its user on the live thread, where a server's moves queue; after
a restart every page the stopped server held signs in again at once (``database.run_arrival``).
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from . import database


class ArrivalAuthMiddleware(AuthMiddleware):
    """``AuthMiddleware`` whose read of the session and user runs as an arrival."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await database.run_arrival(get_user.func, scope)


def signed_in(inner: Any) -> CookieMiddleware:
    """``AuthMiddlewareStack(inner)``, reading the user as an arrival."""
    return CookieMiddleware(SessionMiddleware(ArrivalAuthMiddleware(inner)))
