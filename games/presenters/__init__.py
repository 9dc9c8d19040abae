"""Per-game presenters: turn an engine view into what that game's templates show.

A presenter only rearranges the seat's own view (names, positions, "we/they"); it never sees
the engine state, so it cannot leak hidden cards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, TypeVar

#: A key that never equals a previous one: the region is rendered for every frame.
ALWAYS = object()
#: The deadline of a turn whose clock waits while its player reads the rules.
READING_THE_RULES = -1


@dataclass(frozen=True)
class Region:
    """A part of a table page with its own element id and template, which a live frame sends
    again only when the context values it reads (``uses``) change."""

    template: str
    #: The context values the template reads: names, dotted for an item of a dict or an
    #: attribute ("view.phase", "table.status"). Empty: render it for every frame.
    uses: tuple[str, ...] = ()
    #: The inputs are a few plain (hashable) values that recur from move to move and table to
    #: table ("Your turn", version 12, no notice): its renders may be kept for the process.
    recurring: bool = False
    #: Names the template reads that stand for a value of the context: ``(("p", "by_seat.3"),)``
    #: renders a template written for one player as the player in seat 3.
    given: tuple[tuple[str, str], ...] = ()
    #: What a connection remembers the region by (default: its template).
    name: str = ""
    #: Renders the region from the context instead of ``template`` (which then only names
    #: it): for a small region sent on every move, where a template's cost counts.
    html: Callable[[dict[str, object]], str] | None = None

    #: What a connection remembers the region by: ``name``, else ``template``.
    id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", self.name or self.template)

    def key(self, context: Mapping[str, object]) -> object:
        """What decides this region's HTML in ``context`` (``ALWAYS`` without ``uses``)."""
        if not self.uses:
            return ALWAYS
        names, items, paths = self._paths
        # Keys are taken for every region of every connection on every move: ``map`` over
        # names runs no Python code (``manage.py bench moves``).
        key = tuple(map(context.get, names))
        for head, rest in items:
            value = context.get(head)
            if isinstance(value, dict):
                key += tuple(map(value.get, rest))
            elif value is None:
                key += (None,) * len(rest)
            else:
                key += tuple([getattr(value, name, None) for name in rest])
        if paths:
            key += tuple([follow(context, path) for path in paths])
        return key

    def context(self, context: dict[str, object]) -> dict[str, object]:
        """``context`` with the names of ``given`` added."""
        if not self.given:
            return context
        return {**context, **{name: lookup(context, value) for name, value in self.given}}

    @functools.cached_property
    def _paths(self) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...], tuple]:
        """The plain names of ``uses``; its ``a.b`` names grouped by ``a``; longer ones split."""
        names = tuple(name for name in self.uses if "." not in name)
        items: dict[str, list[str]] = {}
        paths = []
        for name in self.uses:
            parts = name.split(".")
            if len(parts) == 2:
                items.setdefault(parts[0], []).append(parts[1])
            elif len(parts) > 2:
                paths.append(tuple(parts))
        return names, tuple((head, tuple(rest)) for head, rest in items.items()), tuple(paths)


#: The version every play sends, and the version at which the viewer's turn began.
PLAY_VERSION = Region(
    "games/partials/play_version.html", uses=("version", "turn_began"), recurring=True
)


def lookup(context: Mapping[str, object], name: str) -> object:
    """The value of ``name`` ("view.phase") in ``context``; None when it is missing."""
    return follow(context, name.split("."))


def follow(context: Mapping[str, object], path: tuple[str, ...] | list[str]) -> object:
    """The value at ``path`` (names of dict items or attributes) in ``context``."""
    value = context.get(path[0])
    for part in path[1:]:
        value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
    return value


class SeatRow(TypedDict):
    """A seat as the table's frames show it (``games.live.frames``); ``is_me`` per viewer."""

    index: int
    number: int
    name: str
    #: On the felt, where space is short: a computer's first name.
    short_name: str
    is_free: bool
    is_bot: bool
    is_me: bool
    online: bool
    team: int
    covered: bool
    claim_note: str
    #: A seat whose human took it over from a computer player in the running match: the first
    #: deal they played and the computer's short name (None otherwise).
    earlier: tuple[int, str] | None


class LastMove(TypedDict):
    """The last accepted move: its seat and the action as the move log holds it."""

    seat: int
    action: str


#: The engine's view a presenter reads (a game's own view type).
ViewT = TypeVar("ViewT", bound=Mapping[str, object], contravariant=True)


class Presenter(Protocol[ViewT]):
    """What the site asks of a game's presenter (a module or a class with these names).

    A template's context maps names to whatever the template reads: ``dict[str, object]``.
    Which viewers are shown alike (a *side*) is each game's own kind of value, hashable."""

    @property
    def REGIONS(self) -> tuple[Region, ...]:
        """The parts of the game's board a live frame sends again only when they change."""
        ...

    def describe(self, action: str) -> str:
        """Return an action in words ("plays the Jack of hearts")."""
        ...

    def announce(self, view: ViewT, last: LastMove, names: dict[int, str], side: Any) -> list[str]:
        """Return sentences for the screen-reader live region about the last move (``last``:
        its ``seat`` and ``action``), which led to ``view``: who did what, and what it settled.
        Every viewer of ``side`` (:meth:`side_of`) is told the same, so read only what their
        views share (no hidden card); keep it to string building: it runs on every move."""
        ...

    def side_of(self, viewer: int | None) -> Any:
        """Return which viewers are shown :meth:`side_context` alike (their side; None for
        spectators)."""
        ...

    def side_context(
        self, view: ViewT, seats: list[SeatRow], viewer: int | None
    ) -> dict[str, object]:
        """Return the part of the board's context that every viewer of the same state and
        side is shown alike (built from what their views share: no hidden card)."""
        ...

    def board_context(
        self,
        view: ViewT,
        seats: list[SeatRow],
        viewer: int | None,
        selected: str = "",
        side: dict[str, object] | None = None,
    ) -> dict[str, object]:
        """Return the board template's context for ``viewer``'s ``view``; ``side`` is its
        :meth:`side_context`, when the caller has it already."""
        ...
