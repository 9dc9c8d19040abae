"""The bot benchmarks count and report what they say."""

from __future__ import annotations

import argparse

import pytest

from benchmarks import belote_bots, grabush_bots, manners


def test_belote_bench_plays_mirrored_pairs_and_judges_manners() -> None:
    pairs = {"normal-vs-easy": 2, "expert-vs-frozen-hard": 1}
    result = belote_bots.bench_belote(pairs, 0.005, 1, target=21, seed=3)
    assert result["pairings"]["normal-vs-easy"]["matches"] == 4  # each pair: both sides
    assert result["pairings"]["expert-vs-frozen-hard"]["matches"] == 2
    assert set(result["times"]) == {"easy", "normal", "expert", "frozen-hard"}
    for name, counts in result["faults_per_1000"].items():
        assert set(counts) == set(manners.FAULTS), name
    pairs_seen = result["pairings"]["normal-vs-easy"]["pairs"]
    assert sum(pairs_seen.values()) == 2 and pairs_seen["drawn"] == 0
    text = belote_bots.format(result)
    assert "normal-vs-easy" in text and "per 1,000 decisions" in text
    assert "normal won both" in text


def test_the_pairs_option() -> None:
    assert belote_bots._pairs("normal-vs-easy=3,hard-vs-normal") == {
        "normal-vs-easy": 3,
        "hard-vs-normal": belote_bots.PAIRINGS["hard-vs-normal"][3],
    }
    with pytest.raises(argparse.ArgumentTypeError):
        belote_bots._pairs("expert-vs-nobody=3")


def test_grabush_bench_counts_and_formats() -> None:
    result = grabush_bots.bench_grabush(2, 0.01, 2, 1, matchups=(("normal", "easy"),))
    row = result["matchups"][0]
    assert row["a_wins"] + row["b_wins"] + row["draws"] + row["capped"] == 2
    assert sum(row["pairs"].values()) == 1  # one seed, played from either side
    assert set(result["times"]) == {"normal", "easy"}
    text = grabush_bots.format_bench(result)
    assert "normal vs easy" in text and "one each (the deal decided)" in text


def test_grabush_bench_plays_each_deal_from_both_sides() -> None:
    assert grabush_bots.mirrored(5, 10) == [(10, 0), (10, 1), (11, 0), (11, 1), (12, 0)]


def test_grabush_bench_matchup_option() -> None:
    assert grabush_bots._parse_matchup("hard-normal") == ("hard", "normal")
    for bad in ("hard", "hard-expert", "-normal"):
        with pytest.raises(argparse.ArgumentTypeError):
            grabush_bots._parse_matchup(bad)


def test_faults_where_possible_counts_each_players_faults(monkeypatch) -> None:
    def careless(view, rng, budget):
        return next(card for card in view["legal"] if manners.faults(view, card))

    def careful(view, rng, budget):
        return next(card for card in view["legal"] if not manners.faults(view, card))

    monkeypatch.setitem(belote_bots.PLAYERS, "careless", careless)
    monkeypatch.setitem(belote_bots.PLAYERS, "careful", careful)
    rates = belote_bots.faults_where_possible(["careless", "careful"], 20, seed=3)
    assert sum(rates["careless"].values()) >= 1000
    assert rates["careful"] == dict.fromkeys(manners.CARD_FAULTS, 0.0)
    assert "careless" in belote_bots.format_faults(rates, 20)
