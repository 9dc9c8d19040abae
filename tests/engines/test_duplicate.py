"""Duplicate Belote's rules: a deal scored on its own, matchpoints on hand-made scores, the
movement, and the same deals at every table of a round."""

from __future__ import annotations

import pytest

from games.engines import belote, duplicate

from .belote_helpers import calls, play_deal


def test_matchpoints_one_for_each_pair_outscored_half_for_each_tie():
    assert duplicate.matchpoints({"a": 50, "b": 10, "c": 10, "d": -30}) == {
        "a": 3.0,
        "b": 1.5,
        "c": 1.5,
        "d": 0.0,
    }
    assert duplicate.matchpoints({"only": 7}) == {"only": 0.0}


def test_a_deal_is_compared_in_the_same_direction_at_every_other_table():
    # Table 1: team 0 wrote 16, team 1 wrote 0; table 2: 8-8; table 3: 0-25.
    scores = {1: (16, 0), 2: (8, 8), 3: (0, 25)}
    assert duplicate.deal_matchpoints(scores) == {1: (2.0, 0.0), 2: (1.0, 1.0), 3: (0.0, 2.0)}
    tied = duplicate.deal_matchpoints({1: (10, 6), 2: (10, 6)})
    assert tied == {1: (0.5, 0.5), 2: (0.5, 0.5)}


def test_a_deal_is_scored_on_its_own():
    thrown_in = {"contract": None, "written": [0, 0]}
    assert duplicate.deal_score(thrown_in) == (0, 0)
    # Points hanging from an earlier deal are not counted: only this deal's written points.
    line = {"contract": "H", "written": [10, 6], "award": [18, 6], "hanging_won": [8, 0]}
    assert duplicate.deal_score(line) == (10, 6)


def test_a_played_deals_score_is_what_its_teams_wrote_for_it():
    state = calls(belote.new_game(3, dealer=3), "H", "pass", "pass", "pass")
    result = belote.deal_results(play_deal(state))[0]
    assert duplicate.deal_score(result) == tuple(result["written"])


@pytest.mark.parametrize("pairs", [1, 2, 3, 4, 5, 6, 7, 8, 10])
def test_the_movement_seats_every_pair_once_a_round_against_new_opponents(pairs):
    circle = pairs + pairs % 2
    rounds = duplicate.movement(pairs, max(3, circle - 1))
    met: dict[int, list[int]] = {pair: [] for pair in range(pairs)}
    first: dict[int, int] = {pair: 0 for pair in range(pairs)}
    for tables in rounds:
        assert len(tables) == max(2, circle // 2)  # two tables or more to compare
        seated = [pair for table in tables for pair in table]
        assert len(set(seated)) == len(seated)
        assert sorted(p for p in seated if p < pairs) == list(range(pairs))  # once a round
        for one, other in tables:
            if one < pairs:
                first[one] += 1
                met[one].append(other)
            if other < pairs:
                met[other].append(one)
    for pair, opponents in met.items():
        # A new pair each round while there are new ones.
        people = [o for o in opponents[: circle - 1] if o < pairs]
        assert len(set(people)) == len(people)
        assert abs(2 * first[pair] - len(opponents)) <= 1  # each direction half the rounds


@pytest.mark.parametrize("pairs", [2, 3, 4, 5, 6, 7, 8, 10])
def test_registered_pairs_meet_each_other_and_computers_only_when_their_number_is_odd(pairs):
    for tables in duplicate.movement(pairs, 5):
        computers = [sum(duplicate.is_computers(pairs, p) for p in table) for table in tables]
        assert computers.count(1) == pairs % 2  # one pair against computers when odd
        # Two computer pairs play each other only where the pairs fill a single table.
        assert computers.count(2) == (1 if pairs <= 2 else 0)


def test_two_pairs_meet_in_every_round_while_computers_play_the_deals_beside_them():
    for number, tables in enumerate(duplicate.movement(2, 4)):
        assert tables[0] == ((0, 1) if number % 2 == 0 else (1, 0))  # both directions in turn
        assert set(tables[1]) == {2, 3}
        assert duplicate.is_computers(2, 2) and duplicate.is_computers(2, 3)
        assert not duplicate.is_computers(2, 1)


def test_every_table_of_a_round_gets_the_same_deals_and_rounds_differ():
    one = duplicate.event_deals("event-secret", 0, 4)
    assert one == duplicate.event_deals("event-secret", 0, 4)
    assert one != duplicate.event_deals("event-secret", 1, 4)
    assert one != duplicate.event_deals("other-secret", 0, 4)
    for deal in one:
        assert sorted(deal["cards"]) == sorted(belote.CARDS) and deal["dealer"] in range(4)
    # A table dealt these cards plays exactly them, in order.
    state = belote.new_game(0, dealer=one[0]["dealer"], decks=[deal["cards"] for deal in one])
    hands = {seat: set(belote.view(state, seat)["hand"]) for seat in range(4)}
    first_five = {card for cards in hands.values() for card in cards}
    assert first_five == set(one[0]["cards"][:20])
