"""``python manage.py loadtest``: paced websocket load on real tables, against a bare floor."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks import load

#: Set in the copy of the command that runs on the benchmark's own SQLite file.
OWN_DB_FLAG = "CARDROOM_LOADTEST_OWN_DB"


class Command(BaseCommand):
    help = (
        "Load benchmark: N Belote tables of 4 websocket clients, one move per table every "
        "--pace seconds; latency to all four players, for a sweep of N, beside a bare fan-out "
        "floor. Uses DATABASE_URL/REDIS_URL when set, else its own SQLite file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tables",
            default=",".join(str(n) for n in load.DEFAULT_SWEEP),
            help="table counts to sweep, comma-separated (default 25,50,100,200,400)",
        )
        parser.add_argument("--duration", type=float, default=20.0, help="seconds per step")
        parser.add_argument("--pace", type=float, default=2.0, help="seconds between moves")
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
            default=1,
            help="daphne processes to start and spread each table's clients over (more than "
            "one needs DATABASE_URL=postgres://… and REDIS_URL)",
        )
        parser.add_argument(
            "--bot-tables",
            type=int,
            default=0,
            help="beside each step's tables, this many tables of one human and three computer "
            "players (reported as 'bots': the human's move to their own update)",
        )
        parser.add_argument("--bot-level", default="hard", help="the computer players' level")
        parser.add_argument(
            "--notice-sockets",
            action="store_true",
            help="each player also holds the notice socket every page of the site opens",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", help="also write the results to this JSON file")

    def handle(self, *args, **options) -> None:
        if "DATABASE_URL" not in os.environ and options["url"] is None:
            rerun_on_own_database("load")
            return
        try:
            sweep = sorted({int(n) for n in options["tables"].split(",") if n.strip()})
        except ValueError:
            raise CommandError("--tables takes whole numbers, e.g. 25,50,100") from None
        if not sweep or min(sweep) < 1 or max(sweep) > 2000:
            raise CommandError("--tables must be between 1 and 2000")
        if not 1 <= options["servers"] <= 16 or (options["servers"] > 1 and options["url"]):
            raise CommandError("--servers must be between 1 and 16, and cannot go with --url")
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
