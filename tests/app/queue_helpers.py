"""Helpers for the "Play now" tests: joining the queue and waiting for the table."""

from __future__ import annotations

import json
import threading

from websockets.sync.client import connect


def play_now(client, game: str = "hike", **choices) -> dict:
    r = client.post("/api/queue", json={"game": game, **choices})
    assert r.status_code == 201, r.text
    return r.json()


def table_of(client, tries: int = 1000) -> str:
    """The game formed for ``client``: asked until there is one (each ask keeps the place)."""
    for _ in range(tries):
        r = client.get("/api/queue")
        assert r.status_code == 200, r.text
        if r.json()["game_id"] is not None:
            return r.json()["game_id"]
        threading.Event().wait(0.02)
    raise AssertionError("no table was formed")


def seats_of(live, client, game_id: str) -> list[dict]:
    return live.state(client, game_id)["view"]["table"]["seats"]


def home(live, client=None):
    """A home socket, the client's (or a visitor's)."""
    token = f"?token={client.token}" if client is not None else ""
    return connect(f"{live.ws_url}/ws/home{token}", open_timeout=10)


def until(ws, kind: str, check=lambda message: True) -> dict:
    """The next message of type ``kind`` that passes ``check``; others are passed over."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == kind and check(message):
            return message
