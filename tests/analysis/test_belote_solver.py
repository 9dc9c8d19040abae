"""The double-dummy solver against plain exhaustive search through the engine, and against
positions worked out by hand from the rules (``shared/rules/belote.md`` §4 to §7)."""

from __future__ import annotations

import random

import pytest

from games.analysis.belote_solver import Position, Solver, TooLong, position_of
from games.engines import belote
from games.engines.belote_cards import CONTRACT_INDEX, INDEX, mask

from ..engines.belote_helpers import biased_choice

#: Random endgames compared with exhaustive search: every size from one card to four tricks
#: and every contract many times over (the four-trick ones cost the most).
ENDGAMES = 500


def endgame(rng: random.Random, cards_left: int) -> belote.State:
    """A state of a random deal in trick play with ``cards_left`` cards still in hand."""
    while True:
        state = belote.new_game(rng.randrange(1 << 30))
        while belote.phase(state) == "auction" and state.deal_no == 0:
            state = belote.apply(
                state, state.to_act, biased_choice(rng, belote.legal_actions(state, state.to_act))
            )
        if belote.phase(state) != "play":
            continue
        while sum(hand.bit_count() for hand in state.hands) > cards_left:
            state = belote.apply(
                state, state.to_act, rng.choice(belote.legal_actions(state, state.to_act))
            )
        return state


def won_so_far(state: belote.State) -> int:
    """Team 0's margin of what this deal has scored so far (card points and belots)."""
    factor = 2 if state.contract == CONTRACT_INDEX["NT"] else 1
    belots = sum(20 if seat % 2 == 0 else -20 for seat, _suit in state.belots)
    return factor * (state.points[0] - state.points[1]) + belots


def final_margin(state: belote.State) -> int:
    """Team 0's margin of the deal just scored (its tricks, belots and capot)."""
    deal = belote.deal_results(state)[-1]
    total = [deal["card_points"][t] + deal["belot"][t] + 90 * (deal["capot"] == t) for t in (0, 1)]
    return total[0] - total[1]


def exhaustive(state: belote.State, memo: dict) -> int:
    """Team 0's margin from ``state`` on, by trying every legal card with the engine (plain
    minimax; trick starts are remembered, as their values do not depend on the way there)."""
    key = None
    if not state.trick:
        key = (state.hands, state.leader, state.won[0] > 0, state.won[1] > 0)
        if key in memo:
            return memo[key]
    values = [after(state, card, memo) for card in belote.legal_actions(state, state.to_act)]
    value = max(values) if state.to_act % 2 == 0 else min(values)
    if key is not None:
        memo[key] = value
    return value


def after(state: belote.State, card: str, memo: dict) -> int:
    """Team 0's margin from ``state`` on once ``card`` is played, by exhaustive search."""
    child = belote.apply(state, state.to_act, card)
    if child.deal_no != state.deal_no or belote.phase(child) == "over":
        return final_margin(child) - won_so_far(state)
    return won_so_far(child) - won_so_far(state) + exhaustive(child, memo)


def test_the_solver_agrees_with_exhaustive_search_on_random_endgames():
    """Positions of up to four tricks, at every point of a trick and under every contract: the
    value and the value after each legal card."""
    rng = random.Random(2026)
    contracts = set()
    for i in range(ENDGAMES):
        state = endgame(rng, 1 + i % 16)
        contracts.add(state.contract)
        position = position_of(state)
        solver = Solver(state.contract)
        memo: dict = {}
        assert solver.value(position) == exhaustive(state, memo), belote.dumps(state)
        for card in belote.legal_actions(state, state.to_act):
            expected = after(state, card, memo)
            assert solver.value_after(position, INDEX[card]) == expected, (
                belote.dumps(state),
                card,
            )
    assert contracts == set(range(6))


def test_best_cards_and_a_line_keep_the_value():
    rng = random.Random(7)
    for i in range(200):
        state = endgame(rng, 8 + i % 9)
        solver = Solver(state.contract)
        position = position_of(state)
        value, best = solver.best_cards(position)
        memo: dict = {}
        values = {
            card: after(state, card, memo) for card in belote.legal_actions(state, state.to_act)
        }
        keep = max(values.values()) if state.to_act % 2 == 0 else min(values.values())
        assert value == keep
        assert sorted(best) == sorted(INDEX[card] for card, v in values.items() if v == keep)
        # The line, played through the engine, scores exactly the value.
        line = solver.line(position)
        played = state
        for card in line:
            played = belote.apply(played, played.to_act, belote.CARDS[card])
        assert final_margin(played) - won_so_far(state) == value


def hands(*seats: str) -> tuple[int, int, int, int]:
    return tuple(mask(seat.split()) for seat in seats)  # type: ignore[return-value]


def test_the_last_trick_in_no_trumps_is_doubled_with_the_last_ten():
    # A♠ 11 + 7♠ 0 + K♠ 4 + 10♥ 10 = 25, doubled 50, and the last ten doubled: 20.
    position = Position(CONTRACT_INDEX["NT"], hands("AS", "7S", "KS", "TH"), leader=0, taken=3)
    assert Solver(position.contract).value(position) == 70


def test_a_capot_adds_90_only_while_the_other_team_has_no_trick():
    # Hearts: J♥ then 9♥ take both tricks; the partner smears A♣ and 10♣ on them.
    # 20 + 11 + 14 + 10 + last ten 10 = 65, and 90 for a capot when team 1 has taken nothing.
    cards = hands("JH 9H", "7C 8C", "AC TC", "7D 8D")
    hearts = CONTRACT_INDEX["H"]
    assert Solver(hearts).value(Position(hearts, cards, leader=0, taken=1)) == 155
    assert Solver(hearts).value(Position(hearts, cards, leader=0, taken=3)) == 65


def test_a_belot_counts_unless_all_trumps_throws_it_on_another_suit():
    cards = hands("JS 9S", "KH QH", "7S 8S", "7D 8D")
    # All Trumps: seat 1 must throw K♥ Q♥ on the spades that seat 0 leads and wins:
    # 20 + 14 + 4 + 3 + last ten 10 = 51 for team 0, and no belot for team 1.
    all_trumps = CONTRACT_INDEX["AT"]
    assert Solver(all_trumps).value(Position(all_trumps, cards, leader=0, taken=3)) == 51
    # Hearts: seat 1 must ruff the J♠ with a heart (belot, 20) and takes both tricks:
    # 2 + 4 + 3 + last ten 10 + belot 20 = 39 for team 1.
    hearts = CONTRACT_INDEX["H"]
    assert Solver(hearts).value(Position(hearts, cards, leader=0, taken=3)) == -39


def test_a_forced_over_trump_leaves_one_card_to_try():
    # Rules §4: Hearts, trick 7♣ K♣ 9♥ (an opponent trumped), S holds J♥ 8♥ 7♦: only J♥.
    hearts = CONTRACT_INDEX["H"]
    position = Position(
        hearts,
        hands("JH 8H 7D", "AS 8S", "KS 7S", "QS TS"),
        leader=1,
        trick=(INDEX["7C"], INDEX["KC"], INDEX["9H"]),
        taken=3,
    )
    solver = Solver(hearts)
    assert position.legal() == [INDEX["JH"]]
    assert solver.value(position) == solver.value_after(position, INDEX["JH"])
    with pytest.raises(ValueError):
        solver.value_after(position, INDEX["8H"])


def test_a_solver_forgets_an_earlier_deal():
    """The same cards in other hands are another deal: nothing learnt from the first may
    answer for it."""
    hearts = CONTRACT_INDEX["H"]
    solver = Solver(hearts)
    first = Position(hearts, hands("JH 9H", "7C 8C", "AC TC", "7D 8D"), leader=0, taken=3)
    other = Position(hearts, hands("7C 8C", "JH 9H", "7D 8D", "AC TC"), leader=0, taken=3)
    assert solver.value(first) == 65
    # Seat 1 ruffs the club lead and draws the last trump; its partner gives A♣ and 10♣.
    assert solver.value(other) == -65


def test_a_question_over_its_node_budget_stops_and_leaves_the_table_sound():
    rng = random.Random(12)
    cards = list(range(32))
    rng.shuffle(cards)
    dealt = tuple(sum(1 << c for c in cards[8 * i : 8 * i + 8]) for i in range(4))
    position = Position(CONTRACT_INDEX["NT"], dealt, leader=1)  # type: ignore[arg-type]
    solver = Solver(position.contract)
    with pytest.raises(TooLong):
        solver.value(position, nodes=500)
    # What the stopped search had found is not kept: the answer is the exact one.
    assert solver.value(position) == Solver(position.contract).value(position)
