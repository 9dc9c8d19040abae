"""What a whole Belote deal is worth under each contract: a linear model learnt offline from
exact double-dummy play, for the expert's auction.

With all four hands known (as in a sampled deal), :func:`margin` estimates team 0's margin of
card points, last ten, capot and belots under a contract when both sides play perfectly: the
double-dummy solver's answer, in about a ten-thousandth of its time. Declarations are not
estimated (they are exact from the hands). Every feature is a difference between the teams
(team 0 less team 1), so swapping the teams negates the estimate, and the model has no
intercept. One model serves the four suit contracts (features relative to the trump suit),
one No Trumps, one All Trumps.

Real play falls short of perfect play: :func:`in_play` scales an estimate to what the hard
player's card play makes of it, with the spread around that (fitted on deals whose contract
and declarer were drawn at random, then played out).

The weights live in ``belote_values.json``; ``python -m benchmarks.belote_values --deals
12000 --played 1500`` deals random hands, solves them exactly and fits the weights again
(least squares), then plays deals out to fit the scaling.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.analysis.belote_solver import Position, Solver
from games.bots import belote as bots
from games.engines import belote as engine
from games.engines.belote_cards import AT, NT

WEIGHTS = Path(__file__).with_name("belote_values.json")
#: The model of each contract: the four suits share one.
FAMILIES = ("suit", "suit", "suit", "suit", "nt", "at")
# Ranks in each order, strongest first (indexes into 7 8 9 T J Q K A).
TRUMP_ORDER = (4, 2, 7, 3, 6, 5, 1, 0)  # J 9 A T K Q 8 7
PLAIN_ORDER = (7, 3, 6, 5, 4, 2, 1, 0)  # A T K Q J 9 8 7


def _byte(hand: int, suit: int) -> int:
    return hand >> (8 * suit) & 0xFF


def _team_features(hands: Sequence[int], team: int, contract: int) -> list[float]:
    """One team's features under ``contract`` (see :data:`FEATURES`)."""
    a, b = hands[team], hands[team + 2]
    both = a | b
    out: list[float] = []
    if contract < NT:
        trump = contract
        t = _byte(both, trump)
        out += [float(t >> r & 1) for r in TRUMP_ORDER]
        counts = sorted((_byte(a, trump).bit_count(), _byte(b, trump).bit_count()))
        out += [float(counts[1]), float(counts[0])]
        side = [s for s in range(4) if s != trump]
        out += [float(sum(_byte(both, s) >> r & 1 for s in side)) for r in PLAIN_ORDER]
        out.append(
            float(sum(1 for s in side if _byte(both, s) >> 7 & 1 and _byte(both, s) >> 3 & 1))
        )
        ruffs = 0
        for hand in (a, b):
            if _byte(hand, trump):
                ruffs += sum(1 for s in side if not _byte(hand, s))
        out.append(float(ruffs))
    else:
        order = TRUMP_ORDER if contract == AT else PLAIN_ORDER
        out += [float(sum(_byte(both, s) >> r & 1 for s in range(4))) for r in order]
        top, second = order[0], order[1]
        out.append(
            float(
                sum(
                    1
                    for s in range(4)
                    if _byte(both, s) >> top & 1 and _byte(both, s) >> second & 1
                )
            )
        )
        out.append(
            float(sum(1 for hand in (a, b) for s in range(4) if _byte(hand, s).bit_count() >= 4))
        )
        out.append(float(sum(1 for hand in (a, b) for s in range(4) if not _byte(hand, s))))
    return out


def features(hands: Sequence[int], contract: int, leader: int) -> list[float]:
    """Team 0's features less team 1's under ``contract``, and who leads the first trick."""
    mine = _team_features(hands, 0, contract)
    theirs = _team_features(hands, 1, contract)
    return [x - y for x, y in zip(mine, theirs, strict=True)] + [1.0 if leader % 2 == 0 else -1.0]


@functools.cache
def _kept() -> dict[str, Any]:
    """The weights file, read once."""
    return json.loads(WEIGHTS.read_text())


def margin(
    hands: Sequence[int],
    contract: int,
    leader: int,
    weights: dict[str, list[float]] | None = None,
) -> float:
    """Team 0's estimated double-dummy margin under ``contract`` (see the module), by the kept
    weights or ``weights``."""
    family = (weights or _kept()["weights"])[FAMILIES[contract]]
    return sum(w * x for w, x in zip(family, features(hands, contract, leader), strict=True))


def in_play(family: str) -> tuple[float, float, float]:
    """How a family's estimate reads in real play: (slope, intercept, spread), so that the
    margin played out is about ``slope * margin + intercept``, give or take ``spread``."""
    slope, intercept, spread = _kept()["played"][family]
    return slope, intercept, spread


# -- training ------------------------------------------------------------------------------------


def _example(seed: int) -> list[tuple[int, list[float], float]]:
    """One random deal solved under every contract: (contract, features, margin) each."""
    rng = random.Random(f"belote-values:{seed}")
    cards = list(range(32))
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[8 * i : 8 * i + 8]) for i in range(4))
    leader = rng.randrange(4)
    out = []
    for contract in range(6):
        value = Solver(contract).value(Position(contract, hands, leader))  # type: ignore[arg-type]
        out.append((contract, features(hands, contract, leader), float(value)))
    return out


def _least_squares(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Weights minimising the squared error (normal equations, a little ridge)."""
    n = len(rows[0])
    a = [[0.0] * n for _ in range(n)]
    v = [0.0] * n
    for row, y in zip(rows, targets, strict=True):
        for i in range(n):
            v[i] += row[i] * y
            ai = a[i]
            for j in range(n):
                ai[j] += row[i] * row[j]
    for i in range(n):
        a[i][i] += 1e-6 * len(rows)
    # Gaussian elimination with partial pivoting.
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        v[col], v[pivot] = v[pivot], v[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for j in range(col, n):
                    a[r][j] -= f * a[col][j]
                v[r] -= f * v[col]
    w = [0.0] * n
    for i in reversed(range(n)):
        w[i] = (v[i] - sum(a[i][j] * w[j] for j in range(i + 1, n))) / a[i][i]
    return w


def train(deals: int, workers: int = 2, seed: int = 0) -> dict:
    """Solve ``deals`` random deals under every contract and fit each family's weights."""
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        solved = pool.map(_example, range(seed, seed + deals), chunksize=20)
    data: dict[str, tuple[list[list[float]], list[float]]] = {}
    for deal in solved:
        for contract, row, value in deal:
            rows, targets = data.setdefault(FAMILIES[contract], ([], []))
            rows.append(row)
            targets.append(value)
    weights, spreads = {}, {}
    for family, (rows, targets) in data.items():
        w = _least_squares(rows, targets)
        residuals = [
            y - sum(a * b for a, b in zip(w, row, strict=True))
            for row, y in zip(rows, targets, strict=True)
        ]
        weights[family] = [round(x, 4) for x in w]
        spreads[family] = round((sum(r * r for r in residuals) / len(residuals)) ** 0.5, 2)
        spreads[f"{family}-before"] = round((sum(y * y for y in targets) / len(targets)) ** 0.5, 2)
    return {
        "deals": deals,
        "seed": seed,
        "seconds": round(time.perf_counter() - started),
        "weights": weights,
        "spread": spreads,
    }


def _played_out(task: tuple[int, dict[str, list[float]]]) -> tuple[str, float, float]:
    """A deal with a random declarer and contract, played out by the hard player at every
    seat: (family, the estimate, the margin played) for the declaring team."""
    seed, weights = task
    rng = random.Random(f"belote-values-played:{seed}")
    state = engine.new_game(f"played:{seed}", dealer=seed % 4)
    contract, bidder, bid = rng.choice(engine.CONTRACTS), rng.randrange(4), False
    while engine.phase(state) == "auction":
        call = contract if state.to_act == bidder and not bid else "pass"
        bid = bid or call == contract
        state = engine.apply(state, state.to_act, call)
    start = state
    while not engine.deal_results(state):
        view = engine.view(state, state.to_act)
        state = engine.apply(state, state.to_act, bots.choose_hard(view, rng, 0.05))
    deal = engine.deal_results(state)[0]
    team = deal["declarer"] % 2
    sign = 1 if team == 0 else -1
    won = [deal["card_points"][t] + deal["belot"][t] + 90 * (deal["capot"] == t) for t in (0, 1)]
    estimate = sign * margin(start.hands, start.contract, start.leader, weights)
    return FAMILIES[start.contract], estimate, float(won[team] - won[1 - team])


def fit_play(deals: int, weights: dict[str, list[float]], workers: int = 2) -> dict:
    """Play ``deals`` deals out and fit each family's (slope, intercept, spread)."""
    tasks = [(seed, weights) for seed in range(deals)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        rows = pool.map(_played_out, tasks, chunksize=10)
    fitted = {}
    for family in ("suit", "nt", "at"):
        xs = [x for f, x, _y in rows if f == family]
        ys = [y for f, _x, y in rows if f == family]
        if len(set(xs)) < 3:  # too few deals to fit: taken as played perfectly
            fitted[family] = [1.0, 0.0, 0.0]
            continue
        slope, intercept = statistics.linear_regression(xs, ys)
        rest = [y - slope * x - intercept for x, y in zip(xs, ys, strict=True)]
        fitted[family] = [
            round(slope, 3),
            round(intercept, 2),
            round((sum(r * r for r in rest) / len(rest)) ** 0.5, 2),
        ]
    return fitted


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12000, help="deals solved exactly")
    parser.add_argument("--played", type=int, default=1500, help="deals played out")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(WEIGHTS))
    args = parser.parse_args(argv)
    result = train(args.deals, args.workers, args.seed)
    result["played"] = fit_play(args.played, result["weights"], args.workers)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(
        f"{args.deals} deals in {result['seconds']} s; residual spread {result['spread']}; "
        f"in play {result['played']}"
    )


if __name__ == "__main__":
    main()
