"""``python manage.py bench engines|bots|lobby|review|moves|notices|connections|pages|daily``: the
benchmarks (never timed tests).

- ``engines``: random legal playouts per second for each engine, one core.
- ``bots``: win rates of whole Belote matches in mirrored pairs (expert against frozen hard,
  its bidding and its card play apart, hard, normal, easy), decision times and manners per
  1,000 decisions and per 1,000 positions where a fault is possible
  (``benchmarks.belote_bots``); Grabush win rates between levels with 2 and
  with 4 players (``benchmarks.grabush_bots``). With ``--deal-pairs``, ``--arena``,
  ``--arena-partner`` or ``--arena-deals``: duplicate deals, matches against the 2001 program's
  AI (alone, or one seat beside a 2001 partner), and a summary a level with the audit of its
  duplicate deals (``benchmarks.belote_audit``: donations, bid readability, redoubles).
- ``review``: a whole Belote deal's review on one core, over ``--deals`` deals
  (``benchmarks.review``).
- ``lobby``: a player's move round trip while many lobby sockets watch and one socket floods
  a public table within its frame budget (``benchmarks.lobby``); on a server it starts, on
  DATABASE_URL/REDIS_URL when set, else on its own SQLite file.
- ``connections``: a request's time and the connections a server holds, with Django's pool and
  with a connection per request (``benchmarks.connections``); on DATABASE_URL when set.
- ``pages``: the CPU of an anonymous view of each page the soak's visitors open, through the
  site's ASGI application and through Django's sync handler (``benchmarks.pages``); on
  DATABASE_URL when set, else on its own SQLite file.
- ``daily``: the daily Belote's standings page and each deal's traveller with ``--players``
  finished sets, p50 and p95 of each (``benchmarks.daily``); on DATABASE_URL when set, else
  on its own SQLite file.
- ``moves``: Python instructions, calls and queries per move made over a table's websocket,
  counted twice to the same figure, and CPU time per move (``benchmarks.move_path``); in
  processes of its own, each on a copy of one SQLite file of its own.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks import (
    arena,
    belote_bots,
    belote_levels,
    connections,
    daily,
    grabush_bots,
    lobby,
    move_path,
    notices,
    pages,
    review,
)
from benchmarks import engines as engine_bench
from benchmarks.management.commands.loadtest import rerun_on_own_database
from benchmarks.results import write_json


class Command(BaseCommand):
    help = (
        "Run a benchmark: 'engines' (playouts per second), 'bots' (strength and speed), "
        "'review' (a deal's review), 'lobby' (a move's round trip beside a lobby flood) or "
        "'moves' (instructions, calls and queries per move, counted exactly)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "what",
            choices=[
                "engines",
                "bots",
                "lobby",
                "review",
                "moves",
                "notices",
                "connections",
                "pages",
                "daily",
            ],
        )
        parser.add_argument("--deals", type=int, default=200, help="review: deals reviewed")
        parser.add_argument("--seconds", type=float, default=3.0, help="engines: time per run")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pairs",
            type=belote_bots.parse_pairs,
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
            "--tables",
            type=int,
            help=f"lobby: public tables ({lobby.LOBBY_TABLES}); moves: tables played "
            f"({move_path.TABLES})",
        )
        parser.add_argument(
            "--moves", type=int, default=move_path.MOVES, help="moves: moves made in all"
        )
        parser.add_argument(
            "--spectators", type=int, default=move_path.SPECTATORS, help="moves: per table"
        )
        parser.add_argument(
            "--profile",
            action="store_true",
            help="moves: also the functions that run the most instructions per move",
        )
        parser.add_argument(
            "--top", type=int, default=move_path.TOP, help="moves: functions --profile lists"
        )
        parser.add_argument("--rounds", type=int, default=40, help="notices: invitations sent")
        parser.add_argument(
            "--deal-pairs",
            help="bots: duplicate deals for these pairings, e.g. expert-vs-frozen-hard=2000",
        )
        parser.add_argument(
            "--arena",
            help="bots: whole matches against the 2001 program's AI (../shared/arena-2001), "
            "e.g. hard=100,expert=100",
        )
        parser.add_argument(
            "--arena-partner",
            help="bots: whole matches in the arena's partner mode, the level on one seat beside "
            "a 2001 partner, e.g. hard=100",
        )
        parser.add_argument(
            "--arena-deals",
            help="bots: duplicate deal pairs against the 2001 program's AI, e.g. hard=1000",
        )
        parser.add_argument(
            "--requests", type=int, default=400, help="connections: requests each way"
        )
        parser.add_argument(
            "--views", type=int, default=300, help="pages, daily: views of each page"
        )
        parser.add_argument(
            "--players", type=int, default=10_000, help="daily: finished sets of the day"
        )
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "lobby":
            result: Any = self.bench_lobby(options)
        elif options["what"] == "notices":
            result = self.bench_notices(options)
        elif options["what"] == "connections":
            result = self.bench_connections(options)
        elif options["what"] == "moves":
            result = self.bench_moves(options)
        elif options["what"] == "pages":
            result = self.bench_pages(options)
        elif options["what"] == "daily":
            result = self.bench_daily(options)
        elif options["what"] == "review":
            result = review.run(options["deals"], options["seed"])
            self.stdout.write(review.format_result(result))
        elif options["what"] == "engines":
            result = engine_bench.run(options["seconds"], options["seed"])
            self.stdout.write(engine_bench.format_rows(result))
        else:
            result = self.bench_bots(options)
        if result is not None:
            write_json(options["json"], result)
        if options["what"] == "moves" and not result["repeatable"]:
            raise CommandError("the two counts differ: this count is not repeatable here")

    def bench_lobby(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """Run the lobby benchmark (None: it ran in a copy of this command, on its own file)."""
        if not 0 < options["duration"] <= 600:
            raise CommandError("--duration must be in (0, 600]")
        if options["tables"] is None:
            options["tables"] = lobby.LOBBY_TABLES
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

    def bench_bots(self, options: dict[str, Any]) -> dict[str, Any]:
        """Whole matches (every pairing by default), Grabush games and manners; or, with
        ``--deal-pairs``, ``--arena``, ``--arena-partner`` or ``--arena-deals``, those and a
        summary a level (and whole matches only for ``--pairs``)."""
        result: dict[str, Any] = {}
        if options["deal_pairs"]:
            by_deals = belote_bots.duplicate_deals(
                belote_bots.parse_pairs(options["deal_pairs"]),
                options["budget"],
                options["workers"],
                seed=options["seed"],
            )
            result["belote_duplicate"] = by_deals
            self.stdout.write(belote_bots.format_duplicate(by_deals))
        if options["arena"]:
            result["arena"] = self.bench_arena(options)
        if options["arena_partner"]:
            result["arena_partner"] = self.arena_runs(
                options,
                options["arena_partner"],
                100,
                functools.partial(arena.run, partner=True),
                arena.format_result,
            )
        if options["arena_deals"]:
            result["arena_deals"] = self.bench_arena_deals(options)
        if result:
            self.stdout.write(belote_levels.format_levels(belote_levels.figures(result)))
        if result and options["pairs"] is None:
            return result
        result["belote"] = belote_bots.bench_belote(
            options["pairs"], options["budget"], options["workers"], seed=options["seed"]
        )
        result["grabush"] = [
            grabush_bots.bench_grabush(
                games, options["budget"], players, options["workers"], options["seed"]
            )
            for players, games in ((2, options["games"]), (4, options["games_4p"]))
            if games
        ]
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
        return result

    def bench_arena(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        """Each level named against the 2001 AI, or a line saying why it is skipped."""
        return self.arena_runs(options, options["arena"], 100, arena.run, arena.format_result)

    def bench_arena_deals(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        """Each player named against the 2001 AI by duplicate deals, or why it is skipped."""
        return self.arena_runs(
            options, options["arena_deals"], 500, arena.run_deals, arena.format_deals
        )

    def arena_runs(
        self,
        options: dict[str, Any],
        spec: str,
        default: int,
        run: Callable[..., dict[str, Any]],
        format_run: Callable[[dict[str, Any]], str],
    ) -> list[dict[str, Any]]:
        """Run each ``name=count`` of ``spec`` (``default`` times without a count), writing
        each result, or write why the arena is skipped."""
        reason = arena.skipped()
        if reason:
            self.stdout.write(reason)
            return []
        results = []
        for part in spec.split(","):
            name, _, count = part.partition("=")
            played = run(
                name,
                int(count or default),
                workers=options["workers"],
                seed=options["seed"],
                budget=options["budget"],
            )
            self.stdout.write(format_run(played))
            results.append(played)
        return results

    def bench_notices(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """Time invitations reaching an open page (None: it ran in a copy of this command)."""
        if "DATABASE_URL" not in os.environ:
            rerun_on_own_database("bench")
            return None
        call_command("migrate", verbosity=0, interactive=False)
        result = notices.run(rounds=options["rounds"], say=lambda text: self.stderr.write(text))
        self.stdout.write(notices.format_result(result))
        return result.as_dict()

    def bench_connections(self, options: dict[str, Any]) -> list[dict[str, Any]] | None:
        """Time requests with the pool and without (None: it ran in a copy of this command)."""
        if "DATABASE_URL" not in os.environ:
            rerun_on_own_database("bench")
            return None
        call_command("migrate", verbosity=0, interactive=False)
        runs = connections.run(options["requests"], say=lambda text: self.stderr.write(text))
        self.stdout.write(connections.format_runs(runs))
        return connections.as_dicts(runs)

    def bench_pages(self, options: dict[str, Any]) -> list[dict[str, Any]] | None:
        """Count the CPU of each visitor page's view through the ASGI and the sync handler
        (None: it ran in a copy of this command, on its own file)."""
        if not 1 <= options["views"] <= 10_000:
            raise CommandError("--views must be in [1, 10000]")
        if "DATABASE_URL" not in os.environ:
            rerun_on_own_database("bench")
            return None
        call_command("migrate", verbosity=0, interactive=False)
        costs = pages.run(options["views"])
        self.stdout.write(pages.format_costs(costs))
        return pages.as_dicts(costs)

    def bench_daily(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """Time the daily's standings and travellers with many finished sets (None: it ran in
        a copy of this command, on its own file)."""
        if not 1 <= options["players"] <= 100_000 or not 1 <= options["views"] <= 10_000:
            raise CommandError("--players must be in [1, 100000] and --views in [1, 10000]")
        if "DATABASE_URL" not in os.environ:
            rerun_on_own_database("bench")
            return None
        call_command("migrate", verbosity=0, interactive=False)
        result = daily.run(
            options["players"], options["views"], say=lambda text: self.stderr.write(text)
        )
        self.stdout.write(daily.format_result(result))
        return result

    def bench_moves(self, options: dict[str, Any]) -> dict[str, Any]:
        """Count the move path (twice) and time it, in processes of its own."""
        tables = options["tables"] or move_path.TABLES
        if not 1 <= tables <= 100 or not 1 <= options["moves"] <= 100_000:
            raise CommandError("--tables must be in [1, 100] and --moves in [1, 100000]")
        if not 0 <= options["spectators"] <= 10 or not 1 <= options["top"] <= 1000:
            raise CommandError("--spectators must be in [0, 10] and --top in [1, 1000]")
        try:
            result = move_path.run(
                tables=tables,
                moves=options["moves"],
                spectators=options["spectators"],
                seed=options["seed"],
                profile=options["profile"],
                top=options["top"],
                root=settings.BASE_DIR,
                say=lambda text: self.stderr.write(text),
            )
        except (RuntimeError, subprocess.CalledProcessError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(move_path.format_result(result))
        return result
