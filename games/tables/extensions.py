"""Where features beyond a table (an event's rounds, and later others) join in its life: each
extension point is a registry they add to in ``GamesConfig.ready`` (``games/apps.py``), so
that the door (``games.live``) calls them without knowing them.

- :func:`match_ended`: once the move that ended a match has committed, what follows from it
  elsewhere (an event's next round), as notices for players' open pages.
- :func:`tables_to_wake`: the other tables a connection to a table wakes (tables nobody has
  open, whose computers nothing else wakes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Notice:
    """A notice for one player's open pages: ``kind`` names what it is about, ``pk`` which
    one; ``table``: the code of the table it sends them to ("" for none); ``wake``: the tables
    whose computers the pages that hear it wake."""

    user_id: int
    kind: str
    pk: int
    table: str = ""
    wake: tuple[int, ...] = ()


#: Called with the id of the table whose match ended.
MatchEnded = Callable[[int], list[Notice]]
#: Called with the id of the table a player connected to.
TablesToWake = Callable[[int], list[int]]

_match_ended: list[MatchEnded] = []
_tables_to_wake: list[TablesToWake] = []


def on_match_end(listener: MatchEnded) -> None:
    """Have ``listener`` told of every match's end (once per listener)."""
    if listener not in _match_ended:
        _match_ended.append(listener)


def match_ended(table_id: int) -> list[Notice]:
    """Tell every listener that the match at the table ended (the move is committed); the
    notices they give, in their order."""
    return [notice for listener in _match_ended for notice in listener(table_id)]


def on_connect_wake(finder: TablesToWake) -> None:
    """Have ``finder`` say which tables a connection wakes (once per finder)."""
    if finder not in _tables_to_wake:
        _tables_to_wake.append(finder)


def tables_to_wake(table_id: int) -> list[int]:
    """The tables a connection to ``table_id`` wakes, as the finders say."""
    return [other for finder in _tables_to_wake for other in finder(table_id)]
