"""The engines' only source of chance: numbers drawn from a seed by a fixed, documented rule.

Every shuffle and random pick of a game (a Belote deck, the first dealer, a Grabush shoe, a
completed pile going back to the supply) is drawn here from the match's seed and a *label*
naming what is drawn, so anyone can derive a match's deals from its seed with the standard
library alone. ``docs/fair-deals.md`` states the algorithm; this module is its reference
implementation. Change nothing here without a new :data:`ALGORITHM`: recorded matches depend on
every byte.

A :class:`Draw` reads the byte stream ``SHA-256("<seed>:<label>:0")``,
``SHA-256("<seed>:<label>:1")``, … (UTF-8 text), four bytes at a time as big-endian numbers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

#: The name of the algorithm below (recorded with every match log).
ALGORITHM = "cardroom-deals-1"

T = TypeVar("T")

_SPAN = 1 << 32


class Draw:
    """Numbers drawn for one label of one seed."""

    def __init__(self, seed: int | str, label: str) -> None:
        self._prefix = f"{seed}:{label}:"
        self._block = 0
        self._bytes = b""

    def _word(self) -> int:
        """The stream's next four bytes as a big-endian number."""
        if len(self._bytes) < 4:
            text = f"{self._prefix}{self._block}".encode()
            self._bytes += hashlib.sha256(text).digest()
            self._block += 1
        word, self._bytes = self._bytes[:4], self._bytes[4:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """A number in ``0 .. n-1``, every one equally likely: a word is taken modulo ``n``,
        after words at or above the largest multiple of ``n`` below 2**32 are drawn again."""
        if not 0 < n <= _SPAN:
            raise ValueError("n must be between 1 and 2**32")
        limit = _SPAN - _SPAN % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A copy of ``items`` shuffled by Fisher and Yates: for ``i`` from the last index down
        to 1, the item at ``i`` swaps with the one at ``below(i + 1)``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def below(seed: int | str, label: str, n: int) -> int:
    """One number in ``0 .. n-1`` drawn for ``label`` (:meth:`Draw.below`)."""
    return Draw(seed, label).below(n)


def shuffled(seed: int | str, label: str, items: Sequence[T]) -> list[T]:
    """``items`` shuffled for ``label`` (:meth:`Draw.shuffled`)."""
    return Draw(seed, label).shuffled(items)
