"""Forming tables from the queue in the database: a pass that dies half-way loses nobody's
place, two instances forming at once seat each person once, and a leave that meets a table
being formed waits for it and is told."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import Database
from app.services import queue_tables
from app.services.clock import Timing
from tests.app.conftest import _execute, query, running, settings_for
from tests.app.queue_helpers import play_now


@pytest.fixture(scope="module")
def live(database_url):
    """No pass of the server's own: the tests run them."""
    with running(settings_for(database_url, QUEUE_EVERY=0, QUEUE_LEASE=600)) as server:
        yield server


@pytest.fixture(autouse=True)
def empty_queue(database_url):
    yield
    asyncio.run(_execute(database_url, "DELETE FROM queue_entries"))


async def _passes(url: str, count: int) -> list[list[queue_tables.Formed]]:
    """``count`` passes at once, each as a separate instance would run it."""
    dbs = [Database(url) for _ in range(count)]
    try:
        return list(await asyncio.gather(*(queue_tables.form(db, Timing(0, 3600)) for db in dbs)))
    finally:
        for db in dbs:
            await db.dispose()


def form(url: str) -> list[queue_tables.Formed]:
    return asyncio.run(_passes(url, 1))[0]


def test_a_pass_that_dies_half_way_loses_nobodys_place(live, database_url, sql, monkeypatch):
    people = [live.guest(f"P{i}") for i in range(6)]
    for person in people:
        play_now(person, most=2)
    games = sql("select count(*) from games")
    written = []
    write = queue_tables._write

    async def dies_after_one_table(session, table, timing):
        if written:
            raise RuntimeError("the instance died")
        written.append(await write(session, table, timing))
        return written[-1]

    monkeypatch.setattr(queue_tables, "_write", dies_after_one_table)
    with pytest.raises(RuntimeError, match="died"):
        form(database_url)
    assert written, "the first table was written before the pass died"
    assert sql("select count(*) from games") == games
    assert sql("select count(*) from queue_entries where game_id is null") == [(6,)]
    monkeypatch.setattr(queue_tables, "_write", write)
    formed = form(database_url)
    assert sorted(p for t in formed for p in t.players) == sorted(p.id for p in people)
    assert sql("select count(*) from queue_entries where game_id is null") == [(0,)]


@pytest.mark.postgres
def test_instances_forming_at_once_seat_each_person_once(live, database_url, sql):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite serves one instance")
    people = [live.guest(f"P{i}") for i in range(12)]
    for i, person in enumerate(people):
        play_now(person, game=("hike", "summer-camp")[i % 2], most=2)
    passes = asyncio.run(_passes(database_url, 4))
    seated = Counter(p for formed in passes for t in formed for p in t.players)
    assert sorted(seated) == sorted(p.id for p in people)
    assert set(seated.values()) == {1}
    # Each kind was formed by one of the passes; the others found its lock taken.
    assert sorted(len(formed) for formed in passes if formed) in ([3, 3], [6])
    in_seats = sql(
        "select player_id, count(*) from seats where player_id in "
        f"({', '.join(repr(p.id) for p in people)}) group by player_id"
    )
    assert {count for _, count in in_seats} == {1} and len(in_seats) == 12


@pytest.mark.postgres
def test_a_leave_meeting_a_table_being_formed_waits_and_is_told(live, database_url, sql):
    if not database_url.startswith("postgresql"):
        pytest.skip("row locks are PostgreSQL's")
    ana = live.guest("Ana")
    play_now(ana, most=2)
    game_id = live.start_game(live.guest("Host"), live.guest("Other"))

    async def forming_holds_the_entry() -> int:
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("BEGIN"))
                await conn.execute(
                    text("SELECT 1 FROM queue_entries WHERE player_id = :p FOR UPDATE"),
                    {"p": ana.id},
                )
                answer: list = []
                leaving = threading.Thread(target=lambda: answer.append(ana.delete("/api/queue")))
                leaving.start()
                while not (
                    await query(
                        database_url,
                        "select count(*) from pg_stat_activity "
                        "where wait_event_type = 'Lock' and query like "
                        "'SELECT%queue_entries%'",
                    )
                )[0][0]:
                    await asyncio.sleep(0.02)
                await conn.execute(
                    text("UPDATE queue_entries SET game_id = :g WHERE player_id = :p"),
                    {"g": game_id, "p": ana.id},
                )
                await conn.execute(text("COMMIT"))
                await asyncio.to_thread(leaving.join)
                return answer[0].status_code
        finally:
            await engine.dispose()

    assert asyncio.run(forming_holds_the_entry()) == 409
    assert sql("select game_id from queue_entries where player_id = :p", p=ana.id) == [(game_id,)]
