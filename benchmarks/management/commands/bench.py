"""``python manage.py bench engines|bots|lobby|review``: the benchmarks (never timed tests).

- ``engines``: random legal playouts per second for each engine, one core.
- ``bots``: win rates of whole Belote matches in mirrored pairs (expert against frozen hard,
  its bidding and its card play apart, hard, normal, easy), decision times and manners per
  1,000 decisions and per 1,000 positions where a fault is possible
  (``benchmarks.belote_bots``); Grabush win rates between levels with 2 and
  with 4 players (``benchmarks.grabush_bots``).
- ``review``: a whole Belote deal's review on one core, over ``--deals`` deals
  (``benchmarks.review``).
- ``lobby``: a player's move round trip while many lobby sockets watch and one socket floods
  a public table within its frame budget (``benchmarks.lobby``); on a server it starts, on
  DATABASE_URL/REDIS_URL when set, else on its own SQLite file.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks import belote_bots, grabush_bots, lobby, review
from benchmarks import engines as engine_bench
from benchmarks.management.commands.loadtest import rerun_on_own_database


class Command(BaseCommand):
    help = (
        "Run a benchmark: 'engines' (playouts per second), 'bots' (strength and speed), "
        "'review' (a deal's review) or 'lobby' (a move's round trip beside a lobby flood)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("what", choices=["engines", "bots", "lobby", "review"])
        parser.add_argument("--deals", type=int, default=200, help="review: deals reviewed")
        parser.add_argument("--seconds", type=float, default=3.0, help="engines: time per run")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pairs",
            type=belote_bots._pairs,
            help="bots: Belote pairings and mirrored pairs, e.g. expert-vs-frozen-hard=400 "
            "(every pairing at its default when not given)",
        )
        parser.add_argument(
            "--games", type=int, default=2000, help="bots: two-player Grabush games per pairing"
        )
        parser.add_argument(
            "--games-4p", type=int, default=1000, help="bots: four-player Grabush games per pairing"
        )
        parser.add_argument(
            "--fault-positions",
            type=int,
            default=3000,
            help="bots: positions where a Belote fault is possible, to judge each level in",
        )
        parser.add_argument("--budget", type=float, default=0.3, help="bots: seconds per decision")
        parser.add_argument("--workers", type=int, default=2, help="bots: processes")
        parser.add_argument("--duration", type=float, default=15.0, help="lobby: seconds measured")
        parser.add_argument(
            "--lobby-sockets", type=int, default=lobby.LOBBY_SOCKETS, help="lobby: watchers"
        )
        parser.add_argument(
            "--tables", type=int, default=lobby.LOBBY_TABLES, help="lobby: public tables"
        )
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "lobby":
            result: Any = self.bench_lobby(options)
        elif options["what"] == "review":
            result = review.run(options["deals"], options["seed"])
            self.stdout.write(review.format_result(result))
        elif options["what"] == "engines":
            result = engine_bench.run(options["seconds"], options["seed"])
            self.stdout.write(engine_bench.format_rows(result))
        else:
            result = {
                "belote": belote_bots.bench_belote(
                    options["pairs"], options["budget"], options["workers"], seed=options["seed"]
                ),
                "grabush": [
                    grabush_bots.bench_grabush(
                        games, options["budget"], players, options["workers"], options["seed"]
                    )
                    for players, games in ((2, options["games"]), (4, options["games_4p"]))
                    if games
                ],
            }
            count = options["fault_positions"]
            if count:
                result["belote"]["faults_where_possible"] = belote_bots.faults_where_possible(
                    belote_bots.FAULT_PLAYERS, count, budget=options["budget"]
                )
            self.stdout.write(belote_bots.format(result["belote"]))
            if count:
                rates = result["belote"]["faults_where_possible"]
                self.stdout.write(belote_bots.format_faults(rates, count))
            for grabush in result["grabush"]:
                self.stdout.write(grabush_bots.format_bench(grabush))
        if options["json"] and result is not None:
            with open(options["json"], "w") as handle:
                json.dump(result, handle, indent=2)

    def bench_lobby(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """Run the lobby benchmark (None: it ran in a copy of this command, on its own file)."""
        if not 0 < options["duration"] <= 600:
            raise CommandError("--duration must be in (0, 600]")
        if not 1 <= options["lobby_sockets"] <= 2000 or not 1 <= options["tables"] <= 500:
            raise CommandError("--lobby-sockets must be in [1, 2000] and --tables in [1, 500]")
        if "DATABASE_URL" not in os.environ:
            rerun_on_own_database("bench")
            return None
        call_command("migrate", verbosity=0, interactive=False)
        result = lobby.run(
            duration=options["duration"],
            lobby_sockets=options["lobby_sockets"],
            table_count=options["tables"],
            say=lambda text: self.stderr.write(text),
        )
        self.stdout.write(lobby.format_result(result))
        return result.as_dict()
