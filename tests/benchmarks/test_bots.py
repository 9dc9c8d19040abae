"""The bot benchmarks count and report what they say."""

from __future__ import annotations

import argparse
import random

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
    assert belote_bots.parse_pairs("normal-vs-easy=3,hard-vs-normal") == {
        "normal-vs-easy": 3,
        "hard-vs-normal": belote_bots.PAIRINGS["hard-vs-normal"][3],
    }
    with pytest.raises(argparse.ArgumentTypeError):
        belote_bots.parse_pairs("expert-vs-nobody=3")


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


def test_duplicate_deals_play_each_deal_twice_with_the_teams_swapped(monkeypatch) -> None:
    played: list[tuple[list[str], list[str], int]] = []
    real = belote_bots.play_deal

    def watched(names, deck, dealer, budget, seed, *extra):
        played.append((list(names), list(deck), dealer))
        return real(names, deck, dealer, budget, seed, *extra)

    monkeypatch.setattr(belote_bots, "play_deal", watched)
    result = belote_bots.duplicate_deals({"normal-vs-easy": 2}, 0.005, 1, seed=4)
    row = result["pairings"]["normal-vs-easy"]
    assert row["deal_pairs"] == 2
    low, high = row["interval"]
    assert low <= row["mean_difference"] <= high
    # Each deal twice: the same cards and dealer, normal on team 0 and then on team 1.
    assert len(played) == 4
    for first, second in (played[0:2], played[2:4]):
        assert first[1:] == second[1:]
        assert first[0] == ["normal", "easy"] * 2 and second[0] == ["easy", "normal"] * 2
    assert "normal-vs-easy: 2 deal pairs" in belote_bots.format_duplicate(result)


def test_the_arena_is_skipped_with_its_reason_where_it_cannot_run(monkeypatch, tmp_path) -> None:
    from benchmarks import arena

    monkeypatch.setattr(arena, "HARNESS", tmp_path / "arena-2001")
    assert "is not here" in arena.skipped()
    (tmp_path / "arena-2001").mkdir()
    (tmp_path / "arena-2001" / "arena_2001.py").write_text("")
    monkeypatch.setenv("ARENA_PYTHON", "")
    monkeypatch.setattr(arena, "MODULES", "import a_module_nobody_has")
    assert "no Python with unicorn" in arena.skipped()


class _RandomHost:
    """Stands in for the harness's host of the 2001 AI: random legal calls and cards."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []
        self.rng = random.Random(5)

    def renew(self) -> None:
        pass

    def seed(self, value: int) -> None:
        self.rng.seed(value)

    def bid(self, view, h):
        self.asked.append((view["seat"], h))
        return self.rng.choice(view["legal"])

    play = bid


def test_duplicate_deals_against_the_2001_ai_swap_the_teams_on_the_same_cards(monkeypatch) -> None:
    from benchmarks import arena, arena_deals
    from games.engines import duplicate

    host = _RandomHost()
    monkeypatch.setattr(arena_deals, "HARNESS", {"host": host, "played": 0})
    played = []
    real = arena_deals.play_deal

    def watched(player, deck, dealer, side, budget, tag):
        result = real(player, deck, dealer, side, budget, tag)
        played.append((list(deck), dealer, side, result[0]))
        return result

    monkeypatch.setattr(arena_deals, "play_deal", watched)
    outcomes = [arena_deals.deal_pair(("normal", number, 0.01, 8)) for number in range(6)]
    for outcome, (first, second) in zip(
        outcomes, zip(played[::2], played[1::2], strict=True), strict=True
    ):
        assert first[:2] == second[:2] and (first[2], second[2]) == (0, 1)
        differences = [
            duplicate.deal_score(line)[side] - duplicate.deal_score(line)[1 - side]
            for _deck, _dealer, side, line in (first, second)
        ]
        assert outcome["difference"] == sum(differences) / 2
    # The 2001 AI is asked only for the other team's seats, as the harness seats it.
    assert {(seat & 1, h) for seat, h in host.asked} == {(1, 0), (0, 1)}
    summary = arena_deals.summarise(outcomes)
    low, high = summary["interval"]
    assert summary["deal_pairs"] == 6 and low <= summary["mean_difference"] <= high
    declared = sum(v for k, v in summary["contracts"].items() if k.endswith(":declared"))
    assert declared + summary["contracts"].get("all pass", 0) == 12
    text = arena.format_deals({"player": "normal", "budget": 0.01, "p99_ms": 1.0, **summary})
    assert "normal vs the 2001 AI by duplicate deals: 6 deal pairs" in text
