"""A hub whose last socket left is freed by reference counting alone: with the cyclic collector
off, no game or lobby hub (with its game state and cached views) and no socket's connection
stays behind."""

from __future__ import annotations

import gc
import threading
import time

import pytest
from websockets.sync.client import connect

import app.collector
from app.hubs import GameHub, LobbyHub
from app.sockets import Connection, LobbyConnection
from tests.app.conftest import running, settings_for
from tests.app.sockets import Socket, next_lobby


KINDS = (GameHub, LobbyHub, Connection, LobbyConnection)


def alive() -> list:
    # type(), not isinstance: a dead weak proxy among the objects cannot answer the latter.
    return [o for o in gc.get_objects() if type(o) in KINDS]


def held_by(objects: list) -> list[str]:
    """What keeps each object alive, for the failure message."""
    return [
        f"{type(o).__name__} held by {[type(r).__name__ for r in gc.get_referrers(o)]}"
        for o in objects
    ]


@pytest.fixture
def live(sqlite_template, tmp_path, monkeypatch):
    """A server whose collector never runs while the test does (CPython's is off too)."""
    monkeypatch.setattr(app.collector, "YOUNG_EVERY", 3600)
    path = tmp_path / "campground.db"
    path.write_bytes(open(sqlite_template, "rb").read())
    with running(settings_for(f"sqlite+aiosqlite:///{path}", BOT_DELAY=3600)) as server:
        yield server


def test_hubs_of_games_and_lobbies_nobody_watches_are_freed_without_the_collector(live):
    ana = live.guest("Ana")
    # 20 tables opened and closed 5 times: 100 game hubs, each new (as many as 100 games
    # would make), at a fifth of the cost of setting 100 games up.
    games = [live.start_game(ana, bots=("random",)) for _ in range(20)]
    lobby = live.lobby(ana)
    watchers = live.app.state.ctx.watchers
    assert not gc.isenabled()
    before = len(alive())
    for _ in range(5):
        for game_id in games:
            socket = Socket(live, game_id, token=ana.token)
            socket.send({"type": "sync"})
            assert socket.next()["type"] == "state"
            socket.close()
        with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
            next_lobby(ws)
    # 105 hubs opened and closed; each goes once its socket has left and its task ended (a
    # busy machine may take seconds to get there). Each look walks every object in the
    # process, so they are spaced out.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not watchers._games and not watchers._lobbies and len(alive()) <= before:
            break
        threading.Event().wait(0.2)
    assert not watchers._games and not watchers._lobbies
    assert not gc.isenabled()
    left = alive()
    assert len(left) == before == 0, held_by(left)
