"""App instances as separate processes, so a test can kill one with SIGKILL as a crash would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.app.conftest import LiveServer, settings_for


class ProcessServer(LiveServer):
    """``python -m uvicorn app.main:app`` on an inherited listening socket, configured through
    the environment; the same helpers as the in-process ``LiveServer``."""

    def __init__(self, log: Path, database_url: str, **settings: Any):
        values = settings_for(database_url, **settings).model_dump()
        env = os.environ | {name: str(value) for name, value in values.items() if value is not None}
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.transport = httpx.HTTPTransport()
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--fd",
                str(self.sock.fileno()),
                "--log-level",
                "warning",
                "--ws",
                "websockets-sansio",
            ],
            env=env,
            pass_fds=[self.sock.fileno()],
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
        )

    def start(self) -> ProcessServer:
        with httpx.Client(base_url=self.url, timeout=1) as client:
            # Generous: with the suite's workers on a busy machine a start can take seconds.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                try:
                    if client.get("/api/games").status_code == 200:
                        return self
                except httpx.TransportError:
                    pass
                threading.Event().wait(0.05)
        self.stop()
        raise RuntimeError(f"the app process did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed, as a crashed machine."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        self.transport.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.sock.close()


@contextmanager
def spawned(log: Path, database_url: str, **settings: Any) -> Iterator[ProcessServer]:
    server = ProcessServer(log, database_url, **settings).start()
    try:
        yield server
    finally:
        server.stop()
