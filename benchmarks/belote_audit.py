"""Audit a Belote level as a human partner would see it, from deals it played (pure).

Three things a person notices at a table, counted on every deal a level played (the benchmarks
feed each deal through a :class:`Recorder`):

- **donations** (:mod:`benchmarks.belote_donations`): high cards given to the opponents when
  a lower card of the suit lost nothing with every hand known, per 1,000 of the level's cards in
  tricks 1 to 3 and in tricks 4 to 8;
- **readable bids** (:func:`games.bots.belote.natural_contract`): of its suit bids, those with
  the suit's jack, or its nine with the ace or the ten; No Trumps with an ace, All Trumps with
  a jack;
- **doubles and redoubles**: how many it called and in how many deals its team then wrote more
  than the other.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence
from typing import Any

from benchmarks.belote_donations import judge_deal
from games.bots.belote import natural_contract
from games.engines import belote
from games.engines.belote_cards import CONTRACT_INDEX, NT, mask

#: The tallies an audit keeps, in the order they are printed.
KEYS = (
    "cards 1-3",
    "donations 1-3",
    "cards 4-8",
    "donations 4-8",
    "suit bids",
    "natural suit bids",
    "NT bids",
    "NT with an ace",
    "AT bids",
    "AT with a jack",
    "doubles",
    "doubles won",
    "redoubles",
    "redoubles won",
)


class Recorder:
    """What one deal needs for its audit, gathered while it is played: feed :meth:`saw` every
    action before it is applied, then read :meth:`tally` from the deal's result."""

    def __init__(self, seats: Iterable[int]) -> None:
        self.seats = frozenset(seats)
        self.start: belote.State | None = None
        self.calls: list[tuple[int, int, str]] = []  # (seat, five cards, call)

    def saw(self, state: belote.State, seat: int, view: dict[str, Any], action: str) -> None:
        """Note ``action`` by ``seat`` in ``state`` (whose view is ``view``)."""
        if view["phase"] == "auction":
            if seat in self.seats:
                self.calls.append((seat, mask(view["hand"]), action))
        elif self.start is None and not state.trick and not state.tricks:
            self.start = state

    def tally(self, result: dict[str, Any]) -> collections.Counter[str]:
        """The audit of the deal whose score-sheet line is ``result``."""
        return audit_deal(self.start, result, self.calls, self.seats)


def audit_deal(
    start: belote.State | None,
    result: dict[str, Any],
    calls: Sequence[tuple[int, int, str]],
    seats: Iterable[int],
) -> collections.Counter[str]:
    """Tally one deal for the level on ``seats``: ``start`` is the deal's state at its first
    card (None: everyone passed), ``result`` its score-sheet line, ``calls`` the level's
    calls as ``(seat, five cards held, call)``."""
    seats = frozenset(seats)
    counts: collections.Counter[str] = collections.Counter()
    written = result["written"]
    for seat, hand, call in calls:
        team = seat & 1
        won = written[team] > written[1 - team]
        if call == "contra":
            counts["doubles"] += 1
            counts["doubles won"] += won
        elif call == "recontra":
            counts["redoubles"] += 1
            counts["redoubles won"] += won
        elif call in CONTRACT_INDEX:
            ct = CONTRACT_INDEX[call]
            if ct < NT:
                counts["suit bids"] += 1
                counts["natural suit bids"] += natural_contract(hand, ct)
            elif ct == NT:
                counts["NT bids"] += 1
                counts["NT with an ace"] += natural_contract(hand, ct)
            else:
                counts["AT bids"] += 1
                counts["AT with a jack"] += natural_contract(hand, ct)
    if start is not None and result["tricks"]:
        played = [card for trick in result["tricks"] for _seat, card in trick]
        for card in judge_deal(start, played, sorted(seats)):
            span = "1-3" if card.trick <= 3 else "4-8"
            counts[f"cards {span}"] += 1
            counts[f"donations {span}"] += card.donation
    return counts


def add(total: dict[str, int], counts: dict[str, int]) -> None:
    """Add one deal's (or run's) tallies into ``total``."""
    for key, value in counts.items():
        total[key] = total.get(key, 0) + value


def per_1000(count: int, out_of: int) -> float:
    return 1000 * count / out_of if out_of else 0.0


def share(count: int, out_of: int) -> str:
    return f"{count}/{out_of} = {count / out_of:.1%}" if out_of else "0/0"


def format_audit(counts: dict[str, int], source: str) -> str:
    """An audit's tallies as two lines of text; ``source`` says which deals were replayed."""
    c = collections.Counter(counts)
    return (
        f"    audit of {source}: donations per 1,000 cards "
        f"{per_1000(c['donations 1-3'], c['cards 1-3']):.1f} in tricks 1-3 "
        f"({c['donations 1-3']} of {c['cards 1-3']}), "
        f"{per_1000(c['donations 4-8'], c['cards 4-8']):.1f} in tricks 4-8 "
        f"({c['donations 4-8']} of {c['cards 4-8']})\n"
        f"      natural suit bids {share(c['natural suit bids'], c['suit bids'])}; "
        f"No Trumps with an ace {share(c['NT with an ace'], c['NT bids'])}; "
        f"All Trumps with a jack {share(c['AT with a jack'], c['AT bids'])}; "
        f"doubles {c['doubles']} ({c['doubles won']} won), "
        f"redoubles {c['redoubles']} ({c['redoubles won']} won)"
    )
