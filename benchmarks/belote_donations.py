"""Donations: high cards given to the opponents when a lower card would have lost nothing.

A card is a **donation** when it is worth :data:`HIGH` points or more (an ace or a ten; in trumps
also the jack or the nine), the trick it went into was taken by the opponents, and a lower card
of the same suit was legal that keeps at least as much for the player's team with every hand
known (the double-dummy solver, :mod:`games.analysis.belote_solver`). A human partner sees such a
card as points thrown away; a forced high card, or one that wins something double-dummy, is not
one. Pure (no Django).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.analysis.belote_solver import Position, Solver, position_of
from games.engines import belote
from games.engines.belote_cards import INDEX, POINTS

#: Card points from which a card given away counts.
HIGH = 10


class Card(NamedTuple):
    """One card of a deal as played, judged."""

    trick: int  # 1 to 8
    seat: int
    card: int
    donation: bool


def lower_cards(position: Position, card: int) -> list[int]:
    """The legal cards of ``card``'s suit worth fewer points than ``card``."""
    points = POINTS[position.contract]
    return [c for c in position.legal() if c >> 3 == card >> 3 and points[c] < points[card]]


def is_donation(solver: Solver, position: Position, card: int, taker: int) -> bool:
    """Whether ``card``, played by the seat to act at ``position`` into a trick that seat
    ``taker`` took, gave points away: see the module's docstring."""
    seat = position.to_act
    if POINTS[position.contract][card] < HIGH or taker & 1 == seat & 1:
        return False
    lower = lower_cards(position, card)
    if not lower:
        return False
    played = solver.value(position, card)
    for other in lower:
        # Team 0 maximises the margin, team 1 minimises it: "at least as good" for the seat.
        if seat & 1:
            if solver.bounded(position, played, played + 1, other) <= played:
                return True
        elif solver.bounded(position, played - 1, played, other) >= played:
            return True
    return False


def judge_deal(start: belote.State, played: Sequence[str], seats: Sequence[int]) -> list[Card]:
    """Every card of ``seats`` in the deal that ``start`` (its state at the first card) began
    and whose cards were ``played`` in order, judged for donation."""
    if belote.phase(start) != "play" or start.trick or start.tricks:
        raise ValueError("a deal is judged from its first card")
    solver = Solver(start.contract)
    position = position_of(start)
    judged: list[Card] = []
    cards = [INDEX[code] for code in played]
    for first in range(0, len(cards), 4):
        trick = cards[first : first + 4]
        positions = []
        for card in trick:
            positions.append(position)
            position = position.after(card)
        taker = position.leader
        for before, card in zip(positions, trick, strict=True):
            seat = before.to_act
            if seat in seats:
                donated = is_donation(solver, before, card, taker)
                judged.append(Card(first // 4 + 1, seat, card, donated))
    return judged
