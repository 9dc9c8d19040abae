"""A push service on 127.0.0.1 that speaks the real protocol: it checks each message's VAPID
signature (RFC 8292) and decrypts its payload (RFC 8291, aes128gcm) with the private key and
authentication secret of the subscription it was sent to, as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One browser's subscription: its key pair and authentication secret."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def json(self) -> dict:
        """The subscription as ``PushSubscription.toJSON()`` gives it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}}


@dataclass
class Received:
    """A message the service took: to which device, its headers and its decrypted payload."""

    device: str
    headers: dict[str, str]
    payload: dict


def check_vapid(header: str, audience: str) -> dict:
    """The claims of a VAPID ``Authorization`` header whose signature holds for its key."""
    assert header.startswith("vapid "), header
    parts = dict(part.strip().split("=", 1) for part in header[len("vapid ") :].split(","))
    token, public = parts["t"], unb64(parts["k"])
    signed, signature = token.rsplit(".", 1)
    raw = unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(signed.split(".")[1]))
    assert claims["aud"] == audience and claims["sub"], claims
    return claims


class PushService:
    """The local push service: ``device(name)`` makes a subscription to it; ``answers`` sets
    the status a device's endpoint answers with (201 unless told)."""

    def __init__(self) -> None:
        service = self
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self.answers: dict[str, int] = {}
        self.lock = threading.Condition()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = service.answers.get(name, 201)
                if status == 201:
                    device = service.devices[name]
                    check_vapid(self.headers["Authorization"], service.url)
                    plain = http_ece.decrypt(
                        body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
                    )
                    assert self.headers["Content-Encoding"] == "aes128gcm"
                    with service.lock:
                        service.lock.notify_all()
                        service.received.append(
                            Received(
                                name,
                                {k.lower(): v for k, v in self.headers.items()},
                                json.loads(plain),
                            )
                        )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def device(self, name: str) -> Device:
        device = Device(name, f"{self.url}/push/{name}")
        self.devices[name] = device
        return device

    def to(self, name: str) -> list[dict]:
        """The payloads ``name`` received, in order."""
        with self.lock:
            return [message.payload for message in self.received if message.device == name]

    def wait_for(self, name: str, count: int = 1, timeout: float = 30.0) -> list[dict]:
        """The payloads ``name`` received, once there are ``count`` (a server process sends
        them from its background thread)."""
        with self.lock:
            arrived = self.lock.wait_for(
                lambda: sum(m.device == name for m in self.received) >= count, timeout
            )
        assert arrived, f"{name} received {self.to(name)}"
        return self.to(name)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
