"""One summary a Belote level, gathered from whatever ``manage.py bench bots`` ran (pure).

For each level: its match rate against the 2001 AI (``--arena``) and beside a 2001 partner
(``--arena-partner``), its duplicate points a deal against frozen hard (``--deal-pairs``) and
against the 2001 AI (``--arena-deals``), the audit of the deals it played in those duplicate
runs (:mod:`benchmarks.belote_audit`: donations, bid readability, doubles and redoubles) and its
decision times.
"""

from __future__ import annotations

from typing import Any

from .belote_audit import add, format_audit


def figures(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per level, the figures found in ``result`` (the bench command's JSON result)."""
    levels: dict[str, dict[str, Any]] = {}

    def level(name: str) -> dict[str, Any]:
        return levels.setdefault(name, {"audits": {}, "times": {}})

    for run in result.get("arena", []):
        entry = level(run["level"])
        entry["arena"] = (run["wins"], run["matches"], run["interval"])
        entry["times"]["2001 matches"] = run.get("times")
    for run in result.get("arena_partner", []):
        entry = level(run["level"])
        entry["partner"] = (run["wins"], run["matches"], run["interval"])
        entry["times"]["partner matches"] = run.get("times")
    duplicate = result.get("belote_duplicate", {}).get("pairings", {})
    for row in duplicate.values():
        first, second = row["players"]
        entry = level(first)
        entry.setdefault("deal_pairs", {})[second] = (
            row["mean_difference"],
            row["deal_pairs"],
            row["interval"],
        )
        if "audit" in row:
            add(entry["audits"].setdefault(f"its duplicate deals vs {second}", {}), row["audit"])
        if row.get("times"):
            entry["times"][f"deals vs {second}"] = row["times"]
    for run in result.get("arena_deals", []):
        entry = level(run["player"])
        entry["arena_deals"] = (run["mean_difference"], run["deal_pairs"], run["interval"])
        if "audit" in run:
            add(entry["audits"].setdefault("its duplicate deals vs the 2001 AI", {}), run["audit"])
        if "p99_ms" in run:
            entry["times"]["deals vs the 2001 AI"] = {
                "median_ms": run.get("p50_ms", 0.0),
                "p99_ms": run["p99_ms"],
            }
    return levels


def _rate(figure: tuple[int, int, tuple[float, float]]) -> str:
    wins, matches, (low, high) = figure
    rate = wins / matches if matches else 0.0
    return f"{wins}/{matches} = {rate:.1%} (95% CI {low:.1%}-{high:.1%})"


def _points(figure: tuple[float, int, tuple[float, float]]) -> str:
    mean, pairs, (low, high) = figure
    return f"{mean:+.2f} a deal over {pairs} deal pairs (95% CI {low:+.2f} to {high:+.2f})"


def format_levels(levels: dict[str, dict[str, Any]]) -> str:
    """:func:`figures` as text, a block a level ("not run" for what this run did not measure)."""
    lines = ["Per level:"]
    for name, entry in levels.items():
        lines.append(f"  {name}:")
        lines.append(
            "    matches vs the 2001 AI: "
            + (_rate(entry["arena"]) if "arena" in entry else "not run (--arena)")
        )
        lines.append(
            "    partner mode, its team's matches: "
            + (_rate(entry["partner"]) if "partner" in entry else "not run (--arena-partner)")
        )
        against = entry.get("deal_pairs", {})
        if "frozen-hard" not in against and name != "frozen-hard":
            lines.append("    duplicate points vs frozen-hard: not run (--deal-pairs)")
        for other, figure in against.items():
            lines.append(f"    duplicate points vs {other}: {_points(figure)}")
        outside = entry.get("arena_deals")
        lines.append(
            "    duplicate points vs the 2001 AI: "
            + (_points(outside) if outside else "not run (--arena-deals)")
        )
        for source, counts in entry["audits"].items():
            lines.append(format_audit(counts, source))
        for source, times in entry["times"].items():
            if times:
                lines.append(
                    f"    decision time ({source}): p50 {times['median_ms']:.1f} ms, "
                    f"p99 {times['p99_ms']:.1f} ms"
                )
    return "\n".join(lines)
