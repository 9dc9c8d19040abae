"""Template helpers for cards and calls: symbols, colours and names in words."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

register = template.Library()

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_TEXT = {"T": "10"}


def _suit_names() -> dict[str, str]:
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}


def _rank_names() -> dict[str, str]:
    return {
        "A": pgettext("card", "Ace"),
        "2": pgettext("card", "Two"),
        "3": pgettext("card", "Three"),
        "4": pgettext("card", "Four"),
        "5": pgettext("card", "Five"),
        "6": pgettext("card", "Six"),
        "7": pgettext("card", "Seven"),
        "8": pgettext("card", "Eight"),
        "9": pgettext("card", "Nine"),
        "T": pgettext("card", "Ten"),
        "J": pgettext("card", "Jack"),
        "Q": pgettext("card", "Queen"),
        "K": pgettext("card", "King"),
    }


@register.filter
def card_name(code: str) -> str:
    """``"JH"`` → "Jack of hearts"."""
    return _("%(rank)s of %(suit)s") % {
        "rank": _rank_names()[code[0]],
        "suit": _suit_names()[code[1]],
    }


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


@register.filter
def call_name(call: str) -> str:
    """A Belote call in words: ``"H"`` → "Hearts", ``"NT"`` → "No trumps"."""
    names = {
        "pass": _("Pass"),
        "C": _("Clubs"),
        "D": _("Diamonds"),
        "H": _("Hearts"),
        "S": _("Spades"),
        "NT": _("No trumps"),
        "AT": _("All trumps"),
        "contra": _("Contra"),
        "recontra": _("Recontra"),
    }
    return names.get(call, call)


@register.filter
def call_symbol(call: str) -> str:
    """A short label for a call: the suit symbol for suits, else the name."""
    return SUIT_SYMBOLS.get(call, "") or call_name(call)


@register.filter
def declaration_name(kind: str) -> str:
    """``"quarte"`` → "Quarte" (translated)."""
    names = {
        "tierce": _("Tierce"),
        "quarte": _("Quarte"),
        "quinte": _("Quinte"),
        "carre": _("Carré"),
        "belot": _("Belot"),
    }
    return names.get(kind, kind)


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``names|get_item:seat``: look a key up in a dict from a template."""
    return mapping.get(key, "")
