"""``{% felt_players players %}`` and ``{% trick_area trick resting %}``: the Belote felt.

Built in Python and kept per language and player, like the cards of ``cards``: a table's felt
changes with every move, but of its four players only the one who moved and the one whose
turn it is now read differently, and a template for each place costs more than the rest of
the frame around it.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..presenters.belote import FeltPlayer
from ..presenters.words import call_name, card_count, declaration_name, per_language
from .cards import card
from .timers import turn_timer

register = template.Library()


@register.simple_tag
def felt_players(
    players: list[FeltPlayer], deadlines: dict[str, int] | None = None, seconds: int = 0
) -> SafeString:
    """Each player's place: name, dealer chip, turn, card count, bubbles (calls, declarations),
    and the turn's countdown for the player on turn (``deadlines``: by seat, when timed)."""
    places = []
    language = get_language()
    for player in players:
        place = felt_player.in_language(language, player)
        deadline = deadlines.get(str(player.index)) if deadlines else None
        if deadline:  # added to the kept place: every turn has a deadline of its own
            place = place[: -len("</div>")] + turn_timer(deadline, seconds, "ring") + "</div>"
        places.append(place)
    return mark_safe("".join(places))


@register.simple_tag
def trick_area(trick: list[dict], resting: dict | None) -> SafeString:
    """The trick being played (``{"seat", "card"}`` items), or the last one resting on the
    felt until the next lead, with who took it."""
    cards = [_trick_card(t, "") for t in trick]
    if resting:
        cards += [_trick_card(t, " resting") for t in resting["cards"]]
        took = _("%(name)s took the trick") % {"name": escape(resting["winner_name"])}
        cards.append(f'<p class="trick-note">{took}</p>')
    label = escape(_("Current trick"))
    return mark_safe(f'<div class="trick" role="group" aria-label="{label}">{"".join(cards)}</div>')


def _trick_card(played: dict, extra_class: str) -> str:
    return f'<div class="trick-card at-{played["seat"]}{extra_class}">{card(played["card"])}</div>'


@per_language(maxsize=8192)
def felt_player(p: FeltPlayer) -> SafeString:
    """One player's place on the felt."""
    dealer = ""
    if p.is_dealer:
        dealer = format_html('<span class="chip" title="{}">{}</span>', _("Dealer"), _("dealer"))
    turn = format_html('<span class="turn-label">{}</span>', _("to play")) if p.is_active else ""
    you = format_html('<span class="you-label"> ({})</span>', _("you"))
    bubbles = [call_name(p.call)] if p.call else []
    bubbles += [declaration_name(kind) for kind in p.announced]
    return mark_safe(
        f'<div class="player at-{p.index}{" active" if p.is_active else ""}">'
        f'<span class="player-name">{escape(p.name)}{you}</span>{dealer}{turn}'
        + (
            f'<span class="hand-count">{escape(card_count(p.hand_size))}</span>'
            if p.hand_size
            else ""
        )
        + "".join(f'<span class="bubble">{escape(bubble)}</span>' for bubble in bubbles)
        + "</div>"
    )
