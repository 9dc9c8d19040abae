"""The Belote levels against an outside opponent: the 2001 program's own AI, run by the harness
in ``../shared/arena-2001`` (a benchmark only: the site and its tests never need it).

The harness emulates the 2001 program, which needs ``unicorn``, ``pefile`` and ``capstone``:
the Python named by ``ARENA_PYTHON``, else this one if it has them (its README installs them in a
venv of their own). Without the harness or such a Python the pairing is skipped, with the
reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

from . import arena_deals
from .belote_audit import format_audit
from .stats import decision_times, percentile, wilson

#: Where the harness lies beside the checkout.
HARNESS = Path(settings.BASE_DIR).parent / "shared" / "arena-2001"
MODULES = "import unicorn, pefile, capstone"
#: The harness takes its statistics from ``games.bench.stats``, where this checkout's lived:
#: every process it starts (spawned workers too) finds them in ``benchmarks/stats.py``.
SITECUSTOMIZE = """
import importlib.machinery, importlib.util, sys

class _Stats:
    def find_spec(self, name, path=None, target=None):
        if name == "games.bench":
            spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
            spec.submodule_search_locations = []
            return spec
        if name == "games.bench.stats":
            return importlib.util.spec_from_file_location(name, {stats!r})
        return None

sys.meta_path.insert(0, _Stats())
"""


def interpreter() -> str | None:
    """A Python that can run the harness, or None."""
    named = os.environ.get("ARENA_PYTHON", "")
    for python in (named, sys.executable) if named else (sys.executable,):
        probe = subprocess.run([python, "-c", MODULES], capture_output=True, check=False)
        if probe.returncode == 0:
            return python
    return None


def skipped() -> str:
    """Why the arena cannot run here ("" when it can)."""
    if not (HARNESS / "arena_2001.py").exists():
        return f"arena-2001: skipped ({HARNESS} is not here)"
    if interpreter() is None:
        return (
            "arena-2001: skipped (no Python with unicorn, pefile and capstone: set ARENA_PYTHON, "
            f"see {HARNESS / 'README.md'})"
        )
    return ""


def run(
    level: str, matches: int, *, workers: int, seed: int, budget: float, partner: bool = False
) -> dict[str, Any]:
    """Play ``matches`` whole matches of ``level`` against the 2001 AI (seats alternating, the
    same decks for every level at one ``seed``); the project's wins with a 95% interval, its
    decision times, and the harness's own summary. With ``partner``, the harness's partner
    mode: ``level`` plays one seat alone beside a 2001 partner, against two more (the win rate
    is its team's)."""
    python = interpreter()
    if python is None or not (HARNESS / "arena_2001.py").exists():
        raise RuntimeError(skipped())
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "arena.json"
        stats = Path(settings.BASE_DIR) / "benchmarks" / "stats.py"
        (Path(folder) / "sitecustomize.py").write_text(SITECUSTOMIZE.format(stats=str(stats)))
        env = {**os.environ, "PYTHONPATH": folder}
        command = [
            python,
            str(HARNESS / "arena_2001.py"),
            "--bb",
            str(HARNESS / "bb"),
            "--main",
            str(settings.BASE_DIR),
            "--level",
            level,
            "--matches",
            str(matches),
            "--workers",
            str(workers),
            "--seed",
            str(seed),
            "--budget",
            str(budget),
            "--json",
            str(out),
            *(["--partner"] if partner else []),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode:
            raise RuntimeError(f"the arena failed: {done.stderr.strip()[-2000:]}")
        printed = done.stdout
        results = json.loads(out.read_text())["results"]
    wins = sum(1 for r in results if r["project_won"])
    times = [t for r in results for t in r["t_bot"]]
    return {
        "level": level,
        "partner": partner,
        "times": decision_times({level: times}).get(level),
        "matches": len(results),
        "wins": wins,
        "rate": wins / len(results) if results else 0.0,
        "interval": wilson(wins, len(results)) if results else (0.0, 0.0),
        # The harness's own summary: contracts, doubles, capots and points per deal of each side.
        "summary": printed.strip().splitlines(),
        "results": results,
    }


def run_deals(player: str, pairs: int, *, workers: int, seed: int, budget: float) -> dict[str, Any]:
    """Play ``pairs`` duplicate deal pairs of ``player`` against the 2001 AI
    (:mod:`benchmarks.arena_deals`): the mean difference of written points a deal with its 95%
    interval, and the contracts each side declared."""
    python = interpreter()
    if python is None or not (HARNESS / "arena_2001.py").exists():
        raise RuntimeError(skipped())
    with tempfile.TemporaryDirectory() as folder:
        stats = Path(settings.BASE_DIR) / "benchmarks" / "stats.py"
        (Path(folder) / "sitecustomize.py").write_text(SITECUSTOMIZE.format(stats=str(stats)))
        command = [
            python,
            str(Path(settings.BASE_DIR) / "benchmarks" / "arena_deals.py"),
            *("--harness", str(HARNESS), "--main", str(settings.BASE_DIR)),
            *("--player", player, "--pairs", str(pairs), "--seed", str(seed)),
            *("--budget", str(budget), "--workers", str(workers)),
        ]
        env = {**os.environ, "PYTHONPATH": folder}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise RuntimeError(f"the arena failed: {done.stderr.strip()[-2000:]}")
    outcomes = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    times = [t for o in outcomes for t in o["times"]]
    return {
        "player": player,
        "budget": budget,
        **arena_deals.summarise(outcomes),
        "p50_ms": 1000 * (percentile(times, 0.5) or 0.0),
        "p99_ms": 1000 * (percentile(times, 0.99) or 0.0),
    }


def format_deals(result: dict[str, Any]) -> str:
    """:func:`run_deals`' result as a few lines of text."""
    low, high = result["interval"]
    counts = result["contracts"]
    sides = "; ".join(
        f"{name} declared {counts.get(f'{who}:declared', 0)} (All Trumps "
        f"{counts.get(f'{who}:AT', 0)}, No Trumps {counts.get(f'{who}:NT', 0)}), inside "
        f"{counts.get(f'{who}:inside', 0)}, doubled {counts.get(f'{who}:x2', 0)}, redoubled "
        f"{counts.get(f'{who}:x4', 0)}"
        for who, name in (("project", result["player"]), ("2001", "the 2001 AI"))
    )
    return (
        f"  {result['player']} vs the 2001 AI by duplicate deals: {result['deal_pairs']} deal "
        f"pairs, {result['player']} writes {result['mean_difference']:+.2f} points a deal more "
        f"(95% CI {low:+.2f} to {high:+.2f}); p99 decision {result['p99_ms']:.0f} ms\n"
        f"    {sides}; all passed {counts.get('all pass', 0)}"
        + ("\n" + format_audit(result["audit"], "these deals") if "audit" in result else "")
    )


def format_result(result: dict[str, Any]) -> str:
    """:func:`run`'s result as a few lines of text."""
    low, high = result["interval"]
    summary = "\n".join(f"    {line}" for line in result["summary"] if "note:" not in line)
    how = " in partner mode (its team's)" if result.get("partner") else ""
    return (
        f"  {result['level']} vs the 2001 AI{how}: {result['wins']}/{result['matches']} matches "
        f"won = {result['rate']:.1%} (95% CI {low:.1%}-{high:.1%})\n{summary}"
    )
