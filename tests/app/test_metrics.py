"""GET /metrics: what an operator watches, counted where it happens."""

import os
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
from prometheus_client import CollectorRegistry, Gauge
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import create_async_engine

from app import metrics
from app.bus import RedisBus
from tests.app.conftest import running, settings_for
from tests.app.sockets import Socket
from tests.app.test_records import finished_game


def scrape(client) -> dict[tuple[str, frozenset], float]:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(r.text)
        for sample in family.samples
    }


def value(figures, name: str, **labels) -> float:
    return figures.get((name, frozenset(labels.items())), 0.0)


def figures_until(client, holds, tries: int = 500) -> dict:
    """Scrape until ``holds(figures)``: those read from the database are sampled every
    ``METRICS_SAMPLE_EVERY`` seconds."""
    for _ in range(tries):
        figures = scrape(client)
        if holds(figures):
            return figures
        threading.Event().wait(0.01)
    raise AssertionError("the figures never held")


@pytest.fixture(scope="module")
def live(database_url):
    with running(settings_for(database_url, METRICS_SAMPLE_EVERY=0.05)) as server:
        yield server


def test_the_counters_move_with_a_played_game(live):
    before = scrape(live.client())
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",), game="hike")
    watching = [Socket(live, game_id, token=ana.token), Socket(live, game_id)]
    during = scrape(live.client())
    state = live.state(ana, game_id)
    wrong = {"move": {"type": "no such move"}, "expect_version": state["version"]}
    assert ana.post(f"/api/games/{game_id}/moves", json=wrong).status_code == 422
    move = state["view"]["legal_moves"][0]["move"]
    stale = {"move": move, "expect_version": state["version"] + 5}
    assert ana.post(f"/api/games/{game_id}/moves", json=stale).status_code == 409
    legal = {"move": move, "expect_version": state["version"]}
    assert ana.post(f"/api/games/{game_id}/moves", json=legal).status_code == 200
    for sock in watching:
        sock.until_version(state["version"] + 1)
        sock.close()
    _, played, end = finished_game(live)
    after = scrape(live.client())

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    moves = live.admin().get(f"/api/admin/games/{played}/moves").json()
    by_person = sum(1 for m in moves if m["seat"] == 0)
    assert end["view"]["outcome"] is not None and len(moves) == end["version"]
    people = moved("campground_moves_committed_total", game="camping-life", played_by="person")
    bots = moved("campground_moves_committed_total", game="camping-life", played_by="bot")
    assert (people, bots) == (by_person, len(moves) - by_person)
    assert (
        moved("campground_bot_moves_total", game="camping-life", outcome="committed")
        == len(moves) - by_person
    )
    assert moved("campground_bot_think_seconds_count", game="camping-life") == bots
    assert moved("campground_deadlines_total", action="bot") >= bots
    assert moved("campground_moves_refused_total", game="hike", reason="illegal") == 1
    assert moved("campground_moves_refused_total", game="hike", reason="stale") == 1
    assert moved("campground_move_latency_seconds_count", stage="commit") >= len(moves)
    # Ana's and the spectator's sockets were sent her move.
    assert moved("campground_move_latency_seconds_count", stage="fanout") >= 2
    assert (
        value(during, "campground_sockets", kind="player")
        - value(before, "campground_sockets", kind="player")
        == 1
    )
    assert (
        value(during, "campground_sockets", kind="spectator")
        - value(before, "campground_sockets", kind="spectator")
        == 1
    )
    assert figures_until(
        live.client(), lambda f: value(f, "campground_games_active", game="hike") >= 1
    )
    assert value(after, "campground_redis_up") == 0  # no REDIS_URL
    assert ("campground_db_connections_in_use", frozenset()) in after


def test_refusals_are_counted_by_limit(database_url, serve):
    with serve(database_url, RATE_PLAYERS="2/60") as tight:
        before = scrape(tight.client())
        codes = [
            tight.client().post("/api/players", json={"name": "Ana"}).status_code for _ in range(3)
        ]
        assert codes == [201, 201, 429]
        after = scrape(tight.client())
    limit = {"limit": "new players"}
    assert (
        value(after, "campground_limit_refusals_total", **limit)
        - value(before, "campground_limit_refusals_total", **limit)
        == 1
    )


def test_only_allowed_addresses_or_the_admin_token_read_them(database_url, serve):
    with serve(database_url, METRICS_ALLOW="10.0.0.0/8") as closed:
        assert closed.client().get("/metrics").status_code == 403
        wrong = closed.client().get("/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403
        assert closed.admin().get("/metrics").status_code == 200
        ana = closed.guest("Ana")
        assert ana.get("/metrics").status_code == 403
    with serve(database_url) as loopback:
        assert loopback.client().get("/metrics").status_code == 200


def test_redis_health_is_reported(database_url, serve, redis_url, redis_prefix):
    with serve(database_url, REDIS_URL=redis_url, REDIS_PREFIX=redis_prefix) as live:
        assert value(scrape(live.client()), "campground_redis_up") == 1


async def test_a_failed_publish_is_counted():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    bus = RedisBus(f"redis://127.0.0.1:{port}/0", timeout=0.2)
    before = metrics.REDIS_PUBLISH_FAILURES._value.get()
    await bus.publish("game:x", "1")
    await bus.close()
    assert metrics.REDIS_PUBLISH_FAILURES._value.get() == before + 1


async def test_waits_for_a_pooled_connection_are_timed(tmp_path, monkeypatch):
    # This process's other servers (a module's live server) check connections out of their
    # own pools meanwhile: this pool counts on a gauge of its own.
    monkeypatch.setattr(
        metrics, "DB_CONNECTIONS", Gauge("in_use", "", registry=CollectorRegistry())
    )
    engine = create_async_engine(
        f"sqlite+aiosqlite:///{tmp_path / 'pool.db'}",
        poolclass=metrics.MeasuredPool,
        pool_size=1,
        max_overflow=0,
        pool_timeout=0.2,
    )
    metrics.watch_pool(engine)
    waits, timeouts = metrics.DB_WAITS._sum.get(), metrics.DB_TIMEOUTS._value.get()
    in_use = metrics.DB_CONNECTIONS._value.get()
    try:
        async with engine.connect():
            assert metrics.DB_CONNECTIONS._value.get() == in_use + 1
            with pytest.raises(PoolTimeout):
                async with engine.connect():
                    pass
        assert metrics.DB_CONNECTIONS._value.get() == in_use
        assert metrics.DB_TIMEOUTS._value.get() == timeouts + 1
        assert metrics.DB_WAITS._sum.get() >= waits + 0.2
    finally:
        await engine.dispose()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_several_workers_are_added_up(tmp_path, sqlite_template, redis_url, redis_prefix):
    """``campground serve --workers 2``: a scrape, whichever worker answers it, counts the
    moves of both."""
    import shutil

    path = tmp_path / "campground.db"
    shutil.copy(sqlite_template, path)
    values = settings_for(
        f"sqlite+aiosqlite:///{path}",
        REDIS_URL=redis_url,
        REDIS_PREFIX=redis_prefix,
        METRICS_SAMPLE_EVERY=0.05,
    ).model_dump()
    env = os.environ | {k: str(v) for k, v in values.items() if v is not None}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, (
                tmp_path / "server.log"
            ).read_text()
            threading.Event().wait(0.2)
        # New connections each time, so both workers take some of them.
        ana = httpx.post(f"{base}/api/players", json={"name": "Ana"}).json()
        ben = httpx.post(f"{base}/api/players", json={"name": "Ben"}).json()
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in (ana, ben)]
        lobby = httpx.post(
            f"{base}/api/lobbies", json={"game": "hike", "seats": 2}, headers=auth[0]
        ).json()
        httpx.post(
            f"{base}/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=auth[1]
        )
        game_id = httpx.post(f"{base}/api/lobbies/{lobby['id']}/start", headers=auth[0]).json()[
            "game_id"
        ]
        for _ in range(10):
            state = httpx.get(f"{base}/api/games/{game_id}/state", headers=auth[0]).json()
            seat = state["view"]["to_act"][0]
            mover = httpx.get(f"{base}/api/games/{game_id}/state", headers=auth[seat]).json()
            move = mover["view"]["legal_moves"][0]["move"]
            r = httpx.post(
                f"{base}/api/games/{game_id}/moves",
                headers=auth[seat],
                json={"move": move, "expect_version": mover["version"]},
            )
            assert r.status_code == 200, r.text
        for _ in range(6):
            with httpx.Client(base_url=base) as client:
                figures = scrape(client)
            assert (
                value(figures, "campground_moves_committed_total", game="hike", played_by="person")
                == 10
            )
        # Each worker samples the database for itself: whichever answers has seen the game.
        for _ in range(6):
            with httpx.Client(base_url=base) as client:
                figures = figures_until(
                    client, lambda f: value(f, "campground_games_active", game="hike") == 1
                )
            assert value(figures, "campground_games_active", game="hike") == 1
    finally:
        server.terminate()
        server.wait(60)
        log.close()
