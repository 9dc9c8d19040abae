"""The in-memory channel layer used when no ``REDIS_URL`` is set (one server process).

Channels' own in-memory layer sweeps every channel and every group for expired entries on each
``receive`` and ``group_send``: work proportional to the number of open sockets for every
message, which with a few hundred sockets was a tenth of the server's event loop
(``manage.py loadtest``). This layer sweeps at most once per :attr:`sweep_interval` seconds
instead; a message may then outlive its expiry (60 s by default) by up to that interval.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    """Channels' in-memory layer with a time-bounded sweep of expired messages and groups."""

    #: Seconds between two sweeps of expired messages and group memberships.
    sweep_interval = 1.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()
