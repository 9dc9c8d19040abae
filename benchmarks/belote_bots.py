"""Measure the Belote bots: win rates of whole matches, decision times and manners (pure).

Run ``python -m benchmarks.belote_bots`` (or ``manage.py bench bots``).

Each pairing plays **mirrored pairs** of matches: the same seed (so the same decks and first
dealer) twice, the first player on seats 0 and 2 in one match and on seats 1 and 3 in the other,
so neither side is dealt the better cards. The rate is the share of all those matches the first
player won, with its 95% Wilson interval. ``frozen-hard`` is hard as it stood when the expert
was built (``benchmarks.frozen_belote``): every change is judged against the same opponent.
``expert-bidding`` bids with the expert's valued auction (a candidate the tables no longer use)
and plays like frozen hard; ``expert-play`` the other way round: they measure the two halves
apart. Every decision is timed, and judged for the
faults a human partner notices (``benchmarks.manners``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.bots import belote as bots
from games.engines import belote as engine
from games.engines import duplicate

from . import belote_audit as audit
from . import belote_expert as expert
from . import frozen_belote as frozen
from . import manners
from .results import write_json
from .stats import decision_times, format_pairs, mirrored_outcomes, wilson

Bot = Callable[[dict[str, Any], random.Random, float], str]


def expert_bidding(view: dict[str, Any], rng: random.Random, budget: float) -> str:
    """The expert's valued calls (a candidate the tables do not use), frozen hard's cards."""
    if view["phase"] == "play" or len(view["legal"]) == 1:
        return frozen.choose_hard(view, rng, budget)  # type: ignore[arg-type]
    return expert.choose_call(view, rng, min(budget, expert.BUDGET))  # type: ignore[arg-type]


def expert_play(view: dict[str, Any], rng: random.Random, budget: float) -> str:
    """Frozen hard's calls, the expert's cards."""
    if view["phase"] == "play":
        return expert.choose_expert(view, rng, budget)  # type: ignore[arg-type]
    return frozen.choose_hard(view, rng, budget)  # type: ignore[arg-type]


PLAYERS: dict[str, Bot] = {
    "easy": bots.choose_easy,  # type: ignore[dict-item]
    "normal": bots.choose_normal,  # type: ignore[dict-item]
    "hard": bots.choose_hard,  # type: ignore[dict-item]
    "expert": expert.choose_expert,  # type: ignore[dict-item]
    "frozen-hard": frozen.choose_hard,  # type: ignore[dict-item]
    "expert-bidding": expert_bidding,
    "expert-play": expert_play,
}

#: Pairings: (first player, second player, the first's goal, mirrored pairs by default).
PAIRINGS: dict[str, tuple[str, str, float, int]] = {
    "expert-vs-frozen-hard": ("expert", "frozen-hard", 0.70, 400),
    "expert-bidding-vs-frozen-hard": ("expert-bidding", "frozen-hard", 0.5, 100),
    "expert-play-vs-frozen-hard": ("expert-play", "frozen-hard", 0.5, 100),
    "hard-vs-frozen-hard": ("hard", "frozen-hard", 0.5, 100),
    "normal-vs-frozen-hard": ("normal", "frozen-hard", 0.1, 100),
    "easy-vs-frozen-hard": ("easy", "frozen-hard", 0.0, 100),
    "hard-vs-normal": ("hard", "normal", 0.55, 100),
    "normal-vs-easy": ("normal", "easy", 0.90, 100),
}


def play_match(names: list[str], seed: int, budget: float, target: int) -> dict[str, Any]:
    """A whole match, seat ``i`` played by ``names[i]``: the winner, the scores, and per player
    its decision times and faults."""
    state = engine.new_game(f"bench:{seed}", target=target)
    rngs = [random.Random(f"belote-bots:{seed}:{seat}") for seat in range(4)]
    times: dict[str, list[float]] = {name: [] for name in names}
    faults: dict[str, dict[str, int]] = {name: dict.fromkeys(manners.FAULTS, 0) for name in names}
    while state.to_act is not None:
        seat = state.to_act
        view = engine.view(state, seat)
        started = time.perf_counter()
        action = PLAYERS[names[seat]](view, rngs[seat], budget)  # type: ignore[arg-type]
        times[names[seat]].append(time.perf_counter() - started)
        for fault in manners.faults(view, action):
            faults[names[seat]][fault] += 1
        state = engine.apply(state, seat, action)
    return {
        "winner": engine.winner(state),
        "scores": engine.scores(state),
        "deals": len(engine.deal_results(state)),
        "times": times,
        "faults": faults,
    }


def _one_match(task: tuple[str, int, int, float, int, int]) -> dict[str, Any]:
    pairing, pair, side, budget, target, seed = task
    first, second, _goal, _pairs = PAIRINGS[pairing]
    names = [first if seat % 2 == side else second for seat in range(4)]
    result = play_match(names, seed + pair, budget, target)
    scores = result["scores"]
    return {
        "pairing": pairing,
        "pair": pair,
        "won": result["winner"] == side,
        "margin": scores[side] - scores[1 - side],
        "deals": result["deals"],
        "times": result["times"],
        "faults": result["faults"],
    }


def bench_belote(
    pairs: dict[str, int] | None = None,
    budget: float = 0.3,
    workers: int = 2,
    *,
    target: int = 151,
    seed: int = 0,
) -> dict[str, Any]:
    """Play ``pairs[pairing]`` mirrored pairs of each pairing named (every pairing, at its
    default, when None) and summarise: wins, rate and interval, mean margin and deals per
    pairing; per player the decision times and the faults per 1,000 decisions.

    ``budget`` is the seconds per decision given to the bots; ``workers`` processes share the
    matches (spawned: a script calling this guards its entry point with ``__main__``).
    """
    pairs = pairs if pairs is not None else {name: p[3] for name, p in PAIRINGS.items()}
    tasks = [
        (pairing, i, side, budget, target, seed)
        for pairing, count in pairs.items()
        for i in range(count)
        for side in (0, 1)
    ]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = list(pool.imap_unordered(_one_match, tasks))
    else:
        outcomes = [_one_match(task) for task in tasks]
    times: dict[str, list[float]] = {}
    faults: dict[str, dict[str, int]] = {}
    summary: dict[str, Any] = {}
    for pairing in pairs:
        mine = [o for o in outcomes if o["pairing"] == pairing]
        if not mine:
            continue
        wins = sum(o["won"] for o in mine)
        low, high = wilson(wins, len(mine))
        first, second, goal, _default = PAIRINGS[pairing]
        summary[pairing] = {
            "players": [first, second],
            "goal": goal,
            "matches": len(mine),
            "wins": wins,
            "rate": wins / len(mine),
            "interval": (low, high),
            "mean_margin": statistics.mean(o["margin"] for o in mine),
            "mean_deals": statistics.mean(o["deals"] for o in mine),
            "pairs": mirrored_outcomes((o["pair"], o["won"]) for o in mine),
        }
        for o in mine:
            for name, values in o["times"].items():
                times.setdefault(name, []).extend(values)
            for name, counts in o["faults"].items():
                total = faults.setdefault(name, dict.fromkeys(manners.FAULTS, 0))
                for fault, count in counts.items():
                    total[fault] += count
    decided = decision_times(times)
    manners_per_1000 = {
        name: {fault: 1000 * count / decided[name]["decisions"] for fault, count in counts.items()}
        for name, counts in faults.items()
        if name in decided
    }
    return {
        "budget": budget,
        "target": target,
        "workers": workers,
        "seconds": time.perf_counter() - started,
        "pairings": summary,
        "times": decided,
        "faults_per_1000": manners_per_1000,
    }


# -- duplicate deals ---------------------------------------------------------------------------


def play_deal(
    names: list[str],
    deck: list[str],
    dealer: int,
    budget: float,
    seed: str,
    recorder: audit.Recorder | None = None,
    times: list[float] | None = None,
) -> Any:
    """One deal of ``deck`` dealt by ``dealer``, seat ``i`` played by ``names[i]``: its line of
    the score sheet. ``recorder`` sees every action; ``times`` gets the decision times of the
    seats ``recorder`` audits."""
    state = engine.new_game(0, dealer=dealer, decks=[deck])
    rngs = [random.Random(f"belote-duplicate:{seed}:{seat}") for seat in range(4)]
    while not engine.deal_results(state):
        seat = state.to_act
        view = engine.view(state, seat)
        started = time.perf_counter()
        action = PLAYERS[names[seat]](view, rngs[seat], budget)  # type: ignore[arg-type]
        if recorder is not None:
            if times is not None and seat in recorder.seats:
                times.append(time.perf_counter() - started)
            recorder.saw(state, seat, view, action)
        state = engine.apply(state, seat, action)
    return engine.deal_results(state)[0]


def _one_deal_pair(task: tuple[str, int, float, int]) -> dict[str, Any]:
    """A deal played twice with the same cards and dealer, the two players' teams swapped: the
    first player's written points minus the second's, each deal scored on its own."""
    pairing, number, budget, seed = task
    first, second, _goal, _pairs = PAIRINGS[pairing]
    label = f"bench-duplicate:{seed}"
    deck = engine.deck(label, number)
    dealer = number % 4
    differences = []
    tallies: dict[str, int] = {}
    times: list[float] = []
    for side in (0, 1):
        names = [first if seat % 2 == side else second for seat in range(4)]
        recorder = audit.Recorder((side, side + 2))
        result = play_deal(names, deck, dealer, budget, f"{seed}:{number}", recorder, times)
        score = duplicate.deal_score(result)
        differences.append(score[side] - score[1 - side])
        audit.add(tallies, recorder.tally(result))
    return {
        "pairing": pairing,
        "difference": statistics.mean(differences),
        "audit": tallies,
        "times": times,
    }


def duplicate_deals(
    pairs: dict[str, int], budget: float = 0.3, workers: int = 2, *, seed: int = 0
) -> dict[str, Any]:
    """Play ``pairs[pairing]`` deal pairs of each pairing: each deal twice with the same cards
    and dealer, the teams swapped. The figure is the first player's mean difference of written
    points per deal (each deal scored on its own, ``games.engines.duplicate``), with its 95%
    interval (normal approximation)."""
    tasks = [(pairing, i, budget, seed) for pairing, count in pairs.items() for i in range(count)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = list(pool.imap_unordered(_one_deal_pair, tasks))
    else:
        outcomes = [_one_deal_pair(task) for task in tasks]
    summary = {}
    for pairing in pairs:
        values = [o["difference"] for o in outcomes if o["pairing"] == pairing]
        if not values:
            continue
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        tallies: dict[str, int] = {}
        times: list[float] = []
        for o in outcomes:
            if o["pairing"] == pairing:
                audit.add(tallies, o["audit"])
                times += o["times"]
        summary[pairing] = {
            "players": list(PAIRINGS[pairing][:2]),
            "deal_pairs": len(values),
            "mean_difference": mean,
            "interval": (mean - half, mean + half),
            "audit": tallies,
            "times": decision_times({PAIRINGS[pairing][0]: times}).get(PAIRINGS[pairing][0]),
        }
    return {
        "budget": budget,
        "workers": workers,
        "seconds": time.perf_counter() - started,
        "pairings": summary,
    }


def format_duplicate(result: dict[str, Any]) -> str:
    """The result of :func:`duplicate_deals` as a few lines of text."""
    lines = [
        f"Belote bots by duplicate deals: budget {result['budget']} s per decision, "
        f"{result['workers']} worker(s), {result['seconds']:.0f} s"
    ]
    for name, p in result["pairings"].items():
        low, high = p["interval"]
        lines.append(
            f"  {name}: {p['deal_pairs']} deal pairs, {p['players'][0]} writes "
            f"{p['mean_difference']:+.2f} points a deal more than {p['players'][1]} "
            f"(95% CI {low:+.2f} to {high:+.2f})"
        )
        if "audit" in p:
            source = f"{p['players'][0]}'s seats in these deals"
            lines.append(audit.format_audit(p["audit"], source))
    return "\n".join(lines)


#: The players :func:`faults_where_possible` asks by default.
FAULT_PLAYERS = ("frozen-hard", "hard", "expert")


def faults_where_possible(
    names: Sequence[str], count: int, seed: int = 1, budget: float = 0.3
) -> dict[str, dict[str, float]]:
    """Each player's card-play faults per 1,000 of the same ``count`` positions where one is
    possible (:func:`manners.testing_positions`), each deciding as at a table."""
    views = manners.testing_positions(count, seed)
    rates = {}
    for name in names:
        found = dict.fromkeys(manners.CARD_FAULTS, 0)
        for i, view in enumerate(views):
            action = PLAYERS[name](view, random.Random(i), budget)
            for fault in manners.faults(view, action):
                found[fault] += 1
        rates[name] = {fault: 1000 * n / len(views) for fault, n in found.items()}
    return rates


def format_faults(rates: dict[str, dict[str, float]], count: int) -> str:
    """:func:`faults_where_possible`'s result as a few lines of text."""
    lines = [f"Belote faults per 1,000 of {count} positions where one is possible:"]
    for name, counts in rates.items():
        lines.append(f"  {name}: " + ", ".join(f"{f} {n:.1f}" for f, n in counts.items()))
    return "\n".join(lines)


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
            f"  {name}: {p['wins']}/{p['matches']} matches won = {p['rate']:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}; goal {p['goal']:.0%}: {verdict}), "
            f"mean margin {p['mean_margin']:+.1f}, {p['mean_deals']:.1f} deals/match"
        )
        lines.append(f"    {format_pairs(*p['players'], p['pairs'])}")
    for name, t in result["times"].items():
        f = result["faults_per_1000"].get(name, {})
        lines.append(
            f"  {name}: {t['decisions']} decisions, median {t['median_ms']:.2f} ms, "
            f"p99 {t['p99_ms']:.2f} ms, max {t['max_ms']:.1f} ms; per 1,000 decisions: "
            + ", ".join(f"{fault} {count:.2f}" for fault, count in f.items())
        )
    return "\n".join(lines)


def parse_pairs(text: str) -> dict[str, int]:
    """``expert-vs-frozen-hard=400,normal-vs-easy=50`` -> pairs per pairing."""
    out = {}
    for part in text.split(","):
        name, _, count = part.partition("=")
        if name not in PAIRINGS:
            raise argparse.ArgumentTypeError(f"unknown pairing {name!r}; known: {list(PAIRINGS)}")
        out[name] = int(count) if count else PAIRINGS[name][3]
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: run :func:`bench_belote` and print :func:`format`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--pairs",
        type=parse_pairs,
        help="pairings and their mirrored pairs, e.g. expert-vs-frozen-hard=400 (all by default)",
    )
    parser.add_argument("--budget", type=float, default=0.3, help="seconds per decision")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", type=int, default=151)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--fault-positions",
        type=int,
        default=0,
        help="also judge frozen hard, hard and the expert in this many positions where a fault is "
        "possible (alone, without --pairs)",
    )
    parser.add_argument(
        "--deal-pairs",
        type=parse_pairs,
        help="duplicate deals instead: pairings and their deal pairs, e.g. "
        "expert-vs-frozen-hard=2000",
    )
    parser.add_argument("--json", help="also write the result to this JSON file")
    args = parser.parse_args(argv)
    if args.deal_pairs is not None:
        result_by_deals = duplicate_deals(
            args.deal_pairs, args.budget, args.workers, seed=args.seed
        )
        print(format_duplicate(result_by_deals))
        write_json(args.json, result_by_deals)
        return
    result: dict[str, Any] = {}
    if args.pairs is not None or not args.fault_positions:
        result = bench_belote(
            args.pairs, args.budget, args.workers, target=args.target, seed=args.seed
        )
        print(format(result))
    if args.fault_positions:
        rates = faults_where_possible(FAULT_PLAYERS, args.fault_positions, budget=args.budget)
        result["faults_where_possible"] = rates
        print(format_faults(rates, args.fault_positions))
    write_json(args.json, result)


if __name__ == "__main__":
    main()
