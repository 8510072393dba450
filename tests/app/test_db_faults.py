"""While the database is away, the server says so: HTTP answers 503 with Retry-After and a JSON
body, a socket answers each message with an ``unavailable`` error and stays open, a socket that
opens meanwhile is closed with 1013 (try again later); once it is back the next move succeeds.
An unexpected error is still answered as JSON, and the connection closed saying so.

Each test has a PostgreSQL database of its own, which it takes away by refusing new
connections to it and terminating its backends (the cluster itself is shared)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.migrate import upgrade
from tests.app.conftest import POSTGRES_URL, LiveServer, _execute, running, settings_for
from tests.app.sockets import Socket
from tests.app.test_metrics import figures_until, scrape, value

pytestmark = pytest.mark.postgres


class Outage:
    """A database of the test's own, and the means to take it away and bring it back."""

    def __init__(self, name: str):
        self.name = name
        self.url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)

    def _admin(self, *statements: str) -> None:
        asyncio.run(_execute(POSTGRES_URL, *statements, autocommit=True))

    def cut(self) -> None:
        """Terminate every backend of the database (as a crash or a restart would)."""
        self._admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()"
        )

    def down(self) -> None:
        self._admin(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false')
        self.cut()

    def up(self) -> None:
        self._admin(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')


@pytest.fixture
def outage(postgres_url) -> Iterator[Outage]:
    """``postgres_url`` first: it skips the test when PostgreSQL is unreachable."""
    name = f"campground_faults_{uuid.uuid4().hex[:12]}"
    asyncio.run(_execute(POSTGRES_URL, f'CREATE DATABASE "{name}"', autocommit=True))
    away = Outage(name)
    try:
        upgrade(away.url)
        yield away
    finally:
        away.up()
        asyncio.run(_execute(POSTGRES_URL, f'DROP DATABASE "{name}" WITH (FORCE)', autocommit=True))


@pytest.fixture
def live(outage) -> Iterator[LiveServer]:
    server = LiveServer(settings_for(outage.url)).start()
    try:
        yield server
    finally:
        server.stop()


def unavailable_answer(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "2"
    assert r.headers["content-type"] == "application/json"
    assert "database is unavailable" in r.json()["detail"]


def test_while_the_database_is_away_every_call_is_told_to_retry(live, outage):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    socket = Socket(live, game_id, token=ana.token)
    try:
        outage.down()
        unavailable_answer(ana.get(f"/api/games/{game_id}/state"))
        unavailable_answer(live.client().post("/api/players", json={"name": "Cal"}))
        unavailable_answer(ana.post("/api/lobbies", json={"game": "hike"}))
        unavailable_answer(
            ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        )

        socket.send({"type": "move", "ref": "m1", "move": move, "expect_version": 0})
        error = socket.next()
        assert (error["type"], error["code"], error["ref"]) == ("error", "unavailable", "m1")
        assert error["retry_after"] == 2
        # The socket stays open and still answers from what the server holds.
        socket.send({"type": "sync"})
        assert socket.next()["type"] == "state"

        # A socket opened meanwhile is told to try again later (1013), which the page does.
        with connect(f"{live.ws_url}/ws/games/{game_id}?token={ben.token}") as late:
            with pytest.raises(ConnectionClosed) as closed:
                late.recv(timeout=10)
        assert closed.value.rcvd.code == 1013
        assert "database is unavailable" in closed.value.rcvd.reason

        outage.up()
        socket.send({"type": "move", "ref": "m2", "move": move, "expect_version": 0})
        assert socket.next() == {"type": "ack", "ref": "m2", "version": 1}
        assert live.state(ana, game_id)["version"] == 1
    finally:
        socket.close()


def test_backends_terminated_under_play_cost_a_retry_not_a_socket(live, outage):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    socket = Socket(live, game_id, token=ana.token)
    try:
        outage.cut()
        answers = [ana.get(f"/api/games/{game_id}/state").status_code for _ in range(5)]
        assert set(answers) <= {200, 503} and answers[-1] == 200
        move = socket.view["legal_moves"][0]["move"]
        outage.cut()
        for attempt in range(5):
            socket.send({"type": "move", "ref": attempt, "move": move, "expect_version": 0})
            answer = socket.next()
            if answer["type"] == "ack":
                break
            assert answer["code"] == "unavailable"
        assert answer == {"type": "ack", "ref": attempt, "version": 1}
    finally:
        socket.close()


def test_an_unexpected_error_is_json_and_closes_the_connection(outage):
    server = LiveServer(settings_for(outage.url))

    async def broken() -> None:
        raise RuntimeError("a bug")

    server.app.add_api_route("/api/broken", broken)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=15) as client:
            r = client.get("/api/broken")
            assert r.status_code == 500
            assert r.headers["connection"] == "close"
            assert r.json() == {"detail": "Something went wrong on the server; it has been logged."}
            # The client knew not to reuse the connection: the next request goes through.
            assert client.get("/api/games").status_code == 200
    finally:
        server.stop()


def test_the_page_is_told_to_retry_not_shown_a_failure(live, outage):
    """What the browser's socket gets is a JSON error it can read, never a dropped socket."""
    ana = live.guest("Ana")
    lobby = live.lobby(ana)
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
        outage.down()
        ws.send(json.dumps({"type": "chat", "text": "hello", "ref": "c1"}))
        error = json.loads(ws.recv(timeout=10))
        assert (error["code"], error["ref"], error["retry_after"]) == ("unavailable", "c1", 2)
        outage.up()
        ws.send(json.dumps({"type": "chat", "text": "hello", "ref": "c2"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "chat"


def test_metrics_answer_while_the_database_is_away(outage):
    """Every figure stays on /metrics through an outage: those read from the database are the
    last sample's, with its age and ``campground_db_up`` 0."""
    with running(settings_for(outage.url, METRICS_SAMPLE_EVERY=0.05)) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, live.guest("Ben"))
        figures_until(
            live.client(), lambda f: value(f, "campground_games_active", game="hike") == 1
        )
        outage.down()
        away = figures_until(live.client(), lambda f: value(f, "campground_db_up") == 0)
        assert value(away, "campground_games_active", game="hike") == 1
        assert value(away, "campground_moves_committed_total", game="hike", played_by="person") >= 0
        assert ("campground_db_sample_age_seconds", frozenset()) in away
        unavailable_answer(ana.get(f"/api/games/{game_id}/state"))
        older = scrape(live.client())
        assert value(older, "campground_db_sample_age_seconds") >= value(
            away, "campground_db_sample_age_seconds"
        )
        outage.up()
        figures_until(live.client(), lambda f: value(f, "campground_db_up") == 1)


def test_live_answers_and_ready_fails_while_the_database_is_away(live, outage):
    assert live.client().get("/health/ready").json() == {"database": "ok", "redis": "off"}
    outage.down()
    r = live.client().get("/health/ready")
    assert (r.status_code, r.json()) == (503, {"database": "unavailable", "redis": "off"})
    r = live.client().get("/health/live")
    assert (r.status_code, r.json()) == (200, {"status": "ok"})
    outage.up()
    assert live.client().get("/health/ready").status_code == 200
