#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

#: Commands of the benchmarks' app, which only ``benchmarks.settings`` installs.
BENCHMARK_COMMANDS = frozenset({"bench", "loadtest"})


def settings_module(argv: list[str]) -> str:
    """The settings ``manage.py`` runs ``argv`` with unless DJANGO_SETTINGS_MODULE names others:
    the benchmarks' for their commands, the site's for every other."""
    command = argv[1] if len(argv) > 1 else ""
    return "benchmarks.settings" if command in BENCHMARK_COMMANDS else "cardroom.settings"


def main() -> None:
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module(sys.argv))
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
