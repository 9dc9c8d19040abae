"""The review benchmark reviews the deals it says, each a deal really played."""

from benchmarks import review
from games.engines import belote


def test_the_deals_are_played_deals_from_their_first_card():
    deals = list(review.played_deals(5, seed=2))
    assert len(deals) == 5
    for start, cards in deals:
        assert belote.phase(start) == "play" and not start.tricks
        assert len(cards) == 32 and len(set(cards)) == 32


def test_the_benchmark_reports_its_times():
    result = review.run(deals=3, seed=2)
    assert result["deals"] == 3
    assert 0 < result["median_ms"] <= result["p95_ms"] <= result["max_ms"]
    assert "3 Belote deals reviewed" in review.format_result(result)
