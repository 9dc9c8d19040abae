"""Duplicate deals against the 2001 program's AI: run by the harness's Python, not by Django.

``benchmarks.arena`` starts this file with the Python that has the emulator's packages and the
harness on its path (``--harness``). Every deal is played twice with the same cards and
dealer, one of the project's players on seats 0 and 2 in one and on seats 1 and 3 in the
other, the 2001 AI on the rest; a deal pair's figure is the project's written points less the
2001 AI's, averaged over the two (each deal scored on its own, as in a duplicate event).
The pairs are printed as JSON lines on stdout, one per deal pair.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import random
import sys
import time
from typing import Any

#: The harness's module and this worker's host of the 2001 AI.
HARNESS: dict[str, Any] = {}
#: Deal pairs played by one emulator before it is made again (it never gives memory back).
RENEW_EVERY = 20


def start_worker(harness: str, main: str) -> None:
    """Load the harness, the emulator and the project's players in this process."""
    sys.path.insert(0, harness)
    sys.path.insert(0, main)
    import arena_2001

    arena_2001.load_modules(f"{harness}/bb", main)
    HARNESS["module"] = arena_2001
    HARNESS["host"] = arena_2001.Host2001()
    HARNESS["played"] = 0


def play_deal(player: str, deck: list[str], dealer: int, side: int, budget: float, tag: str) -> Any:
    """One deal of ``deck``, ``player`` on the seats of team ``side``: its score-sheet line,
    the player's decision times and its audit (:mod:`benchmarks.belote_audit`)."""
    from benchmarks.belote_audit import Recorder
    from benchmarks.belote_bots import PLAYERS
    from games.engines import belote as engine

    host = HARNESS["host"]
    bot = PLAYERS[player]
    # The harness asks the 2001 AI for team 1 with h=0 and for team 0 with h=1.
    h = 0 if side == 0 else 1
    state = engine.new_game(0, dealer=dealer, decks=[deck])
    rngs = [random.Random(f"arena-deals:{tag}:{seat}") for seat in range(4)]
    times = []
    recorder = Recorder((side, side + 2))
    while not engine.deal_results(state):
        seat = state.to_act
        view = engine.view(state, seat)
        if seat & 1 == side:
            started = time.perf_counter()
            action = bot(view, rngs[seat], budget)  # type: ignore[arg-type]
            times.append(time.perf_counter() - started)
        elif view["phase"] == "auction":
            action = host.bid(view, h)
        else:
            action = host.play(view, h)
        recorder.saw(state, seat, view, action)
        state = engine.apply(state, seat, action)
    result = engine.deal_results(state)[0]
    return result, times, recorder.tally(result)


def deal_pair(task: tuple[str, int, float, int]) -> dict[str, Any]:
    """Deal ``number`` played twice, the teams swapped: the difference and what happened."""
    from games.engines import belote as engine
    from games.engines import duplicate

    player, number, budget, seed = task
    host = HARNESS["host"]
    if HARNESS["played"] % RENEW_EVERY == 0:
        host.renew()
    HARNESS["played"] += 1
    deck = engine.deck(f"arena-deals:{seed}", number)
    dealer = number % 4
    differences, lines, times = [], [], []
    audit: dict[str, int] = {}
    for side in (0, 1):
        host.seed((seed * 2_654_435_761 + number * 40_503 + side) & 0xFFFFFFFF)
        result, spent, tally = play_deal(player, deck, dealer, side, budget, f"{seed}:{number}")
        for key, value in tally.items():
            audit[key] = audit.get(key, 0) + value
        score = duplicate.deal_score(result)
        differences.append(score[side] - score[1 - side])
        times += spent
        who = None if result["declarer"] is None else result["declarer"] & 1 == side
        lines.append(
            {
                "declarer": {None: None, True: "project", False: "2001"}[who],
                "contract": result["contract"],
                "multiplier": result["multiplier"],
                "outcome": result["outcome"],
            }
        )
    return {
        "number": number,
        "difference": sum(differences) / 2,
        "deals": lines,
        "times": times,
        "audit": audit,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--harness", required=True, help="the arena-2001 folder")
    parser.add_argument("--main", required=True, help="the project's checkout")
    parser.add_argument("--player", required=True, help="a player of benchmarks.belote_bots")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first deal pair's number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    first = args.first
    tasks = [(args.player, i, args.budget, args.seed) for i in range(first, first + args.pairs)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers, start_worker, (args.harness, args.main)) as pool:
        for outcome in pool.imap_unordered(deal_pair, tasks):
            print(json.dumps(outcome), flush=True)


def summarise(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean difference a deal with its 95% interval, and the contracts of each side."""
    values = [o["difference"] for o in outcomes]
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * (var / n) ** 0.5
    counts: collections.Counter[str] = collections.Counter()
    audit: collections.Counter[str] = collections.Counter()
    for o in outcomes:
        audit.update(o.get("audit", {}))
        for line in o["deals"]:
            who = line["declarer"]
            if who is None:
                counts["all pass"] += 1
                continue
            counts[f"{who}:declared"] += 1
            counts[f"{who}:{line['outcome']}"] += 1
            if line["contract"] in ("NT", "AT"):
                counts[f"{who}:{line['contract']}"] += 1
            if line["multiplier"] > 1:
                counts[f"{who}:x{line['multiplier']}"] += 1
    return {
        "deal_pairs": n,
        "mean_difference": mean,
        "interval": (mean - half, mean + half),
        "contracts": dict(counts),
        "audit": dict(audit),
    }


if __name__ == "__main__":
    main()
