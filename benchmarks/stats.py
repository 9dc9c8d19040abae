"""Small statistics shared by the benchmarks: percentiles, win-rate intervals, mirrored pairs."""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Iterable


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


def mirrored_outcomes(games: Iterable[tuple[Hashable, bool | None]]) -> dict[str, int]:
    """Count mirrored pairs by how the first player did in both games of each.

    ``games`` holds (pair, won) per game, ``won`` None when nobody won. "won_both", "lost_both",
    "split" (one each: the same seats won twice, so the deal decided) and "drawn" (a game
    without a winner); a pair missing a game is left out.
    """
    by_pair: dict[Hashable, list[bool | None]] = {}
    for pair, won in games:
        by_pair.setdefault(pair, []).append(won)
    counts = dict.fromkeys(("won_both", "lost_both", "split", "drawn"), 0)
    for results in by_pair.values():
        if len(results) != 2:
            continue
        if None in results:
            counts["drawn"] += 1
        elif all(results):
            counts["won_both"] += 1
        elif not any(results):
            counts["lost_both"] += 1
        else:
            counts["split"] += 1
    return counts


def format_pairs(first: str, second: str, counts: dict[str, int]) -> str:
    """:func:`mirrored_outcomes` as text."""
    text = (
        f"pairs: {first} won both {counts['won_both']}, {second} won both "
        f"{counts['lost_both']}, one each (the deal decided) {counts['split']}"
    )
    return text + (f", with a draw {counts['drawn']}" if counts["drawn"] else "")
