"""``python manage.py bench engines|bots``: the benchmarks (never timed tests).

- ``engines``: random legal playouts per second for each engine, one core.
- ``bots``: win rates between bot levels with 95% Wilson intervals, and decision times, for
  Belote (normal vs easy, hard vs normal) and Grabush (the same pairings).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bots import belote_bench, grabush_bench
from games.engines import bench as engine_bench


class Command(BaseCommand):
    help = "Run a benchmark: 'engines' (playouts per second) or 'bots' (strength and speed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("what", choices=["engines", "bots"])
        parser.add_argument("--seconds", type=float, default=3.0, help="engines: time per run")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--matches", type=int, default=200, help="bots: Belote matches of normal vs easy"
        )
        parser.add_argument(
            "--hard-matches", type=int, default=40, help="bots: Belote matches of hard vs normal"
        )
        parser.add_argument(
            "--games", type=int, default=200, help="bots: Grabush games per pairing"
        )
        parser.add_argument("--players", type=int, default=2, help="bots: Grabush players")
        parser.add_argument("--budget", type=float, default=0.3, help="bots: seconds per decision")
        parser.add_argument("--workers", type=int, default=2, help="bots: processes")
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "engines":
            result: Any = engine_bench.run(options["seconds"], options["seed"])
            self.stdout.write(engine_bench.format_rows(result))
        else:
            result = {
                "belote": belote_bench.bench_belote(
                    options["matches"],
                    options["budget"],
                    options["workers"],
                    hard_matches=options["hard_matches"],
                    seed=options["seed"],
                ),
                "grabush": grabush_bench.bench_grabush(
                    options["games"],
                    options["budget"],
                    options["players"],
                    options["workers"],
                    options["seed"],
                ),
            }
            self.stdout.write(belote_bench.format(result["belote"]))
            self.stdout.write(grabush_bench.format_bench(result["grabush"]))
        if options["json"]:
            with open(options["json"], "w") as handle:
                json.dump(result, handle, indent=2)
