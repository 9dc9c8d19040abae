"""``{% felt_players players %}``: the players' places around the Belote felt.

Built in Python and kept per language and player, like the cards of ``cards``: a table's felt
changes with every move, but of its four players only the one who moved and the one whose
turn it is now read differently, and a template for each place cost more than the rest of
the frame around it (``manage.py loadtest``).
"""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..presenters.belote import FeltPlayer
from .cards import call_name, card_count, declaration_name

register = template.Library()


@register.simple_tag
def felt_players(players: list[FeltPlayer]) -> SafeString:
    """Each player's place: name, dealer chip, turn, card count, bubbles (calls, declarations)."""
    language = get_language()
    return mark_safe("".join(_felt_player_in(language, player) for player in players))


@functools.lru_cache(maxsize=8192)
def _felt_player_in(language: str | None, p: FeltPlayer) -> SafeString:
    dealer = (
        format_html('<span class="chip" title="{}">{}</span>', _("Dealer"), _("dealer"))
        if p.is_dealer
        else ""
    )
    turn = format_html('<span class="turn-label">{}</span>', _("to play")) if p.is_active else ""
    bubbles = [call_name(p.call)] if p.call else []
    bubbles += [declaration_name(kind) for kind in p.announced]
    return format_html(
        '<div class="player at-{}{}"><span class="player-name">{}'
        '<span class="you-label"> ({})</span></span>{}{}'
        '<span class="hand-count">{}</span>{}</div>',
        p.index,
        " active" if p.is_active else "",
        p.name,
        _("you"),
        dealer,
        turn,
        card_count(p.hand_size),
        format_html_join("", '<span class="bubble">{}</span>', ((b,) for b in bubbles)),
    )
