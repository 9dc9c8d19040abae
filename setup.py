"""Builds the one compiled module: Belote's double-dummy search (games/analysis/belote_solver.py).

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.analysis._belote_dd",
            sources=["games/analysis/_belote_dd.c"],
            extra_compile_args=["-O2"],
        )
    ]
)
