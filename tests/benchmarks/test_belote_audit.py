"""The audit of a Belote level's deals: bid readability, doubles, donations."""

from __future__ import annotations

import random

from benchmarks import belote_audit, belote_levels
from games.bots import belote as bots
from games.engines import belote
from games.engines.belote_cards import mask


def hand(cards: str) -> int:
    return mask(cards.split())


def test_bids_are_read_naturally_and_doubles_counted_with_the_deals_they_won() -> None:
    calls = [
        (0, hand("JH 7C 8C 7D 8D"), "H"),  # the jack: natural
        (0, hand("9S AS 7C 8C 7D"), "S"),  # the nine beside the ace: natural
        (2, hand("9D 8D 7C 8C 7H"), "D"),  # the nine alone: not natural
        (2, hand("AC 7D 8D 7H 8H"), "NT"),
        (0, hand("9C 9D 7H 8H KS"), "AT"),  # no jack
        (2, hand("JC 7D 8D 7H 8H"), "recontra"),
        (0, hand("JC 7D 8D 7H 8H"), "contra"),
    ]
    counts = belote_audit.audit_deal(None, {"written": [16, 0], "tricks": []}, calls, (0, 2))
    assert counts["suit bids"] == 3 and counts["natural suit bids"] == 2
    assert counts["NT bids"] == 1 and counts["NT with an ace"] == 1
    assert counts["AT bids"] == 1 and counts["AT with a jack"] == 0
    assert counts["redoubles"] == 1 and counts["redoubles won"] == 1
    assert counts["doubles"] == 1 and counts["doubles won"] == 1
    lost = belote_audit.audit_deal(None, {"written": [0, 32], "tricks": []}, calls[-2:], (0, 2))
    assert lost["redoubles"] == 1 and lost["redoubles won"] == 0
    text = belote_audit.format_audit(dict(counts), "some deals")
    assert "natural suit bids 2/3 = 66.7%" in text and "redoubles 1 (1 won)" in text


def test_a_recorded_deal_counts_every_card_of_the_seats_audited() -> None:
    rng = random.Random(2)
    state = belote.new_game(7, dealer=0)
    recorder = belote_audit.Recorder((1, 3))
    while not belote.deal_results(state):
        seat = state.to_act
        view = belote.view(state, seat)
        action = bots.choose_easy(view, rng)
        recorder.saw(state, seat, view, action)
        state = belote.apply(state, seat, action)
    counts = recorder.tally(belote.deal_results(state)[0])
    assert counts["cards 1-3"] == 6 and counts["cards 4-8"] == 10
    assert all(call[0] in (1, 3) for call in recorder.calls)


def test_the_summary_a_level_gathers_each_benchmark() -> None:
    result = {
        "arena": [{"level": "hard", "wins": 60, "matches": 100, "interval": (0.5, 0.69)}],
        "arena_partner": [{"level": "hard", "wins": 5, "matches": 10, "interval": (0.2, 0.8)}],
        "arena_deals": [
            {
                "player": "hard",
                "mean_difference": 1.5,
                "deal_pairs": 300,
                "interval": (0.1, 2.9),
                "audit": {"cards 1-3": 1000, "donations 1-3": 1, "redoubles": 2},
                "p50_ms": 40.0,
                "p99_ms": 190.0,
            }
        ],
    }
    text = belote_levels.format_levels(belote_levels.figures(result))
    assert "matches vs the 2001 AI: 60/100 = 60.0%" in text
    assert "partner mode, its team's matches: 5/10 = 50.0%" in text
    assert "duplicate points vs the 2001 AI: +1.50 a deal over 300 deal pairs" in text
    assert "duplicate points vs frozen-hard: not run" in text
    assert "1.0 in tricks 1-3 (1 of 1000)" in text and "redoubles 2 (0 won)" in text
    assert "p50 40.0 ms, p99 190.0 ms" in text
