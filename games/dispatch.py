"""Message dispatch for this project's consumers, without Channels' per-message database hop.

Since Channels 4.2, ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before every
message: one trip to the database thread per message, whether or not the handler touches the
database. Ours reach the database only through ``database_sync_to_async``, which already
closes old connections around each call on that thread, so the extra trip bought nothing and
cost a thread hop per message (five per Belote move: measured by ``manage.py loadtest``).
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatchMixin:
    """Dispatch each message straight to its handler (see the module docstring)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
