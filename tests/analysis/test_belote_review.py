"""A deal's review: par, the cost of each card, par by contract; the figures checked against
the engine's own scoring of the lines played."""

from __future__ import annotations

import random

from games.analysis.belote_review import biddable, deal_starts, review_deal
from games.analysis.belote_solver import Solver, position_of
from games.engines import belote
from games.engines.belote_cards import CARDS

from ..engines.belote_helpers import calls, stack

HANDS = [
    ["JH", "9H", "AH", "TC", "KC", "7D", "8S", "9S"],
    ["7H", "8H", "AC", "QC", "TD", "KD", "7S", "TS"],
    ["QH", "KH", "JC", "9C", "8C", "AD", "JS", "QS"],
    ["TH", "7C", "9D", "8D", "QD", "JD", "AS", "KS"],
]


def start_of_play(*auction: str) -> belote.State:
    """The stacked deal above after ``auction`` (dealer 3: seat 0 calls first)."""
    state = belote.new_game(1, dealer=3, decks=[stack(3, HANDS)])
    return calls(state, *auction)


def margin(raw: list[int], team: int) -> int:
    return raw[team] - raw[1 - team]


def play_out(state: belote.State, cards: list[int]) -> list[str]:
    for card in cards:
        state = belote.apply(state, state.to_act, CARDS[card])
    return [CARDS[card] for card in cards]


def test_a_perfectly_played_deal_loses_nothing_and_makes_par():
    start = start_of_play("H", "pass", "pass", "pass")
    line = Solver(start.contract).line(position_of(start))
    review = review_deal(start, play_out(start, line))
    assert all(play["lost"] == 0 and play["card"] in play["best"] for play in review["plays"])
    assert [(p["cards"], p["exact"], p["lost"]) for p in review["players"]] == [(8, 8, 0)] * 4
    assert review["par"]["raw"] == review["actual"]["raw"]
    assert review["hands"][0] == belote.sort_hand(HANDS[0], "H")


def test_a_mistake_costs_what_the_engine_scores_and_is_charged_to_its_player():
    start = start_of_play("pass", "pass", "S", "pass", "pass", "pass")
    solver = Solver(start.contract)
    position = position_of(start)
    cards: list[int] = []
    blunder_at = None
    rng = random.Random(3)
    # Play perfectly, except one card of seat 1 or 3 that is not among the best.
    while not position.over:
        _value, best = solver.best_cards(position)
        worse = [c for c in position.legal() if c not in best]
        if blunder_at is None and position.to_act % 2 == 1 and worse and len(cards) > 4:
            card = rng.choice(worse)
            blunder_at = len(cards)
        else:
            card = best[0]
        cards.append(card)
        position = position.after(card)
    assert blunder_at is not None
    review = review_deal(start, play_out(start, cards))
    lost = [play["lost"] for play in review["plays"]]
    assert lost[blunder_at] > 0
    assert sum(lost) == lost[blunder_at]
    # Team 1's margin fell by twice the points the card gave away (engine-scored lines).
    par, actual = review["par"]["raw"], review["actual"]["raw"]
    assert margin(par, 1) - margin(actual, 1) == 2 * lost[blunder_at]
    blunderer = review["plays"][blunder_at]["seat"]
    player = review["players"][blunderer]
    assert (player["exact"], player["lost"]) == (7, lost[blunder_at])


def test_par_by_contract_covers_what_the_declarer_could_bid():
    # Seat 0 opens clubs, seat 2 (the declarer) overcalls hearts over it.
    start = start_of_play("C", "pass", "H", "pass", "pass", "pass")
    line = Solver(start.contract).line(position_of(start))
    review = review_deal(start, play_out(start, line))
    assert [entry["contract"] for entry in review["contracts"]] == ["D", "H", "S", "NT", "AT"]
    hearts = next(entry for entry in review["contracts"] if entry["contract"] == "H")
    assert hearts["raw"] == review["par"]["raw"]
    for entry in review["contracts"]:
        # Every line is a whole deal the engine accepted and scored.
        assert len(entry["line"]) == 32 and entry["outcome"] in ("made", "inside", "hanging")


def test_the_contracts_open_to_the_declarer():
    assert biddable(
        [(0, "C"), (1, "pass"), (2, "H"), (3, "pass"), (0, "pass"), (1, "pass")], 2
    ) == [
        "D",
        "H",
        "S",
        "NT",
        "AT",
    ]
    assert biddable([(0, "pass"), (1, "S"), (2, "pass"), (3, "pass"), (0, "pass")], 1) == list(
        belote.CONTRACTS
    )
    # A second turn after a higher bid opens only what is above it.
    assert biddable([(0, "D"), (1, "AT"), (2, "pass"), (3, "pass"), (0, "pass")], 1) == [
        "H",
        "S",
        "NT",
        "AT",
    ]


def test_deal_starts_skips_thrown_in_deals():
    state = belote.new_game(5, dealer=3, decks=[stack(3, HANDS), stack(0, HANDS)])
    states = [state]
    for call in ("pass",) * 4:  # deal 0 thrown in
        state = belote.apply(state, state.to_act, call)
        states.append(state)
    for call in ("H", "pass", "pass", "pass"):
        state = belote.apply(state, state.to_act, call)
        states.append(state)
    while state.deal_no == 1:
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[0])
        states.append(state)
    starts = deal_starts(states)
    assert list(starts) == [1]
    first, cards = starts[1]
    assert len(cards) == 32 and cards[0] in belote.legal_actions(first, first.to_act)
