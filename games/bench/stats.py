"""Small statistics shared by the benchmarks: percentiles and win-rate intervals."""

from __future__ import annotations

import math
import statistics


def percentile(values: list[float], share: float) -> float | None:
    """Return the ``share`` quantile (0..1) of ``values`` by nearest rank (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    # Rounded first so that e.g. 0.07 * 100 (7.000000000000001) ranks 7th, not 8th.
    rank = math.ceil(round(share * len(ordered), 9))
    return ordered[min(len(ordered) - 1, max(0, rank - 1))]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a win rate ``wins / n`` ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def decision_times(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Per level, from decision times in seconds: how many, and median, p99 and max in ms."""
    return {
        level: {
            "decisions": len(values),
            "median_ms": 1000 * statistics.median(values),
            "p99_ms": 1000 * (percentile(values, 0.99) or 0.0),
            "max_ms": 1000 * max(values),
        }
        for level, values in sorted(times.items())
        if values
    }
