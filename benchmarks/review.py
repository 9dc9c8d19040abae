"""Deal reviews' speed: a whole Belote deal's review on one core (``manage.py bench review``,
``python -m benchmarks.review``).

Deals come from matches the normal computer players play from seeded decks (so the play has
the mistakes a review finds); each played deal is reviewed once, timed from its start of play
to the finished review (par, every card, par for each contract the declarer could bid).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

from games.analysis.belote_review import deal_starts, review_deal
from games.bots import belote as bots
from games.engines import belote

from .results import write_json
from .stats import percentile


def played_deals(count: int, seed: int) -> Iterator[tuple[belote.State, list[str]]]:
    """``count`` played deals: each one's state at its first card and its 32 cards."""
    rng = random.Random(seed)
    made = 0
    match = 0
    while True:
        state = belote.new_game(f"bench-review:{seed}:{match}")
        states = [state]
        while state.to_act is not None and len(belote.deal_results(state)) < 12:
            view = belote.view(state, state.to_act)
            state = belote.apply(state, state.to_act, bots.choose_normal(view, rng))
            states.append(state)
        for _number, deal in sorted(deal_starts(states).items()):
            yield deal
            made += 1
            if made == count:
                return
        match += 1


def run(deals: int = 200, seed: int = 1) -> dict[str, Any]:
    """Review ``deals`` deals; the times in milliseconds."""
    times = []
    for start, cards in played_deals(deals, seed):
        begun = time.perf_counter()
        review_deal(start, cards)
        times.append(1000 * (time.perf_counter() - begun))
    return {
        "deals": len(times),
        "median_ms": statistics.median(times),
        "p95_ms": percentile(times, 0.95),
        "max_ms": max(times),
        "mean_ms": statistics.fmean(times),
    }


def format_result(result: dict[str, Any]) -> str:
    return (
        f"{result['deals']} Belote deals reviewed on one core: "
        f"median {result['median_ms']:.0f} ms, p95 {result['p95_ms']:.0f} ms, "
        f"max {result['max_ms']:.0f} ms, "
        f"mean {result['mean_ms']:.0f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the result to this JSON file")
    args = parser.parse_args(argv)
    result = run(args.deals, args.seed)
    print(format_result(result))
    write_json(args.json, result)


if __name__ == "__main__":
    main()
