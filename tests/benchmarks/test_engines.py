"""The engine benchmark runs and counts what it says."""

from benchmarks import engines as bench


def test_bench_counts_deals_and_pairs():
    rows = bench.run(seconds=0.2, seed=3)
    assert [row["engine"] for row in rows] == [
        "belote",
        "grabush-2p",
        "grabush-4p",
        "grabush-6p",
        "grabush-8p",
    ]
    assert rows[0]["units_per_s"] > 0
    assert all(row["pairs_per_s"] > 0 for row in rows)
    assert "deals" in bench.format_rows(rows)
