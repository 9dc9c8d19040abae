"""Template helpers for cards and calls: symbols, colours and names in words."""

from __future__ import annotations

import functools
from html import escape

from django import template
from django.template import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

register = template.Library()


def active_language(context: Context | dict) -> str | None:
    """The active language: the context's ``LANGUAGE_CODE`` when the frame being rendered
    set it (asking the translation machinery costs more than the rest of a card tag)."""
    return context.get("LANGUAGE_CODE") or get_language()


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_TEXT = {"T": "10"}


# Names are looked up one at a time (a frame names dozens of cards: translating every name
# for each lookup would outweigh the rest of the rendering).
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


# A live frame names a card many times, and every translation lookup goes through the
# active-language machinery: names are translated once per language (the argument that keys
# the cache; the active language translates).
@functools.cache
def _card_name_in(language: str | None, code: str) -> str:
    return _("%(rank)s of %(suit)s") % {
        "rank": str(RANK_NAMES[code[0]]),
        "suit": str(SUIT_NAMES[code[1]]),
    }


@register.filter
def card_name(code: str) -> str:
    """``"JH"`` → "Jack of hearts"."""
    return _card_name_in(get_language(), code)


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


@register.simple_tag(takes_context=True)
def card(context: Context, code: str, extra_class: str = "") -> SafeString:
    """A face-up card that is not a button (trick, table piles, score sheet)."""
    return card_html_in(active_language(context), code, extra_class)


@functools.cache
def card_html_in(language: str | None, code: str, extra_class: str) -> SafeString:
    """The HTML of :func:`card` in ``language`` (the active one), kept per card."""
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


@register.simple_tag(takes_context=True)
def hand_group(context: Context, hand: list[dict]) -> SafeString:
    """The player's hand (``{"card", "playable"}`` items), each card a button that plays it or
    a disabled one, in its labelled group: one tag, as a loop over eight cards and a translated
    label in the template costs more than the cards themselves (it is sent after most moves)."""
    language = active_language(context)
    cards = "".join(_hand_card_in(language, h["card"], bool(h["playable"])) for h in hand)
    return format_html(
        '<div class="hand" role="group" aria-label="{}">{}</div>',
        _group_labels_in(language)["hand"],
        mark_safe(cards),
    )


@functools.cache
def _group_labels_in(language: str | None) -> dict[str, str]:
    return {"hand": _("Your hand"), "calls": _("Your call")}


@functools.cache
def _hand_card_in(language: str | None, code: str, playable: bool) -> SafeString:
    face = format_html(
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span>',
        rank_text(code),
        suit_symbol(code),
    )
    if not playable:
        return format_html(
            '<button type="button" class="playing-card {}" disabled aria-label="{}">{}</button>',
            suit_colour(code),
            card_name(code),
            face,
        )
    return format_html(
        '<button type="button" class="playing-card {} playable" ws-send name="action" '
        'value="{}" aria-label="{}">{}</button>',
        suit_colour(code),
        code,
        _("Play %(card)s") % {"card": card_name(code)},
        face,
    )


@register.filter
def card_count(count: int) -> str:
    """``5`` → "5 cards" (how many cards a player holds)."""
    return card_count_in(get_language(), count)


@functools.cache
def card_count_in(language: str | None, count: int) -> str:
    """:func:`card_count` in ``language`` (the active one), kept per count."""
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


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
def call_name(call: str) -> str:
    """A Belote call in words: ``"H"`` → "Hearts", ``"NT"`` → "No trumps"."""
    return call_name_in(get_language(), call)


def call_name_in(language: str | None, call: str) -> str:
    """:func:`call_name` in ``language`` (the active one)."""
    if call not in CALL_NAMES:
        return call
    return _call_name_in(language, call)


@functools.cache
def _call_name_in(language: str | None, call: str) -> str:
    return str(CALL_NAMES[call])


@register.filter
def call_symbol(call: str) -> str:
    """A short label for a call: the suit symbol for suits, else the name."""
    return call_symbol_in(get_language(), call)


def call_symbol_in(language: str | None, call: str) -> str:
    """:func:`call_symbol` in ``language`` (the active one)."""
    return SUIT_SYMBOLS.get(call, "") or call_name_in(language, call)


@register.simple_tag(takes_context=True)
def call_panel(context: Context, calls: list[str]) -> SafeString:
    """The auction panel: a button for each call the player may make (none: no panel)."""
    if not calls:
        return mark_safe("")
    language = active_language(context)
    return format_html(
        '<div class="auction-panel" role="group" aria-label="{}">{}</div>',
        _group_labels_in(language)["calls"],
        mark_safe("".join(_call_button_in(language, call) for call in calls)),
    )


@functools.cache
def _call_button_in(language: str | None, call: str) -> SafeString:
    name = call_name_in(language, call)
    label = name if call in ("pass", "contra", "recontra") else _("Bid %(c)s") % {"c": name}
    return format_html(
        '<button type="button" class="button call-button call-{}" ws-send name="action" '
        'value="{}" aria-label="{}">{}</button>',
        call,
        call,
        label,
        call_symbol_in(language, call),
    )


@register.simple_tag(takes_context=True)
def auction_items(context: Context, auction: list, names: dict[int, str]) -> SafeString:
    """The calls made so far (``[seat, call]`` pairs), a list item each: "Ivan: Hearts"."""
    language = active_language(context)
    return _by_name(
        auction,
        names,
        lambda name, call: f"<li>{name}: {escape(call_name_in(language, call))}</li>",
    )


@register.simple_tag(takes_context=True)
def trick_line(context: Context, cards: list, names: dict[int, str]) -> SafeString:
    """A trick's cards (``[seat, card]`` pairs) after their players' names, small."""
    language = active_language(context)
    return _by_name(
        cards, names, lambda name, code: f"{name}: {card_html_in(language, code, 'small')} "
    )


def _by_name(pairs: list, names: dict[int, str], item) -> SafeString:
    """``item(name, value)`` for each ``[seat, value]`` pair, with the seat's name escaped."""
    return mark_safe("".join(item(escape(names.get(seat, "")), value) for seat, value in pairs))


@register.filter
def declaration_name(kind: str) -> str:
    """``"quarte"`` → "Quarte" (translated)."""
    return declaration_name_in(get_language(), kind)


def declaration_name_in(language: str | None, kind: str) -> str:
    """:func:`declaration_name` in ``language`` (the active one)."""
    return _declaration_names_in(language).get(kind, kind)


@functools.cache
def _declaration_names_in(language: str | None) -> dict[str, str]:
    return {
        "tierce": _("Tierce"),
        "quarte": _("Quarte"),
        "quinte": _("Quinte"),
        "carre": _("Carré"),
        "belot": _("Belot"),
    }


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``names|get_item:seat``: look a key up in a dict from a template."""
    return mapping.get(key, "")
