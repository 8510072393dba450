"""Redis stopped or hung under two instances: moves still commit at once, the instance that
made a change tells its own sockets without Redis, and once Redis is back every socket on every
instance converges. Redis here is a private redis-server on a port of its own."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator

import pytest
import redis

from tests.app.sockets import Socket
from tests.app.test_metrics import scrape, value

pytestmark = pytest.mark.redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    def __init__(self, tmp_path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = tmp_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            message = "redis-server is not installed"
            if os.environ.get("REQUIRE_REDIS") == "1":
                pytest.fail(message)
            pytest.skip(message)
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(500):
            try:
                with redis.Redis.from_url(self.url, socket_connect_timeout=0.2) as client:
                    client.ping()
                return
            except redis.RedisError:
                threading.Event().wait(0.01)
        raise RuntimeError("the private redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def hang(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.kill()


@pytest.fixture
def private_redis(tmp_path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def instances(database_url, private_redis, serve):
    settings = {"REDIS_URL": private_redis.url, "REDIS_TIMEOUT": 0.5}
    with serve(database_url, **settings) as a, serve(database_url, **settings) as b:
        yield a, b


def move(mover: Socket) -> int:
    """``mover`` makes a legal move; its ack comes back (Redis plays no part in that)."""
    mover.send(
        {
            "type": "move",
            "move": mover.view["legal_moves"][0]["move"],
            "expect_version": mover.version,
            "ref": "m",
        }
    )
    while True:
        message = mover.recv()
        if message["type"] == "ack":
            return message["version"]
        if message["type"] == "patch":
            mover.apply(message)
        else:
            # A resync after Redis came back.
            assert message["type"] == "state", message
            mover.version, mover.view = message["version"], message["view"]


def converge(sock: Socket, version: int) -> None:
    """Read until ``sock`` is at ``version``, by patches or by a whole state (a resync)."""
    while sock.version < version:
        message = sock.recv()
        if message["type"] == "patch":
            sock.apply(message)
        elif message["type"] == "state":
            sock.version, sock.view = message["version"], message["view"]


def ready(server) -> tuple[int, dict]:
    r = server.client().get("/health/ready")
    return r.status_code, r.json()


def until_ready_says(server, redis: str) -> tuple[int, dict]:
    """Ready's answer once it reports Redis as ``redis``: it reads the last health check,
    taken every second."""
    for _ in range(400):
        answer = ready(server)
        if answer[1]["redis"] == redis:
            return answer
        threading.Event().wait(0.025)
    raise AssertionError(f"ready never said redis {redis}: {answer}")


def redis_up(server) -> float:
    return value(scrape(server.client()), "campground_redis_up")


def play_through_a_fault(instances, fault, recover):
    a, b = instances
    ana, ben = a.guest("Ana"), a.guest("Ben")
    game_id = a.start_game(ana, ben)
    ana_a, ben_a = Socket(a, game_id, ana.token), Socket(a, game_id, ben.token)
    ben_b = Socket(b, game_id, ben.token)
    try:
        fault()
        mover = ana_a if 0 in ana_a.view["to_act"] else ben_a
        version = move(mover)
        # The instance that made the move tells its own sockets without Redis.
        for s in (ana_a, ben_a):
            s.until_version(version)
        # Still ready: this instance serves its own sockets, and says Redis is away.
        assert until_ready_says(a, "unavailable") == (
            200,
            {"database": "ok", "redis": "unavailable"},
        )
        assert redis_up(a) == 0
        recover()
        # Once Redis is back, the socket on the other instance converges.
        converge(ben_b, version)
        assert ben_b.view == ben_a.view
        assert until_ready_says(a, "ok") == (200, {"database": "ok", "redis": "ok"})
        assert redis_up(a) == 1
        # And the bus carries changes again.
        mover = ana_a if 0 in ana_a.view["to_act"] else ben_a
        version = move(mover)
        for s in (ana_a, ben_a, ben_b):
            converge(s, version)
        assert ben_b.view == ben_a.view
    finally:
        for s in (ana_a, ben_a, ben_b):
            s.close()


def test_a_hung_redis_holds_no_move_up(instances, private_redis):
    play_through_a_fault(instances, private_redis.hang, private_redis.resume)


def test_a_stopped_redis_holds_no_move_up(instances, private_redis):
    play_through_a_fault(instances, private_redis.kill, private_redis.start)


def test_an_idle_instance_sees_redis_go_and_stays_ready(database_url, private_redis, serve):
    """Nobody plays on it, so nothing is published: its health checks alone notice."""
    with serve(database_url, REDIS_URL=private_redis.url, REDIS_TIMEOUT=0.5) as idle:
        assert until_ready_says(idle, "ok") == (200, {"database": "ok", "redis": "ok"})
        private_redis.kill()
        assert until_ready_says(idle, "unavailable") == (
            200,
            {"database": "ok", "redis": "unavailable"},
        )
        assert redis_up(idle) == 0
        assert idle.client().get("/health/live").status_code == 200
        private_redis.start()
        assert until_ready_says(idle, "ok")[0] == 200
        assert redis_up(idle) == 1
