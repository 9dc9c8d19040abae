"""One cache for the card tags: what they build is kept per active language and arguments.

A live frame names dozens of cards to several players; translating and formatting each one
again costs more than the rest of the frame's rendering (``manage.py loadtest``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.utils.translation import get_language

P = ParamSpec("P")
R = TypeVar("R")


def per_language(
    function: Callable[P, R] | None = None, *, maxsize: int | None = None
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep ``function``'s results by active language and (hashable) arguments; ``maxsize``
    bounds how many are kept (None: all, for arguments from a small set such as cards)."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.lru_cache(maxsize=maxsize)
        def in_language(language: str | None, *args):
            return function(*args)

        @functools.wraps(function)
        def cached(*args):
            return in_language(get_language(), *args)

        cached.cache_info = in_language.cache_info  # type: ignore[attr-defined]
        cached.cache_clear = in_language.cache_clear  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return decorate(function) if function is not None else decorate
