"""Belote's cards as ints and masks: the tables the engine and the computer players share.

A card is an int ``suit * 8 + rank`` (suits ``C D H S``, ranks in natural order
``7 8 9 T J Q K A``), a set of cards a 32-bit mask, a contract an index into
:data:`CONTRACTS` (0..3 are also the trump suit). Rules: ``shared/rules/belote.md`` §4 and §5.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUITS

RANKS = "789TJQKA"
#: Rank indexes in natural order.
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)
#: Every card code, in int order (index = suit * 8 + rank index).
CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
#: Card code -> int.
INDEX: dict[str, int] = {code: i for i, code in enumerate(CARDS)}

#: Contracts from low to high.
CONTRACTS = ("C", "D", "H", "S", "NT", "AT")
CONTRACT_INDEX: dict[str, int] = {name: i for i, name in enumerate(CONTRACTS)}
NT, AT = 4, 5

ALL = 0xFFFFFFFF
#: The cards of each suit.
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
#: The trumps of each contract.
TRUMP_MASK = (*SUIT_MASK, 0, ALL)

#: Strength 1 (weakest) .. 8 (strongest) of each rank, in trump order J 9 A T K Q 8 7.
STRENGTH_TRUMP = {"7": 1, "8": 2, "Q": 3, "K": 4, "T": 5, "A": 6, "9": 7, "J": 8}
#: Strength 1 .. 8 in plain order A T K Q J 9 8 7.
STRENGTH_PLAIN = {"7": 1, "8": 2, "9": 3, "J": 4, "Q": 5, "K": 6, "T": 7, "A": 8}
#: Card points of each rank as a trump and as a plain card.
POINTS_TRUMP = {"7": 0, "8": 0, "9": 14, "T": 10, "J": 20, "Q": 3, "K": 4, "A": 11}
POINTS_PLAIN = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}


def is_trump(contract: int, card: int) -> bool:
    """Whether ``card`` is a trump under ``contract``."""
    return bool(TRUMP_MASK[contract] >> card & 1)


#: STRENGTH[contract][card]: strength 1..8 in the order that card follows under that contract.
STRENGTH = tuple(
    tuple((STRENGTH_TRUMP if is_trump(ct, c) else STRENGTH_PLAIN)[RANKS[c & 7]] for c in range(32))
    for ct in range(6)
)
#: POINTS[contract][card]: card points under that contract (not doubled for No Trumps).
POINTS = tuple(
    tuple((POINTS_TRUMP if is_trump(ct, c) else POINTS_PLAIN)[RANKS[c & 7]] for c in range(32))
    for ct in range(6)
)
#: HIGHER[contract][card]: the same-suit cards that beat it under that contract.
HIGHER = tuple(
    tuple(
        sum(1 << d for d in range(32) if d >> 3 == c >> 3 and STRENGTH[ct][d] > STRENGTH[ct][c])
        for c in range(32)
    )
    for ct in range(6)
)


def beats(contract: int, card: int, best: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far."""
    if card >> 3 == best >> 3:
        return STRENGTH[contract][card] > STRENGTH[contract][best]
    tmask = TRUMP_MASK[contract]
    return bool(tmask >> card & 1) and not tmask >> best & 1


def trick_winner(trick: Sequence[int], contract: int) -> int:
    """Index in ``trick`` (cards in play order) of the card winning it."""
    pos = 0
    for i in range(1, len(trick)):
        if beats(contract, trick[i], trick[pos]):
            pos = i
    return pos


# _SUIT_CODES[suit][byte]: the codes of the cards of that suit present in an 8-bit pattern.
_SUIT_CODES = tuple(
    tuple(tuple(CARDS[s * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for s in range(4)
)


def codes(mask: int) -> list[str]:
    """The codes of the cards in ``mask``, in int order."""
    out: list[str] = []
    for s in range(4):
        byte = mask >> (8 * s) & 0xFF
        if byte:
            out.extend(_SUIT_CODES[s][byte])
    return out


def mask(cards: Sequence[str]) -> int:
    """The mask of the card codes ``cards``."""
    m = 0
    for code in cards:
        m |= 1 << INDEX[code]
    return m


def bits(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
