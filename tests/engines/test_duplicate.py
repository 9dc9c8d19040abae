"""Duplicate Belote's rules: a deal scored on its own, matchpoints on hand-made scores, the
movement, and the same deals at every table of a round."""

from __future__ import annotations

import pytest

from games.engines import belote, duplicate
from games.engines.duplicate import COMPUTERS

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
    count = max(4, pairs + pairs % 2)
    rounds = duplicate.movement(pairs, count - 1)
    met: dict[int, list[int]] = {pair: [] for pair in range(pairs)}
    first: dict[int, int] = {pair: 0 for pair in range(pairs)}
    for tables in rounds:
        assert len(tables) == count // 2 >= 2  # two tables or more to compare
        seated = [pair for table in tables for pair in table if pair != COMPUTERS]
        assert sorted(seated) == list(range(pairs))  # each pair plays once a round
        for one, other in tables:
            if one != COMPUTERS:
                first[one] += 1
                met[one].append(other)
            if other != COMPUTERS:
                met[other].append(one)
    for pair, opponents in met.items():
        humans = [o for o in opponents if o != COMPUTERS]
        assert len(set(humans)) == len(humans)  # never the same pair twice
        assert abs(2 * first[pair] - len(opponents)) <= 1  # each direction half the rounds


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
