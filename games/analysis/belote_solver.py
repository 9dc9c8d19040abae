"""Belote's double-dummy solver: the exact result of a deal's trick play with every hand known.

A :class:`Solver` answers for one deal under one contract, each side playing its best card
(rules ``shared/rules/belote.md`` §4 to §7). Values are **margins**: team 0's points minus team
1's points from the remaining play, counting the cards of the current trick, every trick still
to come, the last ten, a capot's 90 and any belot still to be announced (an All Trumps belot
counts only when its first card leads or follows suit). Declarations do not depend on the play
and are left to the caller. Both teams' points add up to an even number, so a margin is even
and half of a change in it is a whole number of points.

The search (``_belote_dd.c``) is alpha-beta over the legal cards with a transposition table at
the start of each trick, keyed by the cards still held, the seat on lead and which teams have
taken a trick (for the capot): the owner of a card never changes within a deal, so one table
serves every position of the deal and later questions reuse what earlier ones found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engines import belote
from games.engines.belote_cards import HIGHER, NT, POINTS, STRENGTH, TRUMP_MASK, bits, trick_winner

from ._belote_dd import Search

#: No margin is larger: No Trumps' 260 with a capot's 90, and four belots (an even number).
MOST = 260 + 90 + 4 * 20


class Position(NamedTuple):
    """A moment of a deal's trick play."""

    #: Contract index (``belote_cards.CONTRACTS``).
    contract: int
    #: The cards each seat still holds (masks).
    hands: tuple[int, int, int, int]
    #: The seat that led the current trick, or leads the next one when ``trick`` is empty.
    leader: int
    #: Cards of the current trick in play order.
    trick: tuple[int, ...] = ()
    #: Bit ``t`` set: team ``t`` has taken a trick this deal (no capot for the other).
    taken: int = 0

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def over(self) -> bool:
        return not any(self.hands) and not self.trick

    def legal(self) -> list[int]:
        """The cards the seat to act may play, lowest first."""
        trick = self.trick
        win = trick_winner(trick, self.contract) if trick else 0
        legal = belote.legal_mask(self.hands[self.to_act], trick, self.contract, win)
        return [card for card in range(32) if legal >> card & 1]

    def after(self, card: int) -> Position:
        """The position once the seat to act plays ``card``."""
        seat = self.to_act
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = (*self.trick, card)
        if len(trick) < 4:
            return self._replace(hands=tuple(hands), trick=trick)
        taker = (self.leader + trick_winner(trick, self.contract)) & 3
        return Position(
            self.contract,
            tuple(hands),  # type: ignore[arg-type]
            taker,
            (),
            self.taken | 1 << (taker & 1),
        )


def belot_pairs(contract: int, hands: Sequence[int]) -> int:
    """The kings and queens of trump suits still held together by one seat: the belots to
    come (two bits a belot)."""
    trumps = TRUMP_MASK[contract]
    pairs = 0
    for suit in range(4):
        pair = 0b01100000 << (8 * suit)
        if trumps & pair == pair:
            for hand in hands:
                if hand & pair == pair:
                    pairs |= pair
    return pairs


def position_of(state: belote.State) -> Position:
    """The solver's position of an engine state in trick play."""
    if belote.phase(state) != "play":
        raise ValueError("the deal is not in trick play")
    taken = (state.won[0] > 0) | (state.won[1] > 0) << 1
    return Position(state.contract, state.hands, state.leader, state.trick, taken)


class TooLong(Exception):
    """A question would have searched more positions than it was allowed."""


class Solver:
    """Exact values of one deal's positions under one contract (see the module's docstring).

    Keep one solver per deal and contract: its table carries over between questions. Asked
    about another deal (a card held by another seat than before), it forgets the first.
    """

    def __init__(self, contract: int, *, bits: int = 18) -> None:
        factor = 2 if contract == NT else 1
        self.contract = contract
        self._search = Search(
            contract,
            [points * factor for points in POINTS[contract]],  # the same as self._points
            STRENGTH[contract],
            HIGHER[contract],
            TRUMP_MASK[contract],
            10 * factor,
            bits,
        )
        self._held = [0, 0, 0, 0]  # the cards seen in each seat's hand in this deal
        self._points = [points * factor for points in POINTS[contract]]

    @staticmethod
    def _cards(position: Position) -> list[int]:
        hands = position.hands
        return bits(hands[0] | hands[1] | hands[2] | hands[3])

    @property
    def nodes(self) -> int:
        """Positions searched so far (for benchmarks)."""
        return self._search.nodes

    def _same_deal(self, position: Position) -> None:
        if position.contract != self.contract:
            raise ValueError("a solver answers for its own contract only")
        held = self._held
        everyone = held[0] | held[1] | held[2] | held[3]
        if any(hand & everyone & ~held[seat] for seat, hand in enumerate(position.hands)):
            self._search.forget()
            held[:] = [0, 0, 0, 0]
        for seat, hand in enumerate(position.hands):
            held[seat] |= hand

    def bounded(
        self, position: Position, alpha: int, beta: int, card: int = -1, nodes: int = 0
    ) -> int | None:
        """Team 0's margin from ``position`` (after ``card``, when given), exact when it lies
        strictly between ``alpha`` and ``beta``, else a bound on the side it fell; None when
        it would take more than ``nodes`` positions (0: no limit)."""
        self._same_deal(position)
        return self._search.search(
            position.hands,
            position.leader,
            position.trick,
            position.taken,
            alpha,
            beta,
            card,
            nodes,
        )

    def value(self, position: Position, card: int = -1, nodes: int = 0) -> int:
        """Team 0's margin from ``position`` (after ``card``, when given) with perfect play by
        both sides. With ``nodes``, raise :class:`TooLong` rather than search more positions.

        Found by halving the range of possible margins with searches that only ask "at least
        this much?": they cut far more lines than one search with a wide window, and what they
        learn stays in the table for the next question. Every margin from one position has the
        parity of the card points still to be won, so the range halves in steps of two.
        """
        points = self._points
        parity = sum(points[c] for c in (*self._cards(position), *position.trick)) & 1
        low, high = -MOST - parity, MOST + parity  # the value lies in [low, high], same parity
        start = self.nodes
        while low < high:
            threshold = low + 2 * max(1, (high - low) // 4)
            left = nodes - (self.nodes - start) if nodes else 0
            found = self.bounded(
                position, threshold - 1, threshold, card, max(left, 1) if nodes else 0
            )
            if found is None:
                raise TooLong(f"more than {nodes} positions")
            if found >= threshold:
                low = found + ((found ^ parity) & 1)
            else:
                high = found - ((found ^ parity) & 1)
        return low

    def value_after(self, position: Position, card: int) -> int:
        """Team 0's margin once the seat to act plays ``card`` and both sides play perfectly
        (the card's own trick included)."""
        return self.value(position, card)

    def keeps(self, position: Position, card: int, value: int) -> bool:
        """Whether ``card`` keeps ``position``'s ``value`` for the side to act."""
        if position.to_act & 1:
            return self.bounded(position, value, value + 1, card) <= value
        return self.bounded(position, value - 1, value, card) >= value

    def best_cards(self, position: Position) -> tuple[int, list[int]]:
        """``position``'s value and every legal card that keeps it."""
        value = self.value(position)
        return value, [card for card in position.legal() if self.keeps(position, card, value)]

    def line(self, position: Position) -> list[int]:
        """A line of perfect play from ``position`` to the end of the deal (cards in order)."""
        cards = []
        while not position.over:
            value = self.value(position)
            card = next(card for card in position.legal() if self.keeps(position, card, value))
            cards.append(card)
            position = position.after(card)
        return cards
