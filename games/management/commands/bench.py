"""``python manage.py bench engines``: the benchmarks (never timed tests)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandParser

from games.engines import bench as engine_bench


class Command(BaseCommand):
    help = "Run a benchmark: 'engines' (random playouts per second, one core)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("what", choices=["engines"])
        parser.add_argument("--seconds", type=float, default=3.0, help="time per benchmark")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args, **options) -> None:
        rows = engine_bench.run(options["seconds"], options["seed"])
        self.stdout.write(engine_bench.format_rows(rows))
        if options["json"]:
            with open(options["json"], "w") as handle:
                json.dump(rows, handle, indent=2)
