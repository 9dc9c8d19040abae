"""nginx from the repository's site file (``deploy/nginx/cardroom.conf``) in front of server
processes on this machine, for the proxied browser tests and ``loadtest --rolling-restart``:
the site rendered for a local port without TLS, nginx running as the current user with its
pid, logs and temporary files in a directory of its own."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx" / "cardroom.conf"
#: Long enough for a busy machine: the wait ends as soon as the site answers.
START_TIMEOUT = 60.0
NGINX = os.environ.get("NGINX_PATH") or shutil.which("nginx") or "/usr/sbin/nginx"
MIME_TYPES = Path("/etc/nginx/mime.types")

UPSTREAM = re.compile(r"^(upstream \w+ \{\n)(.*?)^\}", re.MULTILINE | re.DOTALL)
UPSTREAM_SERVER = re.compile(r"^( *)server 127\.0\.0\.1:\d+ ([^;]*);\n", re.MULTILINE)
REDIRECT_SERVER = re.compile(r"server \{[^{}]*return 301[^{}]*\}\n+")
TLS_LINE = re.compile(r"^ *(listen \[::\]:443 ssl.*|ssl_\w+ .*)\n", re.MULTILINE)


def _replace(pattern: re.Pattern | str, new: Any, text: str, count: int = 0) -> str:
    """``text`` with ``pattern`` replaced; the site file must still hold it."""
    if isinstance(pattern, str):
        pattern = re.compile(re.escape(pattern), re.MULTILINE)
    changed, found = pattern.subn(new, text, count)
    if not found:
        raise ValueError(f"{SITE.name} no longer has {pattern.pattern!r}")
    return changed


def render_site(port: int, upstreams: list[int], static_root: Path) -> str:
    """The site for http://127.0.0.1:``port``, proxying to 127.0.0.1:``upstreams``."""
    text = SITE.read_text()

    def servers(block: re.Match) -> str:
        """An upstream block with its servers' lines for ``upstreams``, same parameters."""
        first = UPSTREAM_SERVER.search(block.group(2))
        if first is None:
            raise ValueError(f"{SITE.name}: {block.group(1).strip()} lists no server")
        indent, parameters = first.group(1), first.group(2)
        lines = "".join(f"{indent}server 127.0.0.1:{p} {parameters};\n" for p in upstreams)
        return block.group(1) + lines + UPSTREAM_SERVER.sub("", block.group(2)) + "}"

    text = _replace(UPSTREAM, servers, text)
    text = _replace(REDIRECT_SERVER, "", text)
    text = _replace(TLS_LINE, "", text)
    text = _replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};", text)
    return _replace("/srv/cardroom/staticfiles/", f"{static_root}/", text)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Proxy:
    """nginx on a free local port with the rendered site in front of ``upstreams``."""

    def __init__(self, upstreams: list[int], static_root: Path, connections: int = 1024) -> None:
        self.port = free_port()
        self.prefix = Path(tempfile.mkdtemp(prefix="nginx-"))
        site = self.prefix / "cardroom.conf"
        site.write_text(render_site(self.port, upstreams, static_root))
        temp = {
            name: self.prefix / name
            for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        }
        for path in temp.values():
            path.mkdir()
        # As root, nginx's workers would otherwise switch to an account that cannot read here.
        user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {self.prefix}/nginx.pid;\n"
            f"error_log {self.prefix}/error.log warn;\n"
            f"events {{ worker_connections {connections}; }}\n"
            "http {\n"
            f"    include {MIME_TYPES};\n"
            "    default_type application/octet-stream;\n"
            "    access_log off;\n"
            + "".join(f"    {name}_temp_path {path};\n" for name, path in temp.items())
            + f"    include {site};\n"
            "}\n"
        )
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start nginx and wait until the site answers through it."""
        self.process = subprocess.Popen(
            [
                NGINX,
                "-p",
                str(self.prefix),
                "-e",
                str(self.prefix / "error.log"),
                "-c",
                str(self.conf),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.05)  # polling the port inside a bounded wait
        raise RuntimeError(f"nginx did not answer within {START_TIMEOUT}s: {self.log()}")

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # nginx's fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.prefix, ignore_errors=True)


def nginx_missing() -> str | None:
    """Why nginx cannot run here, or None."""
    if not Path(NGINX).exists() or not MIME_TYPES.exists():
        return f"nginx not found at {NGINX} (install Debian's nginx package or set NGINX_PATH)"
    return None
