"""Template helpers for cards and calls: symbols, colours and names in words."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from .per_language import per_language

register = template.Library()

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_TEXT = {"T": "10"}
SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
RANK_NAMES = {
    "A": pgettext_lazy("card", "Ace"),
    "2": pgettext_lazy("card", "Two"),
    "3": pgettext_lazy("card", "Three"),
    "4": pgettext_lazy("card", "Four"),
    "5": pgettext_lazy("card", "Five"),
    "6": pgettext_lazy("card", "Six"),
    "7": pgettext_lazy("card", "Seven"),
    "8": pgettext_lazy("card", "Eight"),
    "9": pgettext_lazy("card", "Nine"),
    "T": pgettext_lazy("card", "Ten"),
    "J": pgettext_lazy("card", "Jack"),
    "Q": pgettext_lazy("card", "Queen"),
    "K": pgettext_lazy("card", "King"),
}


CALL_NAMES = {
    "pass": gettext_lazy("Pass"),
    "C": gettext_lazy("Clubs"),
    "D": gettext_lazy("Diamonds"),
    "H": gettext_lazy("Hearts"),
    "S": gettext_lazy("Spades"),
    "NT": gettext_lazy("No trumps"),
    "AT": gettext_lazy("All trumps"),
    "contra": gettext_lazy("Contra"),
    "recontra": gettext_lazy("Recontra"),
}


@register.filter
@per_language
def card_name(code: str) -> str:
    """``"JH"`` → "Jack of hearts"."""
    return _("%(rank)s of %(suit)s") % {
        "rank": str(RANK_NAMES[code[0]]),
        "suit": str(SUIT_NAMES[code[1]]),
    }


@register.filter
@per_language
def card_label(code: str) -> str:
    """What a card shows, then its name: ``"QC"`` → "Q♣ Queen of clubs".

    A card button's accessible name starts with it, so that a player who speaks a button's
    visible label to a voice control reaches it (WCAG 2.5.3).
    """
    return f"{rank_text(code)}{suit_symbol(code)} {card_name(code)}"


@register.filter
def rank_text(code: str) -> str:
    """The rank as printed on the card: ``"TH"`` → "10"."""
    return RANK_TEXT.get(code[0], code[0])


@register.filter
def suit_symbol(code: str) -> str:
    """The suit symbol of a card code or a suit letter."""
    return SUIT_SYMBOLS.get(code[-1], "")


@register.filter
def suit_colour(code: str) -> str:
    """ "red" for hearts and diamonds, "black" otherwise (a CSS class)."""
    return "red" if code[-1] in "DH" else "black"


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
    cards = "".join(_hand_card(h["card"], bool(h["playable"])) for h in hand)
    return format_html(
        '<div class="hand" role="group" aria-label="{}">{}</div>', _("Your hand"), mark_safe(cards)
    )


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


@register.filter
@per_language
def card_count(count: int) -> str:
    """``5`` → "5 cards" (how many cards a player holds)."""
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


@register.filter
def call_name(call: str) -> str:
    """A Belote call in words: ``"H"`` → "Hearts", ``"NT"`` → "No trumps"."""
    name = CALL_NAMES.get(call)
    return call if name is None else str(name)


@register.filter
def call_symbol(call: str) -> str:
    """A short label for a call: the suit symbol for suits, else the name."""
    return SUIT_SYMBOLS.get(call, "") or call_name(call)


@register.simple_tag
def call_panel(calls: list[str]) -> SafeString:
    """The auction panel: a button for each call the player may make (none: no panel)."""
    if not calls:
        return mark_safe("")
    return format_html(
        '<div class="auction-panel" role="group" aria-label="{}">{}</div>',
        _("Your call"),
        mark_safe("".join(_call_button(call) for call in calls)),
    )


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
    return _by_name(
        auction, names, lambda name, call: f"<li>{name}: {escape(call_name(call))}</li>"
    )


@register.simple_tag
def trick_line(cards: list, names: dict[int, str]) -> SafeString:
    """A trick's cards (``[seat, card]`` pairs) after their players' names, small."""
    return _by_name(cards, names, lambda name, code: f"{name}: {card(code, 'small')} ")


def _by_name(pairs: list, names: dict[int, str], item) -> SafeString:
    """``item(name, value)`` for each ``[seat, value]`` pair, with the seat's name escaped."""
    return mark_safe("".join(item(escape(names.get(seat, "")), value) for seat, value in pairs))


DECLARATION_NAMES = {
    "tierce": gettext_lazy("Tierce"),
    "quarte": gettext_lazy("Quarte"),
    "quinte": gettext_lazy("Quinte"),
    "carre": gettext_lazy("Carré"),
    "belot": gettext_lazy("Belot"),
}


@register.filter
def declaration_name(kind: str) -> str:
    """``"quarte"`` → "Quarte" (translated)."""
    name = DECLARATION_NAMES.get(kind)
    return kind if name is None else str(name)


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``names|get_item:seat``: look a key up in a dict from a template."""
    return mapping.get(key, "")
