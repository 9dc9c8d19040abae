"""The deployment files in ``deploy/`` agree with the project: the servers run with the
Makefile's timeouts and stop gracefully, bot workers think in the idle class, the timer runs
the due events, and the nginx site renders for a local run (played through in
``tests/browser/test_proxy_browser.py``)."""

from __future__ import annotations

import re
import threading
import urllib.request
from collections.abc import Iterator
from configparser import ConfigParser
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cardroom.nginx import SITE, Proxy, nginx_missing, render_site

ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "deploy" / "systemd"


def unit(name: str) -> ConfigParser:
    parser = ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string((SYSTEMD / name).read_text().replace("\\\n", " "))
    return parser


def makefile_daphne_flags() -> list[str]:
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    flags = re.search(r"^DAPHNE_FLAGS \?= (.*)$", text, re.MULTILINE)
    timeout = re.search(r"^HTTP_TIMEOUT \?= (\d+)$", text, re.MULTILINE)
    assert flags and timeout
    return flags.group(1).replace("$(HTTP_TIMEOUT)", timeout.group(1)).split()


def test_the_servers_run_the_graceful_daphne_with_the_makefiles_timeouts():
    service = unit("cardroom-web@.service")["Service"]
    command = service["ExecStart"].split()
    assert command[1:3] == ["-m", "cardroom.server"]
    flags = makefile_daphne_flags()
    assert " ".join(flags) in " ".join(command)
    assert command[-3:] == ["-p", "%i", "cardroom.asgi:application"]
    # systemd waits longer than the server's own drain before it kills it.
    close = int(flags[flags.index("--application-close-timeout") + 1])
    assert service["KillSignal"] == "SIGTERM" and int(service["TimeoutStopSec"]) > close
    assert "/healthz" in service["ExecStartPost"]


def test_bot_workers_think_in_the_idle_class():
    service = unit("cardroom-bots@.service")["Service"]
    assert service["ExecStart"].endswith("manage.py runworker bot-moves")
    assert service["CPUSchedulingPolicy"] == "idle"


def test_the_timer_starts_due_events_every_minute():
    assert unit("cardroom-due-events.timer")["Timer"]["OnCalendar"] == "minutely"
    service = unit("cardroom-due-events.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["ExecStart"].endswith("manage.py start_due_events")


def test_the_nginx_site_renders_for_a_local_port_without_tls(tmp_path):
    text = render_site(8555, [8501, 8502], tmp_path)
    assert "ssl" not in text and "443" not in text and "return 301" not in text
    assert "listen 127.0.0.1:8555;" in text
    upstreams = re.findall(r"upstream (\w+) \{(.*?)\}", text, re.DOTALL)
    assert [name for name, _ in upstreams] == ["cardroom", "cardroom_sockets"]
    for _, block in upstreams:
        assert re.findall(r"server 127\.0\.0\.1:(\d+)", block) == ["8501", "8502"]
    assert f"alias {tmp_path}/;" in text


class PortHandler(BaseHTTPRequestHandler):
    """Answers every GET with the port it listens on."""

    def do_GET(self) -> None:
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def backends(count: int) -> Iterator[list[int]]:
    """``count`` servers answering with their port, on free local ports."""
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), PortHandler) for _ in range(count)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield [server.server_address[1] for server in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def answered_by(proxy: Proxy, path: str) -> str:
    request = urllib.request.Request(
        proxy.url + path, headers={"Upgrade": "websocket", "Connection": "Upgrade"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.read().decode()


@pytest.mark.skipif(nginx_missing() is not None, reason="nginx is not installed")
def test_a_tables_sockets_all_reach_one_server_and_the_tables_spread(tmp_path):
    with backends(2) as ports:
        proxy = Proxy(ports, tmp_path)
        proxy.start()
        try:
            codes = [f"table{n}" for n in range(40)]
            homes = {}
            for code in codes:
                # Each page's socket, and each reconnection with the page's token.
                seen = {answered_by(proxy, f"/ws/table/{code}/?token={n}") for n in range(4)}
                assert len(seen) == 1, f"{code}'s sockets reached {seen}"
                homes[code] = seen.pop()
            assert set(homes.values()) == {str(port) for port in ports}
            # Sockets of no table (the lobby, notices) go anywhere.
            assert len({answered_by(proxy, "/ws/lobby/") for _ in range(40)}) == 2
        finally:
            proxy.close()


def test_the_site_passes_what_trusted_proxies_reads_and_keeps_metrics_private():
    site = SITE.read_text()
    sockets = site[site.index("location /ws/") :]
    sockets = sockets[: sockets.index("}")]
    # A location with proxy headers of its own inherits none of the server's.
    for text in (site, sockets):
        assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text
        assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
    assert "proxy_set_header Upgrade $http_upgrade;" in sockets
    assert re.search(r"location /metrics \{\s*deny all;\s*\}", site)
    for bound in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert re.search(rf"^\s*{bound} \d+s;", site, re.MULTILINE)
