"""``{% turn_timer deadline seconds shape %}``: the countdown of the seat on turn.

A bar for the player on turn, a ring beside another player's name; ``static/js/countdown.js``
counts it down from ``data-deadline`` (epoch milliseconds) and draws the share of
``data-duration`` (seconds) left, as a file: the Content-Security-Policy allows no inline script.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..presenters import READING_THE_RULES
from ..presenters.words import per_language

register = template.Library()


@register.simple_tag
def turn_timer(deadline_ms: int | None, seconds: int, shape: str = "bar") -> SafeString | str:
    """The countdown to ``deadline_ms`` of a ``seconds`` turn as a ``"bar"`` or a ``"ring"``
    (nothing without a deadline; a note while its player reads the rules)."""
    if not deadline_ms:
        return ""
    if deadline_ms == READING_THE_RULES:
        return _reading.in_language(get_language(), shape)
    left, unit = _words()
    return format_html(
        '<span class="turn-timer {}" data-deadline="{}" data-duration="{}" data-format="{}">'
        '<span class="timer-track" aria-hidden="true"><span class="timer-fill"></span></span>'
        '<span class="visually-hidden">{}</span> <span class="countdown">…</span></span>',
        shape,
        deadline_ms,
        seconds,
        unit,
        left,
    )


@register.simple_tag
def countdown_format() -> str:
    """How a countdown writes its seconds (``data-format`` of a ``.countdown``)."""
    return _words()[1]


@per_language
def _words() -> tuple[str, str]:
    """What the countdown says around its figure, in the active language."""
    # Translators: %(seconds)s is a number of seconds, filled in by the page's script.
    return _("Time left for this turn:"), _("%(seconds)s s")


@per_language
def _reading(shape: str) -> SafeString:
    """What shows instead of the countdown while the player on turn reads the rules."""
    if shape == "bar":
        text = _("Your clock waits while you read the rules.")
    else:
        text = _("The clock waits: reading the rules")
    return format_html('<span class="reading-note">{}</span>', text)
