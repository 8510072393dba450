"""Work per change is done once, however many sockets watch: one view per seat (spectators
share one), the same bytes to every socket that shares it, no reload of a move this instance
committed, one lobby load per change; and caps on sockets per game and per instance."""

from __future__ import annotations

import contextlib
import json
import threading
from collections import Counter

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.services import lobby_rows
from app.services.games import Snapshot
from tests.app.conftest import running, settings_for
from tests.app.sockets import Socket, next_lobby

PER_GAME = 12


@pytest.fixture(scope="module")
def live(database_url):
    with running(settings_for(database_url, WS_MAX_PER_GAME=PER_GAME)) as server:
        yield server


@pytest.fixture
def counted(monkeypatch):
    """Counts of views built (by seat) and of lobby loads, made by the server meanwhile."""
    counts: Counter = Counter()
    view = Snapshot.live_view

    def counting_view(self, seat):
        counts[("view", self.version, seat)] += 1
        return view(self, seat)

    def counting(load):
        async def counting_load(*args, **kwargs):
            counts["lobby load"] += 1
            return await load(*args, **kwargs)

        return counting_load

    monkeypatch.setattr(Snapshot, "live_view", counting_view)
    # Every read of a lobby: through the session, or on asyncpg to change it (PostgreSQL).
    for name in ("_load", "_locked"):
        monkeypatch.setattr(lobby_rows, name, counting(getattr(lobby_rows, name)))
    return counts


def test_each_view_and_patch_is_built_once_per_version(live, counted, monkeypatch):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    seats = [Socket(live, game_id, ana.token) for _ in range(3)] + [
        Socket(live, game_id, ben.token)
    ]
    spectators = [Socket(live, game_id) for _ in range(6)]
    loads = Counter()
    snapshot = live.app.state.ctx.snapshot

    async def counting_snapshot(session, gid):
        loads[gid] += 1
        return await snapshot(session, gid)

    monkeypatch.setattr(live.app.state.ctx, "snapshot", counting_snapshot)
    try:
        mover = seats[0] if 0 in seats[0].view["to_act"] else seats[3]
        move = mover.view["legal_moves"][0]["move"]
        mover.send({"type": "move", "move": move, "expect_version": mover.version})
        raw: dict[int, list[str]] = {}
        for i, s in enumerate(seats + spectators):
            while True:
                text = s.ws.recv(timeout=10)
                message = json.loads(text)
                if message["type"] == "patch":
                    s.apply(message)
                    raw[i] = text
                    break
        assert all(s.version == 1 for s in seats + spectators)
        # Three distinct views at version 1: seat 0, seat 1, spectators.
        built = {k: n for k, n in counted.items() if k[0] == "view" and k[1] == 1}
        assert built == {("view", 1, 0): 1, ("view", 1, 1): 1, ("view", 1, None): 1}
        # The same bytes for every socket that shares a view.
        assert len({raw[i] for i in range(3)}) == 1
        assert len({raw[i] for i in range(4, 10)}) == 1
        # This instance committed the move: its sockets got it without loading the game again.
        assert loads[game_id] == 0
    finally:
        for s in seats + spectators:
            s.close()


def test_one_lobby_load_per_change_however_many_sockets(live, counted):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=2, private=False)
    url = f"{live.ws_url}/ws/lobbies/{lobby['id']}"
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(url)) for _ in range(10)]
        sockets.append(stack.enter_context(connect(f"{url}?token={ana.token}")))
        for ws in sockets:
            next_lobby(ws)
        before = counted["lobby load"]
        r = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200
        seen = [next_lobby(ws) for ws in sockets]
        assert all(s["seats"][1]["player"]["id"] == ben.id for s in seen)
        assert seen[-1]["invite_code"] == lobby["invite_code"]
        assert all(s["invite_code"] is None for s in seen[:-1])
        # The route's own (the change, rendered as its answer), and one for all the sockets.
        assert counted["lobby load"] - before == 2


def test_sockets_beyond_the_cap_on_one_game_are_refused(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    sockets = [Socket(live, game_id) for _ in range(PER_GAME)]
    try:
        with connect(f"{live.ws_url}/ws/games/{game_id}") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1013
        assert "too many sockets" in closed.value.rcvd.reason
        # Another game is not affected, and a seat frees up when a socket leaves.
        other = Socket(live, live.start_game(live.guest("Cy"), live.guest("Di")))
        other.close()
        sockets.pop().close()
        for _ in range(200):
            if live.app.state.ctx.watchers.count(game_id) < PER_GAME:
                break
            threading.Event().wait(0.01)
        sockets.append(Socket(live, game_id))
    finally:
        for s in sockets:
            s.close()


def test_sockets_beyond_the_cap_on_the_instance_are_refused(database_url):
    with running(settings_for(database_url, WS_MAX_PER_INSTANCE=2)) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, live.guest("Ben"))
        lobby = live.lobby(ana, private=False)
        first = Socket(live, game_id)
        with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}") as ws:
            next_lobby(ws)
            for path in (f"/ws/games/{game_id}", f"/ws/lobbies/{lobby['id']}"):
                with connect(f"{live.ws_url}{path}") as refused:
                    with pytest.raises(ConnectionClosed) as closed:
                        refused.recv(timeout=10)
                assert closed.value.rcvd.code == 1013
        first.close()
