"""Bots for the tests of where computer players think (imported by the pool's processes)."""

from __future__ import annotations

import os
import random
from pathlib import Path

from games.bots import belote


def dies_once(view: dict, rng: random.Random, budget: float) -> str:
    """The first time (per marker file) its process dies mid-thought; then it plays normally."""
    marker = Path(os.environ["DIES_ONCE_MARKER"])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os._exit(1)
    return belote.choose_normal(view, rng, budget)


def where(view: dict, rng: random.Random, budget: float) -> str:
    """Plays normally, and notes which process thought (for the test to check)."""
    Path(os.environ["THINKER_MARKER"]).write_text(str(os.getpid()))
    return belote.choose_normal(view, rng, budget)
