"""Template helpers for cards and calls: the words (``games.presenters.words``) as filters, and
the HTML of cards, hands and call panels."""

from __future__ import annotations

from html import escape

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..presenters.words import (
    SUIT_SYMBOLS,
    call_name,
    call_symbol,
    card_count,
    card_label,
    card_name,
    declaration_name,
    per_language,
    rank_text,
    suit_colour,
    suit_symbol,
)

register = template.Library()
for _word in (
    card_name,
    card_label,
    rank_text,
    suit_symbol,
    suit_colour,
    card_count,
    call_name,
    call_symbol,
    declaration_name,
):
    register.filter(_word.__name__, _word)


@register.simple_tag
@per_language
def card(code: str, extra_class: str = "") -> SafeString:
    """A face-up card that is not a button (trick, table piles, score sheet)."""
    return format_html(
        '<span class="playing-card {} {}" role="img" aria-label="{}">'
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span></span>',
        suit_colour(code),
        extra_class,
        card_name(code),
        rank_text(code),
        suit_symbol(code),
    )


@register.simple_tag
def hand_group(hand: list[dict]) -> SafeString:
    """The player's hand (``{"card", "playable"}`` items), each card a button that plays it or
    a disabled one, in its labelled group (sent after most moves: one tag is cheaper than a
    template's loop)."""
    language = get_language()
    card = _hand_card.in_language
    cards = "".join(card(language, h["card"], bool(h["playable"])) for h in hand)
    label = _your_hand.in_language(language)
    return SafeString(f'<div class="hand" role="group" aria-label="{label}">{cards}</div>')


@per_language
def _your_hand() -> str:
    return escape(_("Your hand"))


@per_language
def _hand_card(code: str, playable: bool) -> SafeString:
    face = format_html(
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span>',
        rank_text(code),
        suit_symbol(code),
    )
    label = card_label(code)
    if not playable:
        return format_html(
            '<button type="button" class="playing-card {}" disabled aria-label="{}">{}</button>',
            suit_colour(code),
            label,
            face,
        )
    return format_html(
        '<button type="button" class="playing-card {} playable" ws-send name="action" '
        'value="{}" aria-label="{}">{}</button>',
        suit_colour(code),
        code,
        label,
        face,
    )


@register.simple_tag(takes_context=True)
def call_panel(context: template.Context) -> SafeString:
    """What the player may say: in the auction a button for each call they may make
    (``calls``); in play what their next card announces, each to announce or keep quiet
    (``announce``). Read from the context: a tag's arguments cost more on every move."""
    calls = context.get("calls")
    if not calls:
        announce = context.get("announce")
        if announce:
            return SafeString(
                render_to_string("games/belote/announce_choice.html", {"announce": announce})
            )
        return SafeString("")
    language = get_language()
    button = _call_button.in_language
    label = _your_call.in_language(language)
    buttons = "".join(button(language, call) for call in calls)
    return SafeString(
        f'<div class="auction-panel" role="group" aria-label="{label}">{buttons}</div>'
    )


@per_language
def _your_call() -> str:
    return escape(_("Your call"))


@per_language
def _call_button(call: str) -> SafeString:
    name = call_name(call)
    symbol = SUIT_SYMBOLS.get(call)
    label = f"{symbol} {name}" if symbol else name  # starts with what the button shows
    return format_html(
        '<button type="button" class="button call-button call-{}" ws-send name="action" '
        'value="{}" aria-label="{}">{}</button>',
        call,
        call,
        label,
        call_symbol(call),
    )


@register.simple_tag
def auction_items(auction: list, names: dict[int, str]) -> SafeString:
    """The calls made so far (``[seat, call]`` pairs), a list item each: "Ivan: Hearts"."""
    named = call_name.in_language
    language = get_language()
    return _by_name(
        auction, names, lambda name, call: f"<li>{name}: {escape(named(language, call))}</li>"
    )


@register.simple_tag
def trick_line(cards: list, names: dict[int, str]) -> SafeString:
    """A trick's cards (``[seat, card]`` pairs) after their players' names, small."""
    face = card.in_language
    language = get_language()
    return _by_name(cards, names, lambda name, code: f"{name}: {face(language, code, 'small')} ")


def _by_name(pairs: list, names: dict[int, str], item) -> SafeString:
    """``item(name, value)`` for each ``[seat, value]`` pair, with the seat's name escaped."""
    return SafeString("".join(item(escape(names.get(seat, "")), value) for seat, value in pairs))


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``names|get_item:seat``: look a key up in a dict from a template."""
    return mapping.get(key, "")
