"""Players' text: bidi controls and zero-width characters are removed before it is stored."""

from __future__ import annotations

import pytest

from games.models import ChatMessage, Report
from games.people import moderation
from games.people.text import skeleton, strip_invisible
from games.tables import chat
from games.tables.rows import TableError

INVISIBLE = [
    "\u202a",  # LEFT-TO-RIGHT EMBEDDING
    "\u202b",  # RIGHT-TO-LEFT EMBEDDING
    "\u202c",  # POP DIRECTIONAL FORMATTING
    "\u202d",  # LEFT-TO-RIGHT OVERRIDE
    "\u202e",  # RIGHT-TO-LEFT OVERRIDE
    "\u2066",  # LEFT-TO-RIGHT ISOLATE
    "\u2067",  # RIGHT-TO-LEFT ISOLATE
    "\u2068",  # FIRST STRONG ISOLATE
    "\u2069",  # POP DIRECTIONAL ISOLATE
    "\u200e",  # LEFT-TO-RIGHT MARK
    "\u200f",  # RIGHT-TO-LEFT MARK
    "\u061c",  # ARABIC LETTER MARK
    "\u200b",  # ZERO WIDTH SPACE
    "\u200c",  # ZERO WIDTH NON-JOINER
    "\u200d",  # ZERO WIDTH JOINER
    "\u2060",  # WORD JOINER
    "\ufeff",  # ZERO WIDTH NO-BREAK SPACE (byte order mark)
]


@pytest.mark.parametrize("char", INVISIBLE)
def test_strip_invisible_removes_each_invisible_character(char):
    assert strip_invisible(f"{char}go{char}od {char}game{char}") == "good game"


def test_strip_invisible_keeps_visible_text():
    text = "Добра игра! שלום مرحبا café 🂡 10♥ a\tb\nc"
    assert strip_invisible(text) == text


def test_a_chat_line_is_stored_without_invisible_characters(started):
    table, users = started
    line = chat.post_message(table.pk, users[0], "  \u202egg\u2066 wp\u200b\u2069  ")
    assert ChatMessage.objects.get(pk=line.pk).text == "gg wp"


def test_a_chat_line_of_invisible_characters_only_is_refused_as_empty(started):
    table, users = started
    with pytest.raises(TableError, match="Write a message first"):
        chat.post_message(table.pk, users[0], "\u200b\u202e\u200d \ufeff")
    assert not ChatMessage.objects.exists()


def test_a_report_reason_is_stored_without_invisible_characters(started):
    _, users = started
    moderation.report(users[0], "\u202echeat\u202c\u200bing", user=users[1])
    assert Report.objects.get(reporter=users[0]).reason == "cheating"
    with pytest.raises(moderation.ReportError, match="Say what is wrong"):
        moderation.report(users[0], "\u2067\u200f", user=users[2])
    assert Report.objects.count() == 1


def test_skeleton_is_equal_for_look_alikes_only():
    latin = "alice"
    assert skeleton("\N{CYRILLIC SMALL LETTER A}lice") == skeleton(latin)
    assert skeleton("\N{FULLWIDTH LATIN SMALL LETTER A}lice") == skeleton(latin)
    assert skeleton("AIice") == skeleton(latin)  # a capital I for the l
    assert skeleton("rnodern") == skeleton("modern")
    assert skeleton("alicia") != skeleton(latin)
    assert skeleton("josé") != skeleton("jose")
