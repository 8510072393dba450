"""Real parts for the notices' tests: a push service that checks the VAPID JWT and decrypts
each payload with the subscription's own keys (``http_ece``), and an SMTP server
(``aiosmtpd``) that keeps every mail it is sent."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import socket
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, what: str, tries: int = 1500) -> Any:
    """Poll ``predicate`` until it answers something true (the worker sends in the background)."""
    for _ in range(tries):
        found = predicate()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


class Device:
    """A browser's push subscription: its own key pair and auth secret."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self, kinds: list[str]) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64(public), "auth": b64(self.auth)},
            "kinds": kinds,
        }


class PushService:
    """Stands in for a push service on 127.0.0.1: each device has a path; a push is accepted
    only with a valid VAPID JWT for this service's origin, and its payload decrypted with the
    device's keys. ``answer[path]`` sets the status (201, 410, 500…); ``gate`` holds the answers.
    ``keep_alive``: HTTP/1.1, a connection kept for the next push, as real push services do."""

    def __init__(self, keep_alive: bool = False) -> None:
        self.devices: dict[str, Device] = {}
        self.received: list[tuple[str, dict]] = []
        self.refused: list[str] = []
        self.answer: dict[str, int] = {}
        # Closed: every push waits here (a push service that does not answer) until it opens.
        self.gate = threading.Event()
        self.gate.set()
        # Seconds every push takes to be answered: a slow push service.
        self.delay = 0.0
        self.waiting = 0
        self.vapid_keys: set[str] = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                service.waiting += 1
                service.gate.wait(60)
                time.sleep(service.delay)
                service.waiting -= 1
                self.send_response(service.receive(self.path, self.headers, body))
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # a worker sends a whole batch at once
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def device(self) -> Device:
        path = f"/push/{len(self.devices)}-{os.urandom(4).hex()}"
        device = Device(self.origin + path)
        self.devices[path] = device
        return device

    def receive(self, path: str, headers: Any, body: bytes) -> int:
        device = self.devices.get(path)
        auth = headers.get("Authorization") or ""
        try:
            assert device is not None, "unknown device"
            assert Vapid02.verify(auth), "bad VAPID signature"
            claims = json.loads(base64.urlsafe_b64decode(auth.split("t=")[1].split(".")[1] + "=="))
            assert claims["aud"] == self.origin and claims["exp"] > time.time()
            assert claims["sub"].startswith("mailto:")
            assert headers.get("Content-Encoding") == "aes128gcm"
            assert int(headers["TTL"]) > 0
            self.vapid_keys.add(auth.split("k=")[1])
            payload = json.loads(
                http_ece.decrypt(
                    body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
                )
            )
        except (AssertionError, ValueError, KeyError, IndexError) as exc:
            line = traceback.extract_tb(exc.__traceback__)[-1].lineno
            self.refused.append(f"{path}: {exc!r} at line {line}")
            return 400
        status = self.answer.get(path, 201)
        if status < 300:
            self.received.append((path, payload))
        return status

    def to(self, device: Device) -> list[dict]:
        path = device.endpoint.removeprefix(self.origin)
        return [p for d, p in self.received if d == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Inbox:
    def __init__(self) -> None:
        self.mails: list[tuple[list[str], email.message.EmailMessage]] = []
        self.peers: list[Any] = []  # each mail's connection (the client's address and port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.mails.append((list(envelope.rcpt_tos), msg))
        self.peers.append(session.peer)
        return "250 OK"


class MailServer:
    """An SMTP server on 127.0.0.1 (``aiosmtpd``): ``to(address)`` lists the mails it got."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.inbox = _Inbox()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        self.url = f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for rcpt, m in self.inbox.mails if address in rcpt]

    def close(self) -> None:
        self.controller.stop()


def parts(msg: email.message.EmailMessage) -> tuple[str, str]:
    """A mail's plain text and HTML."""
    return (msg.get_body(("plain",)).get_content(), msg.get_body(("html",)).get_content())
