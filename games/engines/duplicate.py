"""Duplicate Belote: the same deals at every table of a round, each deal scored on its own and
compared with the same deal played in the same direction at every other table.

Pure: no Django, randomness only from a seed (:mod:`games.engines.chance`).

- A deal's score is what each team writes for it alone (:func:`deal_score`): the points hanging
  from earlier deals are not added, a tied deal's hanging share scores nothing, a contra or
  recontra multiplies as at any table, and a thrown-in deal scores nothing for either team.
- Matchpoints (:func:`matchpoints`): a pair gets 1 for each pair it outscored on the deal in the
  same direction (team 0's seats, or team 1's) at another table, ½ for each tie, 0 otherwise.
  A pair's score on a deal is its written points minus its opponents'.
- The movement (:func:`movement`): the registered pairs meet each other by the circle method
  (each round a different opponent while there are new ones, one against a computer pair when
  their number is odd), computer pairs play the deals at a second table when the pairs fill only
  one, and each pair sits in each direction in half of its rounds, within one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping
from typing import TypeVar

from . import belote
from .cards import DrawnDeal

K = TypeVar("K", bound=Hashable)


def deal_score(result: belote.DealResult) -> tuple[int, int]:
    """A finished deal (a line of ``belote.deal_results``) scored on its own: (team 0, team 1)."""
    if result["contract"] is None:
        return (0, 0)
    written = result["written"]
    return (written[0], written[1])


def matchpoints(scores: Mapping[K, float]) -> dict[K, float]:
    """Each entry's matchpoints against all the others: 1 for each it outscored, ½ per tie."""
    return {
        key: sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for theirs in others)
        for key, mine in scores.items()
        for others in [[score for other, score in scores.items() if other != key]]
    }


def deal_matchpoints(tables: Mapping[K, tuple[int, int]]) -> dict[K, tuple[float, float]]:
    """One deal played at several tables (each table's :func:`deal_score`): per table, the
    matchpoints of the pair that sat as team 0 and of the pair that sat as team 1, each
    compared with the same direction at every other table."""
    as_team_0 = matchpoints({table: a - b for table, (a, b) in tables.items()})
    as_team_1 = matchpoints({table: b - a for table, (a, b) in tables.items()})
    return {table: (as_team_0[table], as_team_1[table]) for table in tables}


def movement(pairs: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Per round, its tables as (pair sitting as team 0, pair sitting as team 1), the
    registered pairs numbered from 0 and computer pairs from ``pairs`` on (the first computer
    pair is ``pairs``, the next ``pairs + 1``; see :func:`is_computers`).

    Registered pairs meet each other: by the circle method, a new opponent every round while
    there are new ones, one of them against a computer pair each round when their number is
    odd. With a single table of them, a table of two computer pairs plays the deals beside it,
    so that every round has two tables or more to compare. Each pair sits as team 0 in half of
    its rounds, within one.
    """
    if pairs < 1 or rounds < 1:
        raise ValueError("an event needs at least one pair and one round")
    circle = pairs + pairs % 2
    count = max(4, circle)
    seats = list(range(circle))
    as_team_0 = [0] * count  # rounds each pair has sat as team 0
    result = []
    for number in range(rounds):
        meeting = [(seats[index], seats[circle - 1 - index]) for index in range(circle // 2)]
        meeting += [(first, first + 1) for first in range(circle, count, 2)]
        tables = []
        for index, (one, other) in enumerate(meeting):
            # Team 0 goes to whichever has sat there less (on a tie, by the round and table).
            if (as_team_0[one], (number + index) % 2) > (as_team_0[other], 0):
                one, other = other, one
            as_team_0[one] += 1
            tables.append((one, other))
        result.append(tables)
        seats = [seats[0], seats[-1], *seats[1:-1]]  # the circle turns, the first stays
    return result


def is_computers(pairs: int, number: int) -> bool:
    """Whether pair ``number`` of a :func:`movement` of ``pairs`` registered pairs is a
    computer pair."""
    return number >= pairs


def round_seed(seed: str, round_number: int) -> str:
    """The seed of round ``round_number`` (from 1) of the event whose seed is ``seed``: the
    SHA-256, as hex, of the UTF-8 text ``<seed>:duplicate/<round>``. Every table of the round
    plays a match from it, so all of them get its deals; it shows nothing of other rounds."""
    return hashlib.sha256(f"{seed}:duplicate/{round_number}".encode()).hexdigest()


def event_deals(seed: str, round_number: int, count: int) -> list[DrawnDeal]:
    """The deals of one round, the same at every table: each its ``dealer`` and its ``cards``
    (32 codes, top first), as a Belote match from :func:`round_seed` deals them."""
    return belote.drawn_deals(round_seed(seed, round_number), count)


def hands(deal: DrawnDeal) -> list[list[str]]:
    """The eight cards each seat holds in ``deal`` (its ``dealer`` and ``cards``), sorted:
    three, then two, then three each from the dealer's right (rules §2)."""
    cards, dealer = deal["cards"], deal["dealer"]
    held: list[list[str]] = [[], [], [], []]
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        held[seat] = sorted(
            [
                *cards[3 * i : 3 * i + 3],
                *cards[12 + 2 * i : 14 + 2 * i],
                *cards[20 + 3 * i : 23 + 3 * i],
            ]
        )
    return held
