"""The one percentile, the win-rate interval and the mirrored pairs the benchmarks report."""

from benchmarks.stats import mirrored_outcomes, percentile, wilson


def test_percentiles_are_by_nearest_rank():
    values = [i / 1000 for i in range(1, 101)]
    assert percentile(values, 0.5) == 0.05
    assert percentile(values, 0.95) == 0.095
    assert percentile(values, 0.07) == 0.007
    assert percentile(values, 1.0) == 0.1
    assert percentile(values, 0.0) == 0.001
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) is None


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(90, 100)
    assert 0.82 < low < 0.9 < high < 0.95


def test_mirrored_pairs_are_counted_by_both_games():
    games = [(1, True), (1, True), (2, False), (2, True), (3, False), (3, False)]
    games += [(4, True), (4, None), (5, True)]  # a draw; a pair missing its second game
    assert mirrored_outcomes(games) == {"won_both": 1, "lost_both": 1, "split": 1, "drawn": 1}
    assert mirrored_outcomes([(1, True), (0, False), (1, False), (0, False)])["split"] == 1
