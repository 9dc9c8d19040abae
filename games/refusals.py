"""Refusals: a request the card room turns down, with the reason the player reads.

Each area raises its own kind (``FriendError``, ``ClubError``, ``EventError``, ``TableError``,
...) and every kind is a :class:`Refusal`, so a page or a socket answers any of them the same
way: it shows the message and changes nothing. A limit reached is raised with
``reason=LIMIT``, so that the refusals are counted by why.
"""

from __future__ import annotations

from cardroom import metrics


class Refusal(Exception):
    """A refused request; ``message`` (and ``str(refusal)``) says why, in the player's words.

    The message is translated where it is raised, or lazily (``gettext_lazy``) when it is
    raised outside a request: it is put into words when shown.

    Every refusal is counted by its ``reason`` (``cardroom.metrics.REASONS``): the kind's own,
    or the one it is raised with (a limit reached).
    """

    reason = metrics.OTHER

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason
        metrics.refused(self.reason)

    def __str__(self) -> str:
        return str(self.message)
