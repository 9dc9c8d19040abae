"""``{% written_because row us_label them_label %}``: why a deal's written points are what they
are, in one sentence (``games.presenters.belote.written_because``). A tag rather than a value of
the score sheet: only a shown summary pays for its words."""

from __future__ import annotations

from typing import Any

from django import template

from ..presenters.belote import written_because as because

register = template.Library()


@register.simple_tag
def written_because(row: dict[str, Any], us_label: str, them_label: str) -> str:
    return because(row, us_label, them_label)
