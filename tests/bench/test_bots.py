"""The bot benchmarks count and report what they say."""

from __future__ import annotations

import argparse

import pytest

from games.bench import belote_bots, grabush_bots


def test_belote_bench_summarises_matches() -> None:
    result = belote_bots.bench_belote(2, 0.005, 1, hard_matches=1, target=21, seed=3)
    assert result["pairings"]["normal-vs-easy"]["matches"] == 2
    assert result["pairings"]["hard-vs-normal"]["matches"] == 1
    assert set(result["times"]) == {"easy", "normal", "hard"}
    assert "normal-vs-easy" in belote_bots.format(result)


def test_grabush_bench_counts_and_formats() -> None:
    result = grabush_bots.bench_grabush(2, 0.01, 2, 1, matchups=(("normal", "easy"),))
    row = result["matchups"][0]
    assert row["a_wins"] + row["b_wins"] + row["draws"] + row["capped"] == 2
    assert set(result["times"]) == {"normal", "easy"}
    assert "normal vs easy" in grabush_bots.format_bench(result)


def test_grabush_bench_matchup_option() -> None:
    assert grabush_bots._parse_matchup("hard-normal") == ("hard", "normal")
    for bad in ("hard", "hard-expert", "-normal"):
        with pytest.raises(argparse.ArgumentTypeError):
            grabush_bots._parse_matchup(bad)
