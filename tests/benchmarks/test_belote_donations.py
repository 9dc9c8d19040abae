"""Donations: high cards given to the opponents when a lower card lost nothing double-dummy."""

from __future__ import annotations

import random

from benchmarks.belote_donations import is_donation, judge_deal
from games.analysis.belote_solver import Position, Solver
from games.bots import belote as bots
from games.engines import belote
from games.engines.belote_cards import CONTRACT_INDEX, INDEX, mask

SPADES = CONTRACT_INDEX["S"]
HEARTS = CONTRACT_INDEX["H"]


def position(contract: int, leader: int, trick: str, *seats: str) -> Position:
    hands = tuple(mask(seat.split()) for seat in seats)
    return Position(contract, hands, leader, tuple(INDEX[c] for c in trick.split()))  # type: ignore[arg-type]


def test_a_ten_thrown_under_the_opponents_ace_with_a_seven_beside_it_is_a_donation() -> None:
    # Spades; West (3) leads A♣, nobody holds a spade: A♣ takes the trick whatever follows.
    # South (0) holds 10♣ and 7♣: the 7 loses nothing, the 10 gives ten points away.
    p = position(SPADES, 3, "AC", "TC 7C", "8C 7D", "7H 8D", "KD")
    solver = Solver(SPADES)
    assert is_donation(solver, p, INDEX["TC"], taker=3)
    assert not is_donation(solver, p, INDEX["7C"], taker=3)  # not a high card


def test_a_forced_high_card_is_not_a_donation() -> None:
    # South's only club is the 10: it must follow with it.
    p = position(SPADES, 3, "AC", "TC 7D", "8C 7C", "7H 8D", "KD")
    assert not is_donation(Solver(SPADES), p, INDEX["TC"], taker=3)


def test_a_high_card_into_the_partners_trick_is_not_a_donation() -> None:
    p = position(SPADES, 3, "AC", "TC 7C", "8C 7D", "7H 8D", "KD")
    assert not is_donation(Solver(SPADES), p, INDEX["TC"], taker=2)


def test_a_high_card_that_gains_double_dummy_is_not_a_donation() -> None:
    # Hearts; West (3) leads K♠. South's 10♠ takes it from West, so East (1), void in spades,
    # must ruff with its 9♥ (14 points); over the 7♠ East would keep its 9♥ for later.
    p = position(HEARTS, 3, "KS", "QH 7S TS", "9C KD 9H", "7C TC 9S", "8C JS")
    solver = Solver(HEARTS)
    assert solver.value(p, INDEX["TS"]) > solver.value(p, INDEX["7S"])
    assert not is_donation(solver, p, INDEX["TS"], taker=1)


def test_a_deal_is_judged_card_by_card_for_the_seats_asked() -> None:
    rng = random.Random(3)
    state = belote.new_game(7, dealer=0)
    start = None
    while not belote.deal_results(state):
        seat = state.to_act
        view = belote.view(state, seat)
        if view["phase"] == "play" and start is None:
            start = state
        state = belote.apply(state, seat, bots.choose_easy(view, rng))
    result = belote.deal_results(state)[0]
    assert start is not None  # this seed's deal is bid and played
    played = [card for trick in result["tricks"] for _seat, card in trick]
    judged = judge_deal(start, played, [1, 3])
    assert len(judged) == 16
    assert {card.seat for card in judged} == {1, 3}
    assert [card.trick for card in judged] == [t for t in range(1, 9) for _ in range(2)]
    assert [c.card for c in judged] == [
        INDEX[card] for trick in result["tricks"] for seat, card in trick if seat in (1, 3)
    ]
