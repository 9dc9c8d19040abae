from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """The benchmarks' commands (``manage.py bench``, ``manage.py loadtest``); no models."""

    name = "benchmarks"
    verbose_name = "Benchmarks"
