"""Views of the card room, one module per area."""

from __future__ import annotations

from django.http import Http404

from ..catalog import Game, get_game


def game_or_404(name: str) -> Game:
    """The game ``name``, or a 404 for a game the site does not offer."""
    try:
        return get_game(name)
    except LookupError:
        raise Http404 from None
