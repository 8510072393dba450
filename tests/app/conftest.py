"""Fixtures for the server tests: a real uvicorn server on a free port, on SQLite and on a
real PostgreSQL (skipped when unreachable, unless REQUIRE_POSTGRES=1), and a real Redis for
the bus (skipped when unreachable, unless REQUIRE_REDIS=1)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import os
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import redis
import schemathesis
import uvicorn
from argon2 import PasswordHasher
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.guard import server_options
from app.main import create_app
from app.migrate import upgrade
from app.services import passwords
from engine.core import IllegalMove, play
from engine.registry import get_game

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ADMIN_TOKEN = "admin-secret-for-tests"
TABLES = [
    "queue_entries",
    "notices",
    "push_subscriptions",
    "mail_addresses",
    "mails_sent",
    "reminders",
    "admin_actions",
    "chat_mutes",
    "rating_changes",
    "ratings",
    "device_codes",
    "player_sessions",
    "chat_messages",
    "log_entries",
    "moves",
    "seats",
    "replaced_invite_codes",
    "lobbies",
    "games",
    "players",
]


async def _postgres_error(url: str) -> str | None:
    engine = create_async_engine(url, connect_args={"timeout": 3})
    try:
        async with engine.connect() as conn:
            await conn.execute(text("select 1"))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        return f"{type(exc).__name__}: {exc}"
    finally:
        await engine.dispose()


async def _execute(url: str, *statements: str, autocommit: bool = False) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT" if autocommit else None)
    try:
        async with engine.begin() as conn:
            for statement in statements:
                await conn.execute(text(statement))
    finally:
        await engine.dispose()


async def query(url: str, sql: str, **params: Any) -> list[tuple]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(r) for r in (await conn.execute(text(sql), params)).all()]
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated database of its own for this test run, created beside TEST_POSTGRES_URL's
    and dropped at the end, so that runs started at the same time never share tables."""
    error = asyncio.run(_postgres_error(POSTGRES_URL))
    if error:
        message = f"PostgreSQL at {POSTGRES_URL} is unreachable ({error})"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    name = f"campground_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_execute(POSTGRES_URL, f'CREATE DATABASE "{name}"', autocommit=True))
    url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(url)
        yield url
    finally:
        asyncio.run(_execute(POSTGRES_URL, f'DROP DATABASE "{name}" WITH (FORCE)', autocommit=True))


@functools.cache
def seat_zero_seeds(count: int = 8) -> list[int]:
    """Seeds with which Hike and Camping Life, whose first player is drawn at random, start
    with seat 0 alone to act, at every player count (Camp Pinetop draws its first player too:
    its server tests ask who acts rather than adding it here, which would make finding these
    seeds take a minute)."""
    seeds = []
    seed = 0
    while len(seeds) < count:
        seed += 1
        if all(
            g.to_act(g.setup(n, g.options(None), seed)) == [0]
            for g in (get_game("hike"), get_game("camping-life"))
            for n in range(g.min_players, g.max_players + 1)
        ):
            seeds.append(seed)
    return seeds


@pytest.fixture(autouse=True)
def seat_zero_starts(monkeypatch) -> None:
    """Server tests seat the host at seat 0 and want it to move first: games started by the
    in-process server draw their seeds from ``seat_zero_seeds()`` (the engine's own tests
    cover the random first player and the setup choices)."""
    import app.services.games

    seeds = itertools.cycle(seat_zero_seeds())
    monkeypatch.setattr(app.services.games, "new_seed", lambda: next(seeds))


@pytest.fixture(autouse=True, scope="session")
def product_password_hasher() -> Iterator[PasswordHasher]:
    """Passwords are hashed with argon2id at its lowest cost in these tests: the flows are the
    same and a hash takes a millisecond, not 0.2 s of CPU. Yields the product's own hasher,
    for the test of its parameters."""
    product = passwords._hasher
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    passwords._dummy_hash.cache_clear()
    yield product
    passwords._hasher = product
    passwords._dummy_hash.cache_clear()


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3) as client:
            client.ping()
    except redis.RedisError as exc:
        message = f"Redis at {REDIS_URL} is unreachable ({type(exc).__name__}: {exc})"
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return REDIS_URL


@pytest.fixture
def redis_prefix() -> str:
    """Channel and key names of this test's own: pub/sub ignores the database number, so runs
    started at the same time are kept apart by name, and the limits counted in Redis start
    afresh for each test as they do in a new server's memory."""
    return f"campground-test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("template") / "campground.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return str(path)


def sqlite_copy(sqlite_template: str, tmp_path_factory, name: str) -> str:
    """A fresh migrated SQLite database: for modules whose tests do not depend on the
    database, which override ``database_url`` with it."""
    path = tmp_path_factory.mktemp(name) / "campground.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def database_url(request, tmp_path_factory) -> str:
    """A migrated, empty database per test module; tests share it, each with its own players."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("db") / "campground.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url = request.getfixturevalue("postgres_url")
    asyncio.run(_execute(url, f"TRUNCATE {', '.join(TABLES)}"))
    return url


class Client(httpx.Client):
    """An HTTP client for one guest (or nobody); ``token`` is set once a player exists."""

    token: str | None = None
    id: str | None = None
    name: str | None = None


class LiveServer:
    """The app under uvicorn in a background thread, on a socket bound to a free port."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.app = create_app(settings)
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                log_level="warning",
                lifespan="on",
                ws="websockets-sansio",
                ws_per_message_deflate=False,
                # A socket a test left open must not hold the server past ``stop``'s join: a
                # server still running then logs into later tests (its bus reconnecting to a
                # Redis that test stopped) and keeps the process from exiting.
                timeout_graceful_shutdown=5,
                **server_options(settings),
            )
        )
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})
        # One transport for every client: building an SSL context per client costs ~40 ms.
        self.transport = httpx.HTTPTransport()

    def start(self) -> LiveServer:
        self.thread.start()
        # Generous: with the suite's workers on a busy machine a start can take seconds.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.server.started or not self.thread.is_alive():
                break
            threading.Event().wait(0.01)
        if not self.server.started:
            raise RuntimeError("the test server did not start")
        return self

    def stop(self) -> None:
        self.transport.close()
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()

    def client(self) -> Client:
        return Client(base_url=self.url, timeout=15, transport=self.transport)

    def guest(self, name: str = "Ana") -> Client:
        """A new player; its client sends the bearer token (not the cookie)."""
        client = self.client()
        r = client.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        client.cookies.clear()
        client.token, client.id, client.name = body["token"], body["id"], body["name"]
        client.headers["Authorization"] = f"Bearer {client.token}"
        return client

    def admin(self) -> Client:
        client = self.client()
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        return client

    def lobby(self, host: Client, game: str = "hike", **body: Any) -> dict:
        r = host.post("/api/lobbies", json={"game": game, **body})
        assert r.status_code == 201, r.text
        return r.json()

    def start_game(
        self,
        host: Client,
        *others: Client,
        bots: tuple[str, ...] = (),
        game: str = "hike",
        private: bool = False,
    ) -> str:
        """A game: the host at seat 0, then ``others`` by invite code, then bots. A public
        table unless ``private``: anyone may watch it (``tests/app/test_watching.py`` covers
        private ones)."""
        lobby = self.lobby(host, game=game, seats=1 + len(others) + len(bots), private=private)
        for other in others:
            r = other.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
            assert r.status_code == 200, r.text
        for i, level in enumerate(bots):
            seat = 1 + len(others) + i
            r = host.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": level})
            assert r.status_code == 200, r.text
        r = host.post(f"/api/lobbies/{lobby['id']}/start")
        assert r.status_code == 201, r.text
        return r.json()["game_id"]

    def state(self, client: Client, game_id: str) -> dict:
        r = client.get(f"/api/games/{game_id}/state")
        assert r.status_code == 200, r.text
        return r.json()

    def wait_for(self, client: Client, game_id: str, predicate, tries: int = 500) -> dict:
        """Poll the state until ``predicate(state)``; for bots, which move in the background."""
        for _ in range(tries):
            state = self.state(client, game_id)
            if predicate(state):
                return state
            threading.Event().wait(0.01)
        raise AssertionError(f"condition never held; last state version {state['version']}")


# Every test client comes from 127.0.0.1 and many tests share one server: its limits allow far
# more than one person needs. The limit tests start servers of their own with tight limits.
GENEROUS_LIMITS = {
    "RATE_PLAYERS": "100000/60",
    "RATE_LOBBIES": "100000/60",
    "RATE_LOBBIES_PER_ADDRESS": "100000/60",
    "RATE_JOINS": "100000/60",
    "RATE_JOINS_PER_ADDRESS": "100000/60",
    "RATE_QUEUES": "100000/60",
    "RATE_QUEUES_PER_ADDRESS": "100000/60",
    "RATE_MOVES": "100000/60",
    "RATE_MOVES_PER_ADDRESS": "100000/60",
    "RATE_SOCKETS": "100000/60",
    "RATE_SOCKETS_PER_ADDRESS": "100000/60",
    "RATE_REPLAYS": "100000/60",
    "RATE_REPLAYS_PER_ADDRESS": "100000/60",
    "MAX_OPEN_LOBBIES": 1000,
    "MAX_SOCKETS_PER_ADDRESS": 5000,
}


def settings_for(url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "DATABASE_URL": url,
        "BOT_DELAY": 0,
        # Bots think in the server's own process: a worker process for each test server
        # would be spawned, and import the engine, a few hundred times a run. The workers
        # themselves are tested in test_bots.py; the browser tests' servers keep them.
        "BOT_WORKERS": 0,
        "ADMIN_TOKEN": ADMIN_TOKEN,
        **GENEROUS_LIMITS,
    }
    return Settings(**(values | overrides))


@contextmanager
def running(settings: Settings) -> Iterator[LiveServer]:
    server = LiveServer(settings).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def live(database_url) -> Iterator[LiveServer]:
    with running(settings_for(database_url)) as server:
        yield server


@pytest.fixture(scope="module")
def documented(live):
    """``documented(response, "POST", "/api/lobbies/{lobby_id}/join")``: asserts that the
    server's /openapi.json lists the response's status code for that operation and that the
    body has the documented shape."""
    # Generous: building the document can take seconds on a busy machine.
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json", timeout=60)

    def check(response: httpx.Response, method: str, path: str) -> None:
        operation = schema[path][method]
        assert str(response.status_code) in operation.definition.raw["responses"]
        operation.validate_response(response)

    return check


def illegal_reason(game_kind: str, full_state: dict, seat: int, move: dict) -> str:
    """What the engine itself says about ``move``: the reason the API must pass on."""
    game = get_game(game_kind)
    try:
        play(game, game.load(full_state), seat, move)
    except IllegalMove as exc:
        return exc.reason
    raise AssertionError(f"{move} is legal for seat {seat}")


@pytest.fixture
def sql(database_url):
    """Run one SELECT on the test database: ``sql("select ...", param=value)``."""
    return lambda statement, **params: asyncio.run(query(database_url, statement, **params))


@pytest.fixture
def engine_reason():
    return illegal_reason


@pytest.fixture
def serve():
    """``with serve(url, BOT_DELAY=...) as live:``: an extra server, e.g. to restart one."""
    return lambda url, **overrides: running(settings_for(url, **overrides))
