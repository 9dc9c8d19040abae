"""Keep a benchmark's result in the JSON file its ``--json`` option names."""

from __future__ import annotations

import json
from typing import Any


def write_json(path: str | None, result: Any) -> None:
    """Write ``result`` as indented JSON to ``path``; nothing when no path is given."""
    if path:
        with open(path, "w") as handle:
            json.dump(result, handle, indent=2)
