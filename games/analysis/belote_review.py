"""A Belote deal's review: what the cards allowed, worked out with every hand known.

From the engine's state at the start of a deal's trick play and the cards then played,
:func:`review_deal` finds with the double-dummy solver (:mod:`games.analysis.belote_solver`):

- the deal's **par**: what each team would have made with perfect play from the first card;
- for every card played, the cards that were best at that point and the points it cost;
- per player, the share of cards that cost nothing and the points lost;
- par for every contract the declarer could have bid, so the contract is judged too.

Points are the deal's raw totals (card points, last ten, declarations, belots, capot), scored by
the engine itself: each line of play is played out through ``belote.apply``. A card's cost is
half of what it took off its team's margin over the other team: the points that went over to
the opponents. The result is JSON-safe and pure (no Django).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from games.engines import belote
from games.engines.belote_cards import CARDS, CONTRACT_INDEX, CONTRACTS, INDEX, bits

from .belote_solver import Position, Solver, position_of

#: Changes whenever a review computed before would read differently now.
VERSION = 1


class Par(TypedDict):
    """A deal played out perfectly from the first card under one contract."""

    contract: str
    multiplier: int
    raw: list[int]  # per team: card points, declarations, belots, capot
    outcome: str  # made, inside or hanging
    written: list[int]  # the deal's own figures on the score sheet
    line: list[list[int | str]]  # [seat, card] in play order


class Play(TypedDict):
    """One card of the deal as played."""

    seat: int
    card: str
    best: list[str]  # the cards that kept the best result for the seat's team
    lost: int  # points the card gave away (0: it was one of the best)


class Player(TypedDict):
    seat: int
    cards: int
    exact: int  # cards that lost nothing
    lost: int


class Review(TypedDict):
    version: int
    dealer: int
    contract: str
    declarer: int
    multiplier: int
    hands: list[list[str]]  # as dealt, each sorted for display
    actual: Par
    par: Par
    plays: list[Play]
    players: list[Player]
    contracts: list[Par]  # every contract the declarer could have bid, undoubled


def biddable(calls: Sequence[tuple[int, str]], declarer: int) -> list[str]:
    """The contracts ``declarer`` could have bid on one of their turns in the auction."""
    standing = -1
    open_to_them: set[int] = set()
    for seat, call in calls:
        if seat == declarer:
            open_to_them.update(range(standing + 1, len(CONTRACTS)))
        if call in CONTRACT_INDEX:
            standing = CONTRACT_INDEX[call]
    return [CONTRACTS[i] for i in sorted(open_to_them)]


def _deck(start: belote.State) -> list[str]:
    """A deck that deals ``start``'s hands from its dealer (the order within a hand aside)."""
    deck = [""] * 32
    for i in range(4):
        seat = (start.dealer + 1 + i) & 3
        slots = [
            *range(3 * i, 3 * i + 3),
            *range(12 + 2 * i, 14 + 2 * i),
            *range(20 + 3 * i, 23 + 3 * i),
        ]
        for slot, card in zip(slots, bits(start.hands[seat]), strict=True):
            deck[slot] = CARDS[card]
    return deck


def _bid(start: belote.State, contract: str) -> belote.State:
    """``start``'s deal at the start of trick play with the declarer alone bidding ``contract``."""
    options = belote.view(start, None)["options"]
    state = belote.new_game(0, dealer=start.dealer, decks=[_deck(start)], **options)
    bid = False
    while belote.phase(state) == "auction":
        seat = state.to_act
        call = contract if seat == start.declarer and not bid else "pass"
        bid = bid or call == contract
        state = belote.apply(state, seat, call)
    return state


def _played_out(state: belote.State, cards: Sequence[int]) -> Par:
    """``cards`` played from ``state``, scored by the engine."""
    line = []
    for card in cards:
        line.append([state.to_act, CARDS[card]])
        state = belote.apply(state, state.to_act, CARDS[card])
    deal = belote.deal_results(state)[-1]
    return {
        "contract": deal["contract"] or "",
        "multiplier": deal["multiplier"],
        "raw": list(deal["raw"]),
        "outcome": deal["outcome"],
        "written": list(deal["written"]),
        "line": line,
    }


def review_deal(start: belote.State, played: Sequence[str]) -> Review:
    """Review the deal that ``start`` (its state once the auction is over) began, whose 32 cards
    were ``played`` in order."""
    if belote.phase(start) != "play" or start.trick or start.tricks:
        raise ValueError("a review starts from the first card of a deal")
    if len(played) != 32:
        raise ValueError("a review needs the deal's 32 cards")
    solver = Solver(start.contract)
    first = position_of(start)
    actual = _played_out(start, [INDEX[card] for card in played])

    plays: list[Play] = []
    players = {seat: Player(seat=seat, cards=0, exact=0, lost=0) for seat in range(4)}
    position: Position = first
    for code in played:
        card = INDEX[code]
        seat = position.to_act
        value, best = solver.best_cards(position)
        lost = 0
        if card not in best:
            margin = solver.value_after(position, card)
            lost = (value - margin if not seat & 1 else margin - value) // 2
        plays.append({"seat": seat, "card": code, "best": [CARDS[c] for c in best], "lost": lost})
        player = players[seat]
        player["cards"] += 1
        player["exact"] += not lost
        player["lost"] += lost
        position = position.after(card)

    par = _played_out(start, solver.line(first))
    contracts = []
    for contract in biddable(start.calls, start.declarer):
        state = _bid(start, contract)
        other = solver if state.contract == start.contract else Solver(state.contract)
        contracts.append(_played_out(state, other.line(position_of(state))))
    return {
        "version": VERSION,
        "dealer": start.dealer,
        "contract": CONTRACTS[start.contract],
        "declarer": start.declarer,
        "multiplier": start.mult,
        "hands": [
            belote.sort_hand([CARDS[c] for c in bits(hand)], CONTRACTS[start.contract])
            for hand in start.hands
        ],
        "actual": actual,
        "par": par,
        "plays": plays,
        "players": list(players.values()),
        "contracts": contracts,
    }


def deal_starts(states: Sequence[belote.State]) -> dict[int, tuple[belote.State, list[str]]]:
    """From a match's states in order, each played deal's state at its first card and its 32
    cards, by deal number."""
    out: dict[int, tuple[belote.State, list[str]]] = {}
    for state in states:
        if belote.phase(state) == "play" and not state.trick and not state.tricks:
            out.setdefault(state.deal_no, (state, []))
    results = belote.deal_results(states[-1]) if states else []
    for number, (_start, cards) in out.items():
        if number < len(results):
            cards.extend(card for trick in results[number]["tricks"] for _seat, card in trick)
    return {number: value for number, value in out.items() if len(value[1]) == 32}
