"""Real server processes over the test database, and websocket clients that reconnect.

The fault and multi-process tests start ``daphne`` as a subprocess (so it can be SIGKILLed and
started again), pointed at the test database pytest-django created, and talk to it with the
``websockets`` library, as a browser would: session cookie, Origin header, reconnection with
backoff after the connection drops.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import websockets
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
#: Long enough for a busy machine: the wait ends as soon as the server answers.
START_TIMEOUT = 60.0
#: daphne as production runs it: stopping gracefully on SIGTERM (``cardroom.server``).
DAPHNE = [sys.executable, "-m", "cardroom.server", "-b", "127.0.0.1"]
VERSION = re.compile(r'name="version" value="(\d+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_database_url() -> str:
    """A DATABASE_URL naming the test database this pytest process uses."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class ServerProcess:
    """``daphne`` serving Cardroom on ``port`` over the test database, in a subprocess."""

    def __init__(self, port: int | None = None, **env: str) -> None:
        #: Whether the port was picked here: another process (a test running beside this one)
        #: may take a free port before daphne binds it, and then another is picked.
        self.any_port = port is None
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "cardroom.test_settings",
            "DATABASE_URL": test_database_url(),
            "LOG_LEVEL": "WARNING",
            **env,
        }
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="daphne-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, retries: int = 3) -> float:
        """Start the process and wait until it answers; returns the seconds that took."""
        began = time.monotonic()
        self.process = subprocess.Popen(
            [*DAPHNE, "-p", str(self.port), "cardroom.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = began + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.output()
                if self.any_port and "Address already in use" in output and retries:
                    self.log.seek(0)
                    self.log.truncate()
                    self.port = free_port()
                    return self.start(retries - 1)
                raise RuntimeError(f"daphne exited: {output}")
            try:
                with urllib.request.urlopen(self.url + "/rules/belote/", timeout=2) as reply:
                    if reply.status == 200:
                        return time.monotonic() - began
            except OSError:
                pass
            time.sleep(0.05)  # polling the port inside a bounded wait
        raise RuntimeError(f"daphne did not answer within {START_TIMEOUT}s: {self.output()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, sockets just drop (a crash, an OOM kill)."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self) -> None:
        """SIGTERM, as systemd stops a server: it closes its sockets as a restart and exits."""
        assert self.process is not None
        self.process.terminate()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def close(self) -> None:
        self.stop()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)


class Client:
    """One browser tab's websocket to a table: reconnects on its own, remembers what it saw.

    Like the htmx ws extension, it reconnects after a drop with a growing (capped) delay, and
    every (re)connect starts with the server's full view of the table.
    """

    def __init__(self, url: str, cookie: str, *, reconnect: bool = True) -> None:
        self.url = url.replace("http://", "ws://")
        self.origin = url.split("/ws/")[0]
        self.cookie = cookie
        self.reconnect = reconnect
        self.frames: list[str] = []
        self.version = -1
        self.connects = 0
        self.full_frames = 0
        self.closed_codes: list[int | None] = []
        self.socket: websockets.ClientConnection | None = None
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        delay = 0.05
        while True:
            try:
                async with websockets.connect(
                    self.url,
                    additional_headers={"Cookie": self.cookie},
                    origin=websockets.Origin(self.origin),
                    open_timeout=5,
                ) as ws:
                    self.socket = ws
                    self.connects += 1
                    self._notify()
                    delay = 0.05
                    async for message in ws:
                        self._receive(str(message))
                    self.closed_codes.append(ws.close_code)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            self.socket = None
            self._notify()
            if not self.reconnect:
                return
            await asyncio.sleep(delay)  # reconnection backoff, as the browser's
            delay = min(delay * 2, 1.0)

    def _receive(self, frame: str) -> None:
        self.frames.append(frame)
        if 'id="connection"' in frame:
            self.full_frames += 1
        versions = VERSION.findall(frame)
        if versions:
            self.version = int(versions[-1])
        self._notify()

    def _notify(self) -> None:
        self._changed.set()

    async def until(self, condition: Callable[[], bool], timeout: float = 30.0) -> None:
        """Wait until ``condition()`` holds (checked after every frame or connection change)."""
        async with asyncio.timeout(timeout):
            while True:
                self._changed.clear()
                if condition():
                    return
                await self._changed.wait()

    async def send(self, text: str) -> None:
        await self.until(lambda: self.socket is not None)
        assert self.socket is not None
        await self.socket.send(text)

    async def close(self) -> None:
        self.reconnect = False
        if self.socket is not None:
            await self.socket.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
