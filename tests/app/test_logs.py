"""Logs: one JSON object per line with LOG_FORMAT=json, each with the request's ids, and
never a token or a password, in either format."""

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
from uvicorn.logging import AccessFormatter
from websockets.sync.client import connect

from app.logs import Context, redact
from tests.app.conftest import ADMIN_TOKEN, settings_for


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def json_server(tmp_path, sqlite_template):
    """``campground serve`` with LOG_FORMAT=json: its base URL and a function that stops it
    and returns what it logged."""
    path = tmp_path / "campground.db"
    shutil.copy(sqlite_template, path)
    values = settings_for(f"sqlite+aiosqlite:///{path}", LOG_FORMAT="json").model_dump()
    env = os.environ | {k: str(v) for k, v in values.items() if v is not None}
    port = _free_port()
    out = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def stop() -> list[str]:
        if server.poll() is None:
            server.terminate()
            server.wait(60)
        out.close()
        return (tmp_path / "server.log").read_text().splitlines()

    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("\n".join(stop()))
        threading.Event().wait(0.1)
    yield base, stop
    stop()


def test_json_lines_carry_the_ids_and_no_secret(json_server):
    base, stop = json_server
    with httpx.Client(base_url=base) as http:
        ana = http.post("/api/players", json={"name": "Ana"}).json()
        bearer = {"Authorization": f"Bearer {ana['token']}"}
        lobby = http.post("/api/lobbies", json={"game": "hike", "seats": 2}, headers=bearer).json()
        # A person, not a bot: nothing moves between the state read and the move below.
        ben = http.post("/api/players", json={"name": "Ben"}).json()
        http.post(
            "/api/lobbies/join",
            json={"invite_code": lobby["invite_code"]},
            headers={"Authorization": f"Bearer {ben['token']}"},
        )
        game_id = http.post(f"/api/lobbies/{lobby['id']}/start", headers=bearer).json()["game_id"]
        with connect(
            f"ws://127.0.0.1:{base.rsplit(':', 1)[1]}/ws/games/{game_id}?token={ana['token']}",
            open_timeout=10,
        ) as ws:
            ws.recv(timeout=10)
        state = http.get(f"/api/games/{game_id}/state", headers=bearer).json()
        http.cookies.set("campground_token", ana["token"])
        r = http.post(
            f"/api/games/{game_id}/moves",
            headers={"X-Request-ID": "trace-1"},
            json={"move": {"type": "no such move"}, "expect_version": state["version"]},
        )
        assert r.status_code == 422 and r.headers["x-request-id"] == "trace-1"
        made = http.get("/api/games").headers["x-request-id"]
        http.get(f"/api/games?token={ana['token']}")
        http.get("/api/admin/games", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    lines = stop()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    text = "\n".join(lines)
    assert ana["token"] not in text and ADMIN_TOKEN not in text
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    move = next(r for r in records if r.get("request_id") == "trace-1")
    assert move["player_id"] == ana["id"] and move["game_id"] == game_id
    assert (move["method"], move["path"], move["status"]) == (
        "POST",
        f"/api/games/{game_id}/moves",
        422,
    )
    assert any(r.get("request_id") == made for r in records)
    socket_line = next(r for r in records if r.get("path") == f"/ws/games/{game_id}")
    assert socket_line["player_id"] == ana["id"] and socket_line["game_id"] == game_id


def _record(name: str, msg: str, args) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)


def test_text_lines_lose_their_secrets_too():
    token = "Abc_def-123456789"
    access = _record(
        "uvicorn.access",
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/ws/games/g?token={token}", "1.1", 101),
    )
    Context().filter(access)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(access)
    assert token not in line and "token=[redacted]" in line
    for message, args in [
        ("Authorization: Bearer %s", (token,)),
        ("offered %s", (f"campground, token.{token}",)),
        ("cookie %s", (f"campground_token={token}; other=1",)),
        ("body %s", (f'{{"name": "Ana", "password": "{token}"}}',)),
        ("form password=%s&name=Ana", (token,)),
        ("admin %s", ("the-admin-secret",)),
    ]:
        record = _record("app.x", message, args)
        Context(admin_token="the-admin-secret").filter(record)
        assert token not in record.getMessage() and "the-admin-secret" not in record.getMessage()


def test_a_traceback_loses_its_secrets():
    try:
        raise ValueError("bad token=Abc_def-123456789")
    except ValueError:
        record = logging.LogRecord(
            "app.x", logging.ERROR, __file__, 1, "failed", None, sys.exc_info()
        )
    Context().filter(record)
    assert "Abc_def-123456789" not in logging.Formatter().format(record)
    assert "token=[redacted]" in logging.Formatter().format(record)


def test_redact_keeps_what_is_not_secret():
    assert redact("GET /api/games/abc/state 200") == "GET /api/games/abc/state 200"
