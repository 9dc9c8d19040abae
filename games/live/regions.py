"""Regions of the table page: parts with their own id that a live frame sends only when changed.

A live frame is HTML whose top-level elements replace the elements with the same id on the
page. Most moves change a few parts of the table (whose turn it is, the trick), not all of it
(the seats, the score sheet), so each connection remembers what every region last showed it
and a frame carries only the regions whose inputs changed: less rendering on the server, less
to send, and the player's open or closed panels stay as they were.

A :class:`Region` names the context values its template reads (``uses``); its *key* is those
values, and an unchanged key means unchanged HTML. ``tests/test_regions.py`` renders every
region from only the values it declares and compares with a render from the whole context, so
a template that starts reading an undeclared value fails a test instead of going stale.

The same guarantee lets connections share renders: when a change reaches a table's four players,
they render from one read of the table, and a region whose key is the same for several of them
(the felt, the auction, "Waiting for Ivan") is rendered once for that read, per language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import get_language

from ..presenters import ALWAYS, Region, lookup


def render(region: Region, context: dict[str, Any]) -> str:
    """``region`` rendered alone in ``context``."""
    if region.html is not None:
        return region.html(region.context(context))
    return render_to_string(region.template, region.context(context))


def restricted(context: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """A context holding only ``names`` (nested dicts for dotted names): what a region's
    declared inputs alone would render (used by the tests that check ``uses``)."""
    out: dict[str, Any] = {}
    for name in names:
        first, *rest = name.split(".")
        if not rest:
            out[first] = context.get(first)
            continue
        node = out.setdefault(first, {})
        for part in rest[:-1]:
            node = node.setdefault(part, {})
        node[rest[-1]] = lookup(context, name)
    return out


#: The context entry holding the renders that the connections sharing one read of a table have
#: made (``{template: [(key, HTML), ...]}``): see :func:`render_shared`.
RENDERS = "shared_renders"
#: The context entry holding the frame's language (looked up once per frame).
LANGUAGE = "frame_language"


def render_shared(region: Region, context: dict[str, Any], key: object) -> str:
    """``region`` rendered in ``context`` (whose key is ``key``), reusing the HTML of an equal
    key rendered for another connection from the same read (``context[RENDERS]``, kept with
    the read: ``frames.table_context``). Keys are compared with ``==``, never hashed: they
    hold lists and dicts."""
    renders = context.get(RENDERS)
    if key is ALWAYS or renders is None:
        return render(region, context)
    if region.recurring:
        return render_recurring(region, context, key)
    made = renders.setdefault(region.id, [])
    for seen, html in made:
        if seen == key:
            return html
    html = render(region, context)
    made.append((key, html))
    return html


#: Renders of recurring regions by (region, language, key), most recently used last: the same
#: few HTML snippets serve every table of the process (``manage.py loadtest``).
_recurring: OrderedDict[tuple[str, str | None, object], str] = OrderedDict()
_recurring_lock = threading.Lock()
RECURRING_RENDERS = 8192


def render_recurring(region: Region, context: dict[str, Any], key: object) -> str:
    """``region`` rendered in ``context``, whose inputs are the hashable ``key``, kept for the
    process (bounded) for every later render of an equal key in the active language."""
    cache_key = (region.id, context.get(LANGUAGE) or get_language(), key)
    with _recurring_lock:
        html = _recurring.get(cache_key)
        if html is not None:
            _recurring.move_to_end(cache_key)
            return html
    html = render(region, context)
    with _recurring_lock:
        _recurring[cache_key] = html
        while len(_recurring) > RECURRING_RENDERS:
            _recurring.popitem(last=False)
    return html


def forget_recurring() -> None:
    """Drop the kept renders of recurring regions (tests: ids repeat between them)."""
    with _recurring_lock:
        _recurring.clear()


def render_changed(
    regions: tuple[Region, ...], context: dict[str, Any], shown: dict[str, object] | None
) -> str:
    """The regions whose key differs from the one in ``shown`` (all of them when ``shown``
    is None), rendered; ``shown`` is updated to the keys now on the connection's page."""
    parts = []
    for region in regions:
        key = region.key(context)
        if shown is not None:
            if key is not ALWAYS and shown.get(region.id, ALWAYS) == key:
                continue
            shown[region.id] = key
        parts.append(render_shared(region, context, key))
    return "".join(parts)


def remember(
    regions: tuple[Region, ...], context: dict[str, Any], shown: dict[str, object]
) -> None:
    """Record in ``shown`` that ``regions`` were just sent whole (inside a larger template)."""
    for region in regions:
        shown[region.id] = region.key(context)
