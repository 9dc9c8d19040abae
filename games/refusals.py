"""Refusals: a request the card room turns down, with the reason the player reads.

Each area raises its own kind (``FriendError``, ``ClubError``, ``EventError``, ``TableError``,
...) and every kind is a :class:`Refusal`, so a page or a socket answers any of them the same
way: it shows the message and changes nothing.
"""

from __future__ import annotations


class Refusal(Exception):
    """A refused request; ``message`` (and ``str(refusal)``) says why, in the player's words.

    The message is translated where it is raised, or lazily (``gettext_lazy``) when it is
    raised outside a request: it is put into words when shown.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)
