"""How deals are fixed before play, and the verifier anyone can download
(``games.engines.fair_deals``)."""

from __future__ import annotations

import functools
import io
import zipfile
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

#: The package the verifier needs: it and the pure engines, nothing else.
GAMES = Path(__file__).resolve().parent.parent
VERIFIER_FILES = (
    "verify.py",
    *(f"engines/{p.name}" for p in sorted((GAMES / "engines").glob("*.py"))),
)
MAIN = "from games.verify import main\n\nraise SystemExit(main())\n"
README = """Cardroom's match-log verifier: the site's own code that checks a match's deals.

Run it with Python 3.11 or later, nothing else installed:

    python3 cardroom-verifier.zip cardroom-match-123.json

(or unzip it and run `python3 -m games.verify cardroom-match-123.json`).
It checks the secret against its commitment, derives the seed and every deal, replays every
action through the game's rules engine and compares the result. See /fair-deals/ on the site.
"""


@require_GET
def fair_deals(request: HttpRequest) -> HttpResponse:
    """How a match's deals are fixed before play, and how to check them."""
    return render(request, "games/fair_deals.html")


@functools.cache
def verifier_zip() -> bytes:
    """The verifier as a zip that Python runs directly (built once per process)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__main__.py", MAIN)
        archive.writestr("README.txt", README)
        archive.writestr("games/__init__.py", '"""Cardroom\'s match-log verifier."""\n')
        for name in VERIFIER_FILES:
            archive.write(GAMES / name, f"games/{name}")
    return buffer.getvalue()


@require_GET
def verifier(request: HttpRequest) -> HttpResponse:
    """The verifier zip: ``python3 cardroom-verifier.zip log.json``."""
    response = HttpResponse(verifier_zip(), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="cardroom-verifier.zip"'
    return response
