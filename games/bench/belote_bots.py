"""Measure the Belote bots: win rates between levels and decision times (pure, no Django).

Run ``python -m games.bench.belote_bots --matches 200 --hard-matches 40 --budget 0.3 --workers 2``.

``bench_belote(matches, budget, workers)`` plays normal against easy and hard against normal, the
stronger level on seats 0 and 2 in even-numbered matches and on seats 1 and 3 in odd ones, each
match from its own seed; :func:`format` renders the result as text.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from typing import Any

from games.bots import belote as bots

from .stats import decision_times, wilson

#: (stronger level, weaker level) pairings measured, with the win rate each should reach.
PAIRINGS: dict[str, tuple[str, str, float]] = {
    "normal-vs-easy": ("normal", "easy", 0.90),
    "hard-vs-normal": ("hard", "normal", 0.55),
}


def _one_match(task: tuple[str, int, float, int, int]) -> dict[str, Any]:
    pairing, index, budget, target, seed = task
    strong, weak, _goal = PAIRINGS[pairing]
    side = index % 2  # the team the stronger level plays
    levels = [strong if seat % 2 == side else weak for seat in range(4)]
    result = bots.play_match(levels, seed + index, budget, target=target)
    scores = result["scores"]
    return {
        "pairing": pairing,
        "won": result["winner"] == side,
        "margin": scores[side] - scores[1 - side],
        "deals": result["deals"],
        "times": result["times"],
    }


def bench_belote(
    matches: int = 200,
    budget: float = 0.3,
    workers: int = 2,
    *,
    hard_matches: int | None = None,
    target: int = 151,
    seed: int = 0,
    pairings: tuple[str, ...] = tuple(PAIRINGS),
) -> dict[str, Any]:
    """Play ``matches`` matches per pairing (``hard_matches`` for hard vs normal) and summarise.

    ``budget`` is the seconds per decision given to the bots (only hard uses it); ``workers``
    processes share the matches. Returns per pairing the wins, matches, win rate, its 95% Wilson
    interval, the mean score margin and deals, and per level the decision-time median and 99th
    percentile (seconds) over every decision it made. Pairings given no matches are left out.

    With ``workers`` > 1 the matches run in spawned processes, which import the ``__main__``
    module again: a script calling this must guard its entry point with
    ``if __name__ == "__main__":`` (``manage.py`` and ``python -m games.bench.belote_bots`` do).
    """
    tasks = []
    for pairing in pairings:
        n = hard_matches if pairing == "hard-vs-normal" and hard_matches is not None else matches
        tasks += [(pairing, i, budget, target, seed) for i in range(n)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = list(pool.imap_unordered(_one_match, tasks))
    else:
        outcomes = [_one_match(t) for t in tasks]
    times: dict[str, list[float]] = {}
    summary: dict[str, Any] = {}
    for pairing in pairings:
        mine = [o for o in outcomes if o["pairing"] == pairing]
        if not mine:
            continue
        wins = sum(o["won"] for o in mine)
        low, high = wilson(wins, len(mine))
        summary[pairing] = {
            "levels": PAIRINGS[pairing][:2],
            "goal": PAIRINGS[pairing][2],
            "matches": len(mine),
            "wins": wins,
            "rate": wins / len(mine),
            "interval": (low, high),
            "mean_margin": statistics.mean(o["margin"] for o in mine),
            "mean_deals": statistics.mean(o["deals"] for o in mine),
        }
        for o in mine:
            for level, values in o["times"].items():
                times.setdefault(level, []).extend(values)
    return {
        "budget": budget,
        "target": target,
        "workers": workers,
        "seconds": time.perf_counter() - started,
        "pairings": summary,
        "times": decision_times(times),
    }


def format(result: dict[str, Any]) -> str:
    """The result of :func:`bench_belote` as a few lines of text."""
    lines = [
        f"Belote bots: budget {result['budget']} s per decision, target {result['target']}, "
        f"{result['workers']} worker(s), {result['seconds']:.0f} s"
    ]
    for name, p in result["pairings"].items():
        low, high = p["interval"]
        verdict = "ok" if p["rate"] >= p["goal"] else "below goal"
        lines.append(
            f"  {name}: {p['wins']}/{p['matches']} won = {p['rate']:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}; goal {p['goal']:.0%}: {verdict}), "
            f"mean margin {p['mean_margin']:+.1f}, {p['mean_deals']:.1f} deals/match"
        )
    for level, t in result["times"].items():
        lines.append(
            f"  {level}: {t['decisions']} decisions, median {t['median_ms']:.2f} ms, "
            f"p99 {t['p99_ms']:.2f} ms, max {t['max_ms']:.1f} ms"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Command line: run :func:`bench_belote` and print :func:`format`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200, help="matches of normal vs easy")
    parser.add_argument("--hard-matches", type=int, default=40, help="matches of hard vs normal")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds per decision")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", type=int, default=151)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the result to this JSON file")
    args = parser.parse_args(argv)
    result = bench_belote(
        args.matches,
        args.budget,
        args.workers,
        hard_matches=args.hard_matches,
        target=args.target,
        seed=args.seed,
    )
    print(format(result))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
