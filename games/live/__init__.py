"""Live play: the websockets, what they carry, and the driver of computer players.

The rest of the site reaches it through three functions: :func:`table_page` (the table page's
context), :func:`announce` (a table, its chat or the lobby changed) and :func:`close_sockets`;
``cardroom.asgi`` mounts :mod:`games.live.routing`. Inside, a change travels as a small event
(``notify``), is read once per process (``snapshots``), and each connection renders only the
regions of its page that changed (``frames``, ``regions``).
"""

from .frames import table_page
from .notify import announce, close_sockets, notice

__all__ = ["announce", "close_sockets", "notice", "table_page"]
