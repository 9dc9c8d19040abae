"""The one percentile and the win-rate interval every benchmark reports with."""

from games.bench.stats import percentile, wilson


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
