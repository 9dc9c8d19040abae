"""Engine speed: random legal playouts on one core (``python -m benchmarks.engines``).

For each engine it reports full units per second (Belote: deals, all-pass redeals included;
Grabush: whole games, per player count) and ``legal_actions`` + ``apply`` pairs per second.
Bots simulate with the same two calls, so these figures bound how much a bot can search.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from games.engines import belote, grabush

from .results import write_json


def _playout(
    new_game: Callable[[int], Any],
    legal_actions: Callable[[Any, int], list[str]],
    apply: Callable[[Any, int, str], Any],
    units: Callable[[Any], int],
    seconds: float,
    seed: int,
) -> dict[str, float]:
    """Play random legal actions for ``seconds``; count finished units and action pairs."""
    rng = random.Random(seed)
    pairs = done = 0
    game_no = 0
    state = new_game(seed)
    counted = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        seat = state.to_act
        if seat is None:
            done += units(state) - counted
            game_no += 1
            state = new_game(seed + game_no)
            counted = 0
            if time.perf_counter() > deadline:
                break
            continue
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        pairs += 1
        if pairs % 256 == 0 and time.perf_counter() > deadline:
            done += units(state) - counted
            break
    elapsed = time.perf_counter() - start
    return {"units_per_s": done / elapsed, "pairs_per_s": pairs / elapsed, "seconds": elapsed}


def bench_belote(seconds: float, seed: int) -> dict[str, float]:
    """Random Belote: full deals per second (one match after another)."""
    return _playout(
        lambda s: belote.new_game(seed=s),
        belote.legal_actions,
        belote.apply,
        lambda state: len(belote.deal_results(state)),
        seconds,
        seed,
    )


def bench_grabush(players: int, seconds: float, seed: int) -> dict[str, float]:
    """Random Grabush: full games per second for ``players``."""
    return _playout(
        lambda s: grabush.new_game(seed=s, players=players),
        grabush.legal_actions,
        grabush.apply,
        lambda state: 1,
        seconds,
        seed,
    )


def run(seconds: float = 3.0, seed: int = 1) -> list[dict[str, Any]]:
    """Every benchmark, as rows of ``{"engine", "unit", "units_per_s", "pairs_per_s"}``."""
    rows = [{"engine": "belote", "unit": "deals", **bench_belote(seconds, seed)}]
    for players in (2, 4, 6, 8):
        rows.append(
            {
                "engine": f"grabush-{players}p",
                "unit": "games",
                **bench_grabush(players, seconds, seed),
            }
        )
    return rows


def format_rows(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'engine':<12} {'units/s':>12} {'pairs/s':>12}"]
    for row in rows:
        units = f"{row['units_per_s']:,.0f} {row['unit']}"
        lines.append(f"{row['engine']:<12} {units:>12} {row['pairs_per_s']:>12,.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per benchmark")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    rows = run(args.seconds, args.seed)
    print(format_rows(rows))
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
