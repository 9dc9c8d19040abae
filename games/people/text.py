"""Text from players: invisible characters removed, names reduced to how they look."""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

#: Characters that change how the text around them shows without showing themselves: bidi
#: embeddings and overrides, bidi isolates, bidi marks, and zero-width characters.
INVISIBLE = frozenset(
    {
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x200E,
        0x200F,
        0x061C,
        0x200B,
        0x200C,
        0x200D,
        0x2060,
        0xFEFF,
    }
)
_DROP_INVISIBLE = dict.fromkeys(INVISIBLE)
# The library's data wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
_LRM = "\u200e"


def strip_invisible(text: str) -> str:
    """Remove bidi controls and zero-width characters from ``text``."""
    return text.translate(_DROP_INVISIBLE)


@cache
def _look_alikes() -> dict[str, str]:
    """Map each confusable character to the one string that stands for its class.

    The library's data pairs every character of Unicode's confusables.txt (UTS #39) with its
    prototype, both ways: the connected groups are the classes of characters that look alike.
    A class's prototype may be a sequence ("rn" for "m"), which then stands for it; otherwise
    any fixed member does.
    """
    parent: dict[str, str] = {}

    def root(item: str) -> str:
        while parent.setdefault(item, item) != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for key, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            parent[root(key.replace(_LRM, ""))] = root(glyph["c"].replace(_LRM, ""))
    classes: dict[str, list[str]] = {}
    for item in parent:
        classes.setdefault(root(item), []).append(item)
    stand_ins: dict[str, str] = {}
    for members in classes.values():
        sequences = [member for member in members if len(member) > 1]
        stand_in = sequences[0] if sequences else min(members)
        stand_ins.update((member, stand_in) for member in members if len(member) == 1)
    # A prototype sequence is made of prototypes: spell it with their stand-ins.
    return {
        char: "".join(stand_ins.get(part, part) for part in stand_in)
        for char, stand_in in stand_ins.items()
    }


def skeleton(text: str) -> str:
    """Reduce ``text`` to how it looks: equal for strings that look alike (UTS #39's skeleton,
    with its own choice of stand-ins), and case-folded."""
    table = _look_alikes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(char, char) for char in decomposed)
    return unicodedata.normalize("NFD", mapped).casefold()
