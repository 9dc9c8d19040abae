"""Grabush bot strength and speed: full games between levels (no Django).

``bench_grabush`` plays normal against easy and hard against normal in mirrored pairs (each
deal twice, the levels' sides swapped, so that neither is dealt the better cards), and reports
win rates of the decided games with 95% Wilson intervals, draws and capped games separately,
and the median and 99th percentile decision time per level.
Run it with ``python -m benchmarks.grabush_bots --games 200 --workers 2``; add
``--matchup hard-normal`` (repeatable) to play only some matchups.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from typing import Any

from games.bots.grabush import LEVELS, play_game

from .stats import decision_times, format_pairs, mirrored_outcomes, wilson

MATCHUPS: tuple[tuple[str, str], ...] = (("normal", "easy"), ("hard", "normal"))


def _one(task: tuple[str, str, int, int, float, int]) -> dict[str, Any]:
    a, b, a_side, seed, budget, players = task
    levels = [a if seat % 2 == a_side else b for seat in range(players)]
    result = play_game(levels, seed, budget, players)
    result["a_side"] = a_side
    return result


def mirrored(games: int, seed: int) -> list[tuple[int, int]]:
    """``games`` (seed, side of level a) pairs: each seed twice, level a on either side (the
    last seed once when ``games`` is odd)."""
    return [(seed + i // 2, i % 2) for i in range(games)]


def bench_grabush(
    games: int = 200,
    budget: float = 0.3,
    players: int = 2,
    workers: int = 1,
    seed: int = 1,
    matchups: tuple[tuple[str, str], ...] = MATCHUPS,
) -> dict[str, Any]:
    """Play ``games`` games per matchup (level a vs level b), each seed twice with the sides
    swapped; return rates and timings."""
    tasks = [
        (a, b, a_side, deal, budget, players)
        for a, b in matchups
        for deal, a_side in mirrored(games, seed)
    ]
    started = time.perf_counter()
    if workers > 1:
        # fork where there is one: spawn would re-import the caller's __main__.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with context.Pool(workers) as pool:
            results = pool.map(_one, tasks, chunksize=1)
    else:
        results = [_one(task) for task in tasks]
    elapsed = time.perf_counter() - started
    times: dict[str, list[float]] = {}
    rows = []
    for m, (a, b) in enumerate(matchups):
        chunk = results[m * games : (m + 1) * games]
        a_wins = sum(1 for r in chunk if r["result"] == "win" and r["winner"] == r["a_side"])
        b_wins = sum(1 for r in chunk if r["result"] == "win" and r["winner"] != r["a_side"])
        draws = sum(1 for r in chunk if r["result"] == "draw")
        capped = sum(1 for r in chunk if r["result"] == "capped")
        decided = a_wins + b_wins
        lo, hi = wilson(a_wins, decided)
        rows.append(
            {
                "a": a,
                "b": b,
                "games": len(chunk),
                "a_wins": a_wins,
                "b_wins": b_wins,
                "draws": draws,
                "capped": capped,
                "a_rate": a_wins / decided if decided else 0.0,
                "a_ci": [lo, hi],
                "draw_rate": draws / len(chunk) if chunk else 0.0,
                "mean_turns": sum(r["turns"] for r in chunk) / len(chunk) if chunk else 0.0,
                "pairs": mirrored_outcomes(
                    (i // 2, r["winner"] == r["a_side"] if r["result"] == "win" else None)
                    for i, r in enumerate(chunk)
                ),
            }
        )
        for r in chunk:
            for level, values in r["times"].items():
                times.setdefault(level, []).extend(values)
    return {
        "players": players,
        "budget": budget,
        "games_per_matchup": games,
        "workers": workers,
        "seconds": elapsed,
        "matchups": rows,
        "times": decision_times(times),
    }


def format_bench(result: dict[str, Any]) -> str:
    """A short text table of :func:`bench_grabush`'s result."""
    lines = [
        f"Grabush bots, {result['players']} players, budget {result['budget']} s, "
        f"{result['games_per_matchup']} games per matchup ({result['seconds']:.0f} s)"
    ]
    for row in result["matchups"]:
        lo, hi = row["a_ci"]
        lines.append(
            f"  {row['a']} vs {row['b']}: {row['a_wins']}-{row['b_wins']} of decided games, "
            f"{row['a']} wins {100 * row['a_rate']:.1f}% "
            f"[95% CI {100 * lo:.1f}-{100 * hi:.1f}%]; draws {row['draws']}, "
            f"capped {row['capped']}, {row['mean_turns']:.0f} turns on average"
        )
        lines.append(f"    {format_pairs(row['a'], row['b'], row['pairs'])}")
    for level, t in result["times"].items():
        lines.append(
            f"  {level}: median {t['median_ms']:.2f} ms, p99 {t['p99_ms']:.1f} ms, "
            f"max {t['max_ms']:.1f} ms over {t['decisions']} decisions"
        )
    return "\n".join(lines)


def _parse_matchup(text: str) -> tuple[str, str]:
    """``"hard-normal"`` -> ("hard", "normal"), checking both levels exist."""
    a, sep, b = text.partition("-")
    if not sep or a not in LEVELS or b not in LEVELS:
        raise argparse.ArgumentTypeError(f"bad matchup {text!r}; use e.g. hard-normal")
    return a, b


def main() -> None:
    """Command line: ``python -m benchmarks.grabush_bots``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--matchup",
        action="append",
        type=_parse_matchup,
        metavar="A-B",
        help="only these matchups, e.g. hard-normal (repeatable; default: all)",
    )
    args = parser.parse_args()
    matchups = tuple(args.matchup) if args.matchup else MATCHUPS
    result = bench_grabush(args.games, args.budget, args.players, args.workers, args.seed, matchups)
    print(format_bench(result))


if __name__ == "__main__":
    main()
