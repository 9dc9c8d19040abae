"""The lobby's list of tables (page and live frames share it)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Prefetch, Q
from django.template.loader import render_to_string
from django.utils.translation import ngettext

from ..catalog import all_games
from ..models import Seat, Table
from ..people import access
from .quick import default_options, match_in_progress

LOBBY_SIZE = 50
#: The tables of their own a player sees listed.
MY_TABLES = 50


def lobby_tables() -> list[Table]:
    """Open and running public tables, most recently active first, with their seats (and,
    as ``game_spec``, their game)."""
    tables = list(
        Table.objects.filter(
            access.LISTED_TO_ALL, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
        )
        .select_related("owner")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .annotate(
            free_seats=Count("seats", filter=Q(seats__user=None, seats__bot_level="")),
            # A quick table's computer players give their seats to people who press "Play now".
            computer_seats=Count("seats", filter=Q(seats__user=None) & ~Q(seats__bot_level="")),
        )
        .order_by("-updated_at")[:LOBBY_SIZE]
    )
    games = {game.name: game for game in all_games()}
    for table in tables:
        table.game_spec = games.get(table.game)
    return tables


def lobby_context(user: AbstractBaseUser) -> dict[str, object]:
    # Beside each game's "Play now", a match in progress the player may choose to join.
    offered = [
        {**game, "in_progress": match_in_progress(user, game["name"])} for game in quick_games()
    ]
    return {
        "tables": lobby_tables(),
        "user": user,
        "quick_games": offered,
        "my_tables": my_tables(user),
    }


def my_tables(user: AbstractBaseUser) -> list[Table]:
    """The latest :data:`MY_TABLES` tables ``user`` opened or sits at that wait for players or
    play, newest first (an event's tables are the event's, not its creator's: only those they
    sit at)."""
    tables = list(
        Table.objects.filter(Q(owner=user, event_table__isnull=True) | Q(seats__user=user))
        .filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .distinct()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[:MY_TABLES]
    )
    return tables


def quick_games() -> list[dict[str, str]]:
    """The games "Play now" offers, with who a new quick table seats besides the player."""
    games = []
    for game in all_games():
        computers = game.seat_count(default_options(game.name)) - 1
        games.append(
            {
                "name": game.name,
                "label": game.label,
                "with": ngettext(
                    "You and %(count)d computer player",
                    "You and %(count)d computer players",
                    computers,
                )
                % {"count": computers},
            }
        )
    return games


def render_lobby_frame(tables: list[Table] | None = None) -> str:
    """Render the live lobby list (swapped by id) in the active language; the same for every
    user. ``tables``: a read of :func:`lobby_tables` to reuse."""
    if tables is None:
        tables = lobby_tables()
    return render_to_string("games/partials/lobby_tables.html", {"tables": tables})
