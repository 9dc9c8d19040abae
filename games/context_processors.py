"""Template context for every page."""

from __future__ import annotations

from django.http import HttpRequest

from .people.moderation import active_mute


def sanctions(request: HttpRequest) -> dict:
    """A muted player sees why and until when, on every page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"active_mute": active_mute(user)}
