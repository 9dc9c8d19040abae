"""Computer players as the site shows them: their levels and their names at a table."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from .words import per_language


@per_language
def bot_level_choices() -> tuple[tuple[str, str], ...]:
    """The computer players' levels, as (value, name in the active language), weakest first
    (a game offers those its catalogue entry has; none offers the expert now, which still
    names the computers of matches it played)."""
    return (
        ("easy", _("easy")),
        ("normal", _("normal")),
        ("hard", _("hard")),
        ("expert", _("expert")),
    )


#: The computer players' first names, one for each seat of the largest table: the players of
#: one table are told apart by them.
COMPUTER_NAMES = (
    pgettext_lazy("computer player", "Maria"),
    pgettext_lazy("computer player", "Ivan"),
    pgettext_lazy("computer player", "Elena"),
    pgettext_lazy("computer player", "Georgi"),
    pgettext_lazy("computer player", "Nadia"),
    pgettext_lazy("computer player", "Petar"),
    pgettext_lazy("computer player", "Vera"),
    pgettext_lazy("computer player", "Stefan"),
)


def computer_name(level: str, seat: int) -> str:
    """How the computer player in ``seat`` is named: "Ivan · computer, normal"."""
    return _("%(name)s · computer, %(level)s") % {
        "name": computer_first_name(seat),
        "level": dict(bot_level_choices()).get(level, level),
    }


def computer_first_name(seat: int) -> str:
    """The computer player in ``seat``'s first name alone ("Ivan"), where space is short."""
    return str(COMPUTER_NAMES[seat % len(COMPUTER_NAMES)])
