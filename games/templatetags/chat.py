"""``{{ line|notice_text }}``: what a table's chat rule did, in the reader's language."""

from __future__ import annotations

from django import template

from ..models import ChatMessage
from ..tables.chat import notice_text as said

register = template.Library()


@register.filter
def notice_text(line: ChatMessage) -> str:
    return said(line.notice, line.user.get_username())
