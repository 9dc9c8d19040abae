"""``python manage.py loadtest``: paced websocket load on real tables, against a bare floor;
with ``--soak``, one load held for half an hour and judged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks import load, rolling, soak
from cardroom.nginx import nginx_missing

#: Set in the copy of the command that runs on the benchmark's own SQLite file.
OWN_DB_FLAG = "CARDROOM_LOADTEST_OWN_DB"


class Command(BaseCommand):
    help = (
        "Load benchmark: N Belote tables of 4 websocket clients, one move per table every "
        "--pace seconds; latency to all four players, for a sweep of N, beside a bare fan-out "
        "floor. With --soak, one load held for --minutes (tables that play on, anonymous page "
        "views, each process's memory and database connections) and judged. Uses "
        "DATABASE_URL/REDIS_URL when set, else its own SQLite file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tables",
            help="table counts to sweep, comma-separated (default 25,50,100,200,400); with "
            f"--soak, the tables of four players (default {soak.TABLES})",
        )
        parser.add_argument("--duration", type=float, default=20.0, help="seconds per step")
        parser.add_argument(
            "--pace",
            type=float,
            help=f"seconds between a table's moves (default 2; with --soak {soak.PACE:g})",
        )
        parser.add_argument(
            "--url",
            help="target a running server (http://127.0.0.1:PORT, daphne serving "
            "benchmarks.asgi:application on the same DATABASE_URL) instead of starting one",
        )
        parser.add_argument("--server-pid", type=int, help="with --url: the server's pid (RSS)")
        parser.add_argument("--no-floor", action="store_true", help="skip the fan-out floor")
        parser.add_argument(
            "--no-real", action="store_true", help="run only the floor (find its own knee)"
        )
        parser.add_argument(
            "--servers",
            type=int,
            help="daphne processes to start and spread each table's clients over (more than "
            f"one needs DATABASE_URL=postgres://… and REDIS_URL; default 1, {soak.SERVERS} "
            "with --soak)",
        )
        parser.add_argument(
            "--bot-tables",
            type=int,
            help="beside each step's tables, this many tables of one human and three computer "
            "players (reported as 'bots': the human's move to their own update; default 0, "
            f"{soak.BOT_TABLES} with --soak)",
        )
        parser.add_argument("--bot-level", default="hard", help="the computer players' level")
        parser.add_argument(
            "--notice-sockets",
            action="store_true",
            help="each player also holds the notice socket every page of the site opens",
        )
        parser.add_argument(
            "--soak",
            action="store_true",
            help="hold one load for --minutes instead of a sweep: tables that play match after "
            "match, anonymous page views, each process's RSS and database connections "
            "sampled; each criterion judged (exit status 1 when one fails)",
        )
        parser.add_argument(
            "--minutes", type=float, default=soak.MINUTES, help="with --soak: how long"
        )
        parser.add_argument(
            "--page-views",
            type=float,
            default=soak.PAGE_VIEWS,
            help="with --soak: anonymous page views a second, spread over the servers",
        )
        parser.add_argument(
            "--window-seconds",
            type=float,
            default=soak.WINDOW_SECONDS,
            help="with --soak: the first and the last window, compared (rows of a fifth)",
        )
        parser.add_argument(
            "--ramp-seconds",
            type=float,
            default=soak.RAMP_SECONDS,
            help="with --soak: seconds over which the tables start and the page views grow, "
            "before the soak's clock starts",
        )
        parser.add_argument(
            "--rolling-restart",
            action="store_true",
            help="one load (--tables, one number; default 200) through nginx in front of "
            "--servers (default 2), each restarted in turn with SIGTERM during --duration "
            "(default 150): moves lost or applied twice, and p95 over the restarts (exit "
            "status 1 unless none and under 1 s); needs nginx, PostgreSQL and Redis",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args, **options) -> None:
        if "DATABASE_URL" not in os.environ and options["url"] is None:
            rerun_on_own_database("load")
            return
        if options["soak"]:
            self.soak(options)
            return
        if options["rolling_restart"]:
            self.rolling_restart(options)
            return
        options["servers"] = 1 if options["servers"] is None else options["servers"]
        options["bot_tables"] = options["bot_tables"] or 0
        tables = options["tables"] or ",".join(str(n) for n in load.DEFAULT_SWEEP)
        try:
            sweep = sorted({int(n) for n in tables.split(",") if n.strip()})
        except ValueError:
            raise CommandError("--tables takes whole numbers, e.g. 25,50,100") from None
        if not sweep or min(sweep) < 1 or max(sweep) > 2000:
            raise CommandError("--tables must be between 1 and 2000")
        if not 1 <= options["servers"] <= 16 or (options["servers"] > 1 and options["url"]):
            raise CommandError("--servers must be between 1 and 16, and cannot go with --url")
        if options["pace"] is None:
            options["pace"] = 2.0
        if not 0 < options["duration"] <= 600 or not 0.05 <= options["pace"] <= 60:
            raise CommandError("--duration must be in (0, 600] and --pace in [0.05, 60]")
        if options["no_floor"] and options["no_real"]:
            raise CommandError("--no-floor and --no-real leave nothing to measure")
        database, layer = load.describe_setup()
        if options["servers"] > 1 and (database == "sqlite3" or layer != "RedisChannelLayer"):
            raise CommandError("several --servers need DATABASE_URL=postgres://… and REDIS_URL")
        call_command("migrate", verbosity=0, interactive=False)
        report = load.run(
            sweep,
            pace=options["pace"],
            duration=options["duration"],
            url=options["url"],
            server_pid=options["server_pid"],
            floor=not options["no_floor"],
            real=not options["no_real"],
            servers=options["servers"],
            bot_tables=options["bot_tables"],
            bot_level=options["bot_level"],
            notices=options["notice_sockets"],
            seed=options["seed"],
            say=lambda text: self.stderr.write(text),
        )
        self.stdout.write(load.format_report(report))
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report.as_dict(), indent=2) + "\n")

    def soak(self, options: dict) -> None:
        """Hold one load for ``--minutes`` and judge it (``benchmarks.soak``)."""
        plan = soak.Plan(
            minutes=options["minutes"],
            tables=soak.TABLES if options["tables"] is None else whole(options["tables"]),
            bot_tables=soak.BOT_TABLES if options["bot_tables"] is None else options["bot_tables"],
            servers=soak.SERVERS if options["servers"] is None else options["servers"],
            page_views=options["page_views"],
            pace=soak.PACE if options["pace"] is None else options["pace"],
            window_seconds=options["window_seconds"],
            ramp_seconds=options["ramp_seconds"],
            bot_level=options["bot_level"],
            seed=options["seed"],
        )
        if options["url"]:
            raise CommandError("--soak starts its own servers: it takes no --url")
        if not 0 <= plan.tables <= 2000 or not 0 <= plan.bot_tables <= 2000:
            raise CommandError("--tables and --bot-tables must be between 0 and 2000")
        if not plan.tables + plan.bot_tables or not 1 <= plan.servers <= 16:
            raise CommandError("--soak needs a table, and --servers between 1 and 16")
        if not 0 < plan.minutes <= 240 or not 0 < plan.window_seconds <= plan.seconds / 2:
            raise CommandError("--minutes must be in (0, 240], --window-seconds at most half")
        if not 0 <= plan.ramp_seconds <= 600:
            raise CommandError("--ramp-seconds must be in [0, 600]")
        if not 0 <= plan.page_views <= 1000 or not 0.05 <= plan.pace <= 60:
            raise CommandError("--page-views must be in [0, 1000] and --pace in [0.05, 60]")
        database, layer = load.describe_setup()
        if plan.servers > 1 and (database == "sqlite3" or layer != "RedisChannelLayer"):
            raise CommandError(
                f"the soak's {plan.servers} servers need DATABASE_URL=postgres://… and "
                "REDIS_URL (or give --servers 1)"
            )
        call_command("migrate", verbosity=0, interactive=False)
        report = soak.run(plan, database_url=os.environ["DATABASE_URL"], say=self.stderr.write)
        self.stdout.write(soak.format_report(report))
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        if not report.holds:
            raise CommandError("the soak does not hold")

    def rolling_restart(self, options: dict) -> None:
        """Restart each server in turn under load, through nginx (``benchmarks.rolling``)."""
        tables = 200 if options["tables"] is None else whole(options["tables"])
        servers = 2 if options["servers"] is None else options["servers"]
        # Two servers closing 16 sockets a second take about 80 s to restart at 200 tables.
        duration = 150.0 if options["duration"] == 20.0 else options["duration"]
        pace = 2.0 if options["pace"] is None else options["pace"]
        if options["url"] or not 1 <= tables <= 2000 or not 2 <= servers <= 16:
            raise CommandError(
                "--rolling-restart starts its own servers (no --url): --tables between 1 "
                "and 2000, --servers between 2 and 16"
            )
        database, layer = load.describe_setup()
        if database == "sqlite3" or layer != "RedisChannelLayer":
            raise CommandError("--rolling-restart needs DATABASE_URL=postgres://… and REDIS_URL")
        missing = nginx_missing()
        if missing:
            raise CommandError(missing)
        call_command("migrate", verbosity=0, interactive=False)
        try:
            report = rolling.run(
                tables,
                pace=pace,
                duration=duration,
                servers=servers,
                seed=options["seed"],
                say=self.stderr.write,
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(rolling.format_report(report))
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        if not report.holds:
            raise CommandError("the rolling restart does not hold")


def whole(text: str) -> int:
    """``--tables`` of a soak: one whole number."""
    try:
        return int(text)
    except ValueError:
        raise CommandError("--tables of a soak is one whole number, e.g. 250") from None


def rerun_on_own_database(name: str) -> None:
    """Run this command again on a fresh SQLite file (never the developer's db.sqlite3)."""
    if os.environ.get(OWN_DB_FLAG):
        raise CommandError("DATABASE_URL was not passed on; giving up")
    path = Path(f"/tmp/cardroom-{name}-{os.getpid()}.sqlite3")
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{path}", **{OWN_DB_FLAG: "1"})
    manage = Path(settings.BASE_DIR) / "manage.py"
    try:
        result = subprocess.run([sys.executable, str(manage), *sys.argv[1:]], env=env)
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    if result.returncode:
        raise CommandError(f"the benchmark failed (exit code {result.returncode})")
