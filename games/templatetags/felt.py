"""``{% felt_players players %}`` and ``{% trick_area trick resting %}``: the Belote felt.

Built in Python and kept per language and player, like the cards of ``cards``: a table's felt
changes with every move, but of its four players only the one who moved and the one whose
turn it is now read differently, and a template for each place costs more than the rest of
the frame around it.
"""

from __future__ import annotations

import functools
from html import escape

from django import template
from django.template import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..presenters.belote import FeltPlayer
from .cards import (
    active_language,
    call_name_in,
    card_count_in,
    card_html_in,
    declaration_name_in,
)

register = template.Library()


@register.simple_tag(takes_context=True)
def felt_players(context: Context, players: list[FeltPlayer]) -> SafeString:
    """Each player's place: name, dealer chip, turn, card count, bubbles (calls, declarations)."""
    language = active_language(context)
    return mark_safe("".join(_felt_player_in(language, player) for player in players))


@register.simple_tag(takes_context=True)
def trick_area(context: Context, trick: list[dict], resting: dict | None) -> SafeString:
    """The trick being played (``{"seat", "card"}`` items), or the last one resting on the
    felt until the next lead, with who took it."""
    language = active_language(context)
    words = _words_in(language)
    cards = [_trick_card(language, t, "") for t in trick]
    if resting:
        cards += [_trick_card(language, t, " resting") for t in resting["cards"]]
        took = _("%(name)s took the trick") % {"name": escape(resting["winner_name"])}
        cards.append(f'<p class="trick-note">{took}</p>')
    return mark_safe(f'<div class="trick" aria-label="{words["trick"]}">{"".join(cards)}</div>')


def _trick_card(language: str | None, played: dict, extra_class: str) -> str:
    card = card_html_in(language, played["card"], "")
    return f'<div class="trick-card at-{played["seat"]}{extra_class}">{card}</div>'


@functools.lru_cache(maxsize=8192)
def _felt_player_in(language: str | None, p: FeltPlayer) -> SafeString:
    words = _words_in(language)
    dealer = words["dealer_chip"] if p.is_dealer else ""
    turn = words["turn_label"] if p.is_active else ""
    bubbles = [call_name_in(language, p.call)] if p.call else []
    bubbles += [declaration_name_in(language, kind) for kind in p.announced]
    return mark_safe(
        f'<div class="player at-{p.index}{" active" if p.is_active else ""}">'
        f'<span class="player-name">{escape(p.name)}{words["you_label"]}</span>{dealer}{turn}'
        f'<span class="hand-count">{escape(card_count_in(language, p.hand_size))}</span>'
        + "".join(f'<span class="bubble">{escape(bubble)}</span>' for bubble in bubbles)
        + "</div>"
    )


@functools.cache
def _words_in(language: str | None) -> dict[str, str]:
    """The fixed parts of a place, translated once per language (the active one)."""
    return {
        "dealer_chip": format_html(
            '<span class="chip" title="{}">{}</span>', _("Dealer"), _("dealer")
        ),
        "turn_label": format_html('<span class="turn-label">{}</span>', _("to play")),
        "you_label": format_html('<span class="you-label"> ({})</span>', _("you")),
        "trick": escape(_("Current trick")),
    }
