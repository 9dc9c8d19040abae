"""A deal reviewer for the tests of where reviews are worked out (imported by the pool's
processes, before Django is set up there)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.records import reviews


def where(
    match: tuple[str, str, dict[str, Any]], moves: Sequence[tuple[int, str]], number: int
) -> dict[str, Any] | None:
    """Works the review out, and notes which process did (for the test to check)."""
    Path(os.environ["REVIEWER_MARKER"]).write_text(str(os.getpid()))
    return reviews.work_out(match, moves, number)
