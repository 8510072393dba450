"""A small database pool under a burst of requests and under sockets that never read.

No request or socket may need two pooled connections at once, and none may hold one while it
waits on the network: then a pool of two serves any number of concurrent requests (they only
queue), and a socket whose client stops reading is dropped without costing anyone else.
"""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.app.conftest import running, settings_for
from tests.app.sockets import Socket

# Short enough that a request starved of a connection fails within the test, not after 30 s.
SMALL_POOL = {"DB_POOL_SIZE": 2, "DB_POOL_OVERFLOW": 0, "DB_POOL_TIMEOUT": 5}
BURST = 30


@pytest.fixture(scope="module")
def small(database_url):
    # Socket messages are not rate-limited here (a socket's own rate, nor the address's share
    # for sockets without a token): the sockets that never read must fill their buffers with
    # whole states, not with "rate_limited" errors.
    unlimited = "100000000/60"
    settings = settings_for(
        database_url,
        WS_SEND_TIMEOUT=1,
        RATE_MOVES=unlimited,
        RATE_MOVES_PER_ADDRESS=unlimited,
        **SMALL_POOL,
    )
    with running(settings) as live:
        yield live


def in_parallel(calls):
    """Run every call at the same moment; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def statuses(responses):
    return sorted({r.status_code for r in responses})


def test_a_burst_of_lobbies_joins_and_moves_on_a_small_pool(small):
    hosts = in_parallel([lambda i=i: small.guest(f"Host {i}") for i in range(BURST // 2)])
    guests = in_parallel([lambda i=i: small.guest(f"Guest {i}") for i in range(BURST // 2)])
    created = in_parallel(
        [lambda h=h: h.post("/api/lobbies", json={"game": "hike", "seats": 2}) for h in hosts]
    )
    assert statuses(created) == [201]
    lobbies = [r.json() for r in created]
    joined = in_parallel(
        [
            lambda g=g, lobby=lobby: g.post(
                "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}
            )
            for g, lobby in zip(guests, lobbies, strict=True)
        ]
    )
    assert statuses(joined) == [200]
    started = in_parallel(
        [
            lambda h=h, lobby=lobby: h.post(f"/api/lobbies/{lobby['id']}/start")
            for h, lobby in zip(hosts, lobbies, strict=True)
        ]
    )
    assert statuses(started) == [201]
    games = [r.json()["game_id"] for r in started]

    def first_move(game_id, host, guest):
        state = small.state(host, game_id)
        mover = host if 0 in state["view"]["to_act"] else guest
        view = small.state(mover, game_id)["view"]
        move = view["legal_moves"][0]["move"]
        return mover.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
        )

    moved = in_parallel(
        [
            lambda g=g, h=h, u=u: first_move(g, h, u)
            for g, h, u in zip(games, hosts, guests, strict=True)
        ]
    )
    assert statuses(moved) == [200]


class Stalled:
    """A game socket whose client keeps asking for the whole state and never reads what comes
    back; its receive buffer is as small as the system allows."""

    def __init__(self, live, path: str):
        host, port = live.url.removeprefix("http://").split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        payload, mask = b'{"type":"sync"}', os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.frame = bytes([0x81, 0x80 | len(payload)]) + mask + masked
        self.sock.setblocking(False)

    def sync(self) -> None:
        """Ask for the whole state; once the server stops reading, asking fails quietly."""
        with contextlib.suppress(OSError):
            self.sock.send(self.frame)

    def close(self) -> None:
        self.sock.close()


def test_sockets_that_never_read_cost_nobody_else_anything(small):
    ana, ben = small.guest("Ana"), small.guest("Ben")
    game_id = small.start_game(ana, ben)
    watcher = Socket(small, game_id, ana.token)
    # More sockets than the pool has connections (and than the default pool has), each asking
    # for more states than loopback buffers hold.
    stalled = [Stalled(small, f"/ws/games/{game_id}") for _ in range(16)]
    ctx = small.app.state.ctx
    try:
        # Asked again and again, each stalls once loopback buffers are full, and is dropped
        # once a message has waited WS_SEND_TIMEOUT; the reading socket stays.
        deadline = time.monotonic() + 120
        while ctx.watchers.count(game_id) != 1:
            left = ctx.watchers.count(game_id) - 1
            assert time.monotonic() < deadline, f"{left} sockets that never read were kept"
            for s in stalled:
                s.sync()
            threading.Event().wait(0.001)
        for _ in range(5):
            assert small.state(ana, game_id)["version"] == watcher.version
        other = small.start_game(small.guest("Cy"), small.guest("Di"))
        assert small.state(ana, other)["version"] == 0
        mover = ana if 0 in watcher.view["to_act"] else ben
        view = small.state(mover, game_id)["view"]
        r = mover.post(
            f"/api/games/{game_id}/moves",
            json={"move": view["legal_moves"][0]["move"], "expect_version": watcher.version},
        )
        assert r.status_code == 200, r.text
        watcher.until_version(watcher.version + 1)
        assert ctx.watchers.count(game_id) == 1
    finally:
        for s in stalled:
            s.close()
        watcher.close()
