"""``{% felt_players players %}`` and ``{% trick_area trick resting %}``: the Belote felt;
``{% computer_mark %}``: its mark beside a computer's name, wherever it shows.

Built in Python and kept per language and player, like the cards of ``cards``: a table's felt
changes with every move, but of its four players only the one who moved and the one whose
turn it is now read differently, and a template for each place costs more than the rest of
the frame around it.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..presenters.belote import FeltPlayer
from ..presenters.words import call_name, card_count, declaration_call, per_language
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
    return SafeString("".join(places))


@register.simple_tag
def trick_area(trick: list[dict], resting: dict | None) -> SafeString:
    """The trick being played (``{"seat", "card"}`` items), or the last one resting on the
    felt until the next lead, its winning card marked and its taker named below the cards."""
    language = get_language()
    words = _trick_words.in_language(language)
    face = card.in_language
    cards = [
        f'<div class="trick-card at-{t["seat"]}">{face(language, t["card"])}</div>' for t in trick
    ]
    if resting:
        winner = resting.get("winner")
        for t in resting["cards"]:
            won = " won" if t["seat"] == winner else ""
            card_html = face(language, t["card"])
            cards.append(f'<div class="trick-card at-{t["seat"]} resting{won}">{card_html}</div>')
        took = words["took"] % {"name": escape(resting["winner_name"])}
        cards.append(f'<p class="trick-note">{took}</p>')
    label = words["label"]
    return SafeString(
        f'<div class="trick" role="group" aria-label="{label}">{"".join(cards)}</div>'
    )


@per_language
def _trick_words() -> dict[str, str]:
    return {"took": _("%(name)s took the trick"), "label": escape(_("Current trick"))}


#: A screen drawn beside a computer's name (a glyph would need an emoji font).
COMPUTER_MARK = (
    '<svg class="computer-mark" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14">'
    '<rect x="1.5" y="2.5" width="13" height="9" rx="1" fill="none" stroke="currentColor"/>'
    '<path d="M5 14.5h6M8 11.5v3" stroke="currentColor"/></svg>'
)


@register.simple_tag
def computer_mark() -> SafeString:
    """The felt's computer mark, for computers named elsewhere (hidden from screen readers:
    the words beside it say it)."""
    return SafeString(COMPUTER_MARK)


@register.simple_tag
def player_name(name: str, computer: bool = False) -> SafeString:
    """A player's short name as the table's lines show it: a computer's with its mark (and,
    for screen readers, the words that say it)."""
    if not computer:
        return SafeString(escape(name))
    said = escape(_("computer player"))
    return SafeString(
        f'<span class="computer-name">{escape(name)}{COMPUTER_MARK}'
        f'<span class="visually-hidden"> ({said})</span></span>'
    )


@per_language(maxsize=8192, takes_language=True)
def felt_player(language: str | None, p: FeltPlayer) -> SafeString:
    """One player's place on the felt."""
    words = _place_words.in_language(language)
    dealer = words["dealer"] if p.is_dealer else ""
    turn = words["turn"] if p.is_active else ""
    you = words["you"]
    count = escape(card_count.in_language(language, p.hand_size)) if p.hand_size else ""
    bubbles = [call_name.in_language(language, p.call)] if p.call else []
    bubbles += [declaration_call.in_language(language, kind) for kind in p.announced]
    name = escape(p.name)
    if p.computer:  # the first name and a mark; the whole name (with the level) when asked
        whole = escape(p.computer)
        name = (
            f'<span class="player-name" title="{whole}"><span aria-hidden="true">{name}</span>'
            f"{COMPUTER_MARK}"
            f'<span class="visually-hidden">{whole}</span>{you}</span>'
        )
    else:
        name = f'<span class="player-name">{name}{you}</span>'
    return SafeString(
        f'<div class="player at-{p.index}{" active" if p.is_active else ""}">'
        f"{name}{dealer}{turn}"
        + (f'<span class="hand-count">{count}</span>' if count else "")
        + "".join(f'<span class="bubble">{escape(bubble)}</span>' for bubble in bubbles)
        + "</div>"
    )


@per_language
def _place_words() -> dict[str, SafeString]:
    """The words of a player's place, the same for every place."""
    return {
        "dealer": format_html('<span class="chip" title="{}">{}</span>', _("Dealer"), _("dealer")),
        "turn": format_html('<span class="turn-label">{}</span>', _("to play")),
        "you": format_html('<span class="you-label"> ({})</span>', _("you")),
    }
