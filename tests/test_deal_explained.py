"""A deal's result explains itself: the summary's parts add up to its total, and one sentence
says why the written points are what they are (made, inside, hanging, contra, capot)."""

from __future__ import annotations

import random

from games.engines import belote
from games.presenters import belote as presenter

NAMES = {seat: f"P{seat}" for seat in range(4)}


def played_deals(matches: int = 16) -> list[dict]:
    """Every finished deal of ``matches`` whole matches of random legal play."""
    results = []
    for seed in range(matches):
        rng = random.Random(seed)
        state = belote.new_game(seed)
        while belote.winner(state) is None:
            seat = state.to_act
            state = belote.apply(state, seat, rng.choice(belote.legal_actions(state, seat)))
        results += [deal for deal in belote.deal_results(state) if deal["contract"]]
    return results


def rows_of(deal: dict, us: int) -> dict:
    return presenter.score_sheet({"deal_results": [deal]}, us, NAMES)[0]


def test_the_listed_parts_add_up_to_the_total():
    for deal in played_deals():
        for us in (0, 1):
            row = rows_of(deal, us)
            for side, ours in (("we", True), ("they", False)):
                last_ten = row["last_ten_points"] if row["last_ten_ours"] is ours else 0
                capot = 90 if row["capot_ours"] is ours else 0
                parts = row[f"{side}_tricks"] + last_ten + row[f"{side}_declarations"]
                parts += row[f"{side}_belot"] + capot
                assert parts == row[f"{side}_raw"], (deal, side)


def test_one_sentence_says_why_the_written_points_are_what_they_are():
    seen = set()
    for deal in played_deals():
        row = rows_of(deal, 0)
        said = presenter.written_because(row, "We", "They")
        assert not said[0].islower() and said.endswith(".") and "; ." not in said
        total, written = sum(deal["raw"]), deal["written"]
        multiplier, outcome = deal["multiplier"], deal["outcome"]
        if outcome == "hanging":
            assert f"{deal['hanging_added']}" in said and "wait" in said
            seen.add("hanging")
        elif multiplier > 1:
            winner = deal["winning_team"]
            assert f"×{multiplier}" in said and f"{total} → {written[winner]}" in said
            assert ("We" if winner == 0 else "They") in said
            seen.add("contra")
        elif outcome == "inside":
            defenders = 1 - deal["declarer"] % 2
            assert said.startswith("Inside: the defenders take all the points")
            assert f"{total} → {written[defenders]}" in said
            seen.add("inside")
        else:
            assert said.startswith("Made:")
            assert f"We {deal['raw'][0]} → {written[0]}" in said
            assert f"They {deal['raw'][1]} → {written[1]}" in said
            seen.add("made")
        if deal["capot"] is not None:
            assert "+90" in said and said.startswith("Capot (")
            seen.add("capot")
        if any(deal["hanging_won"]):
            assert "hanging points from earlier deals: +" in said
            seen.add("hanging won")
    assert {"made", "inside", "hanging", "contra", "hanging won"} <= seen, seen
