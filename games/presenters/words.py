"""The cards' and calls' words, in the active language: what presenters and template tags
both say ("Jack of hearts", "No trumps", "Quarte").

:func:`per_language` is the one cache for them: a live frame names dozens of cards to several
players, and translating and formatting each one again costs more than the rest of the frame's
rendering (``manage.py bench moves``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.utils.translation import (
    get_language,
    gettext_lazy,
    ngettext,
    pgettext,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

P = ParamSpec("P")
R = TypeVar("R")


def per_language(
    function: Callable[P, R] | None = None,
    *,
    maxsize: int | None = None,
    takes_language: bool = False,
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep ``function``'s results by active language and (hashable) arguments; ``maxsize``
    bounds how many are kept (None: all, for arguments from a small set such as cards).
    ``takes_language``: ``function``'s first argument is the language, to hand on to the
    ``in_language`` of the words it uses instead of looking it up again."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.lru_cache(maxsize=maxsize)
        def in_language(language: str | None, *args):
            return function(language, *args) if takes_language else function(*args)

        @functools.wraps(function)
        def cached(*args):
            return in_language(get_language(), *args)

        cached.in_language = in_language  # type: ignore[attr-defined]  (language known already)
        cached.cache_info = in_language.cache_info  # type: ignore[attr-defined]
        cached.cache_clear = in_language.cache_clear  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return decorate(function) if function is not None else decorate


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


#: A card's rank as the object of a sentence ("plays the Queen"): Russian takes another case
#: ("кладёт даму"), and both Russian and Bulgarian write it in lower case inside a sentence.
RANK_OBJECTS = {
    "A": pgettext_lazy("card, as an object", "Ace"),
    "2": pgettext_lazy("card, as an object", "Two"),
    "3": pgettext_lazy("card, as an object", "Three"),
    "4": pgettext_lazy("card, as an object", "Four"),
    "5": pgettext_lazy("card, as an object", "Five"),
    "6": pgettext_lazy("card, as an object", "Six"),
    "7": pgettext_lazy("card, as an object", "Seven"),
    "8": pgettext_lazy("card, as an object", "Eight"),
    "9": pgettext_lazy("card, as an object", "Nine"),
    "T": pgettext_lazy("card, as an object", "Ten"),
    "J": pgettext_lazy("card, as an object", "Jack"),
    "Q": pgettext_lazy("card, as an object", "Queen"),
    "K": pgettext_lazy("card, as an object", "King"),
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


DECLARATION_NAMES = {
    "tierce": gettext_lazy("Tierce"),
    "quarte": gettext_lazy("Quarte"),
    "quinte": gettext_lazy("Quinte"),
    "carre": gettext_lazy("Carré"),
    "belot": gettext_lazy("Belot"),
}


@per_language
def card_name(code: str) -> str:
    """``"JH"`` → "Jack of hearts"."""
    return _("%(rank)s of %(suit)s") % {
        "rank": str(RANK_NAMES[code[0]]),
        "suit": str(SUIT_NAMES[code[1]]),
    }


@per_language
def card_object(code: str) -> str:
    """A card as the object of a sentence: ``"QS"`` → "Queen of spades" (Russian "даму пик")."""
    return pgettext("card, as an object", "%(rank)s of %(suit)s") % {
        "rank": str(RANK_OBJECTS[code[0]]),
        "suit": str(SUIT_NAMES[code[1]]),
    }


@per_language
def card_label(code: str) -> str:
    """What a card shows, then its name: ``"QC"`` → "Q♣ Queen of clubs".

    A card button's accessible name starts with it, so that a player who speaks a button's
    visible label to a voice control reaches it (WCAG 2.5.3).
    """
    return f"{rank_text(code)}{suit_symbol(code)} {card_name(code)}"


def rank_text(code: str) -> str:
    """The rank as printed on the card: ``"TH"`` → "10"."""
    return RANK_TEXT.get(code[0], code[0])


def suit_symbol(code: str) -> str:
    """The suit symbol of a card code or a suit letter."""
    return SUIT_SYMBOLS.get(code[-1], "")


def suit_colour(code: str) -> str:
    """ "red" for hearts and diamonds, "black" otherwise (a CSS class)."""
    return "red" if code[-1] in "DH" else "black"


@per_language
def card_count(count: int) -> str:
    """``5`` → "5 cards" (how many cards a player holds)."""
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


@per_language
def call_name(call: str) -> str:
    """A Belote call in words: ``"H"`` → "Hearts", ``"NT"`` → "No trumps"."""
    name = CALL_NAMES.get(call)
    return call if name is None else str(name)


def call_symbol(call: str) -> str:
    """A short label for a call: the suit symbol for suits, else the name."""
    return SUIT_SYMBOLS.get(call, "") or call_name(call)


#: A declaration as a player says it at the table, on the felt's bubbles (Bulgarian players say
#: "50" and "100" for a quarte and a quinte).
DECLARATION_CALLS = {
    "tierce": pgettext_lazy("said at the table", "Tierce"),
    "quarte": pgettext_lazy("said at the table", "Quarte"),
    "quinte": pgettext_lazy("said at the table", "Quinte"),
    "carre": pgettext_lazy("said at the table", "Carré"),
    "belot": pgettext_lazy("said at the table", "Belot"),
}


@per_language
def declaration_call(kind: str) -> str:
    """``"quarte"`` as said at the table: "Quarte" (Bulgarian "50")."""
    name = DECLARATION_CALLS.get(kind)
    return kind if name is None else str(name)


@per_language
def declaration_name(kind: str) -> str:
    """``"quarte"`` → "Quarte" (translated)."""
    name = DECLARATION_NAMES.get(kind)
    return kind if name is None else str(name)


def seats_label(numbers: list[int]) -> str:
    """Seats by number, joined in the words of the language: "Seat 2", "Seats 1 & 3",
    "Seats 2, 4, 6 & 8" (Bulgarian "Места 1 и 3")."""
    if len(numbers) == 1:
        return _("Seat %(number)s") % {"number": numbers[0]}
    listed = ", ".join(str(number) for number in numbers[:-1])
    return _("Seats %(seats)s & %(last)s") % {"seats": listed, "last": numbers[-1]}
