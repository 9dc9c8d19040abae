"""What both games share: suits, the error type, and translatable-message marking.

Engines stay free of Django, so they cannot call ``gettext``. They mark their player-facing
messages with :func:`gettext_noop` (which ``makemessages`` recognises by name) and raise
:class:`IllegalAction` with the untranslated template and its parameters; the web layer
translates ``template`` and fills in ``params``.
"""

from __future__ import annotations

from typing import TypedDict

SUITS = "CDHS"


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (engines have no Django)."""
    return message


class DrawnDeal(TypedDict):
    """A deal as a seed draws it: who deals, and the cards in the order dealt (top first)."""

    dealer: int
    cards: list[str]


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str(error)`` is a message fit for a player.

    ``template`` is the untranslated message with ``%(name)s`` placeholders and ``params``
    its values, so a caller with a translation catalogue can render it in another language.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)
