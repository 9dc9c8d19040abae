"""Daphne, run with `make run`'s flags, answers 503 to a request the application never answers."""

from __future__ import annotations

import shlex
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)
#: A short HTTP timeout for the test (the Makefile's HTTP_TIMEOUT variable).
TIMEOUT = 2


def daphne_flags(http_timeout: int) -> list[str]:
    """The Makefile's DAPHNE_FLAGS, with HTTP_TIMEOUT set to ``http_timeout``."""
    printed = subprocess.run(
        [
            "make",
            "-s",
            "--no-print-directory",
            "--eval",
            "print-daphne-flags: ; @echo $(DAPHNE_FLAGS)",
            "print-daphne-flags",
            f"HTTP_TIMEOUT={http_timeout}",
        ],
        cwd=servers.ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return shlex.split(printed)


def test_a_request_the_application_never_answers_gets_a_503_within_the_timeout(monkeypatch):
    monkeypatch.setattr(servers, "DAPHNE", [*servers.DAPHNE, *daphne_flags(TIMEOUT)])
    server = servers.ServerProcess(DJANGO_SETTINGS_MODULE="tests.never_settings")
    try:
        server.start()
        began = time.monotonic()
        with pytest.raises(urllib.error.HTTPError) as refused:
            # Without the flag daphne would wait for ever: this client's own timeout would end
            # the request, with no 503 (a busy machine may take a while past TIMEOUT).
            urllib.request.urlopen(server.url + "/test/never-answers/", timeout=TIMEOUT + 60)
        waited = time.monotonic() - began
    finally:
        server.close()
    assert refused.value.code == 503
    assert waited >= TIMEOUT  # not before the timeout: that request was waited for
