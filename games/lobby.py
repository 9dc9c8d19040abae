"""The lobby's list of tables (page and live frames share it)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Prefetch, Q
from django.template.loader import render_to_string

from .models import Seat, Table

LOBBY_SIZE = 50


def lobby_tables() -> list[Table]:
    """Open and running public tables, most recently active first, with their seats."""
    return list(
        Table.objects.filter(is_private=False, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .select_related("owner")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .annotate(free_seats=Count("seats", filter=Q(seats__user=None, seats__bot_level="")))
        .order_by("-updated_at")[:LOBBY_SIZE]
    )


def lobby_context(user: AbstractBaseUser) -> dict[str, Any]:
    return {"tables": lobby_tables(), "user": user}


def render_lobby_frame(tables: list[Table] | None = None) -> str:
    """Render the live lobby list (swapped by id) in the active language; the same for every
    user. ``tables``: a read of :func:`lobby_tables` to reuse."""
    if tables is None:
        tables = lobby_tables()
    return render_to_string("games/partials/lobby_tables.html", {"tables": tables})
