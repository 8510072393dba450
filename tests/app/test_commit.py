"""Committing a move against a copy of the game the caller holds (a hub's): a copy that is out
of date never lets a move through that the stored game refuses.

Each rule runs on both write paths of ``app.services.commit``: PostgreSQL's one statement and
the session's (SQLite has only the session's, so there both runs take it)."""

from __future__ import annotations

import asyncio

import pytest

from sqlalchemy import text

from app.db import Database
from app.services.clock import Timing
from app.services.errors import StaleVersion
from app.services.commit import commit_move
from app.services.game_loading import load_snapshot
from engine.core import IllegalMove
from tests.app.conftest import query


def held_copy(database_url: str, game_id: str):
    async def load():
        db = Database(database_url)
        try:
            async with db.session() as session:
                return await load_snapshot(session, game_id)
        finally:
            await db.dispose()

    return asyncio.run(load())


WRITE_PATHS = pytest.mark.parametrize(
    "one_statement", [True, False], ids=["one-statement", "session"]
)


def commit(
    database_url: str,
    game_id: str,
    seat: int,
    move: dict,
    version: int,
    known,
    one_statement: bool = True,
):
    async def run():
        db = Database(database_url)
        try:
            return await commit_move(
                db,
                game_id,
                seat,
                move,
                version,
                timing=Timing(0, 60),
                known=known,
                one_statement=one_statement,
            )
        finally:
            await db.dispose()

    return asyncio.run(run())


def four_seats(live):
    players = [live.guest(f"P{i}") for i in range(4)]
    game_id = live.start_game(*players)
    return players, game_id


@WRITE_PATHS
def test_a_move_after_a_concession_is_refused_whatever_the_copy_says(
    live, database_url, one_statement
):
    players, game_id = four_seats(live)
    copy = held_copy(database_url, game_id)
    seat = copy.game.to_act(copy.state)[0]
    move = live.state(players[seat], game_id)["view"]["legal_moves"][0]["move"]
    r = players[seat].post(f"/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text
    # Refused as conceded, or as stale once the bot standing in has moved for the seat.
    with pytest.raises((IllegalMove, StaleVersion)) as refused:
        commit(database_url, game_id, seat, move, copy.version, copy, one_statement)
    if refused.type is IllegalMove:
        assert "conceded" in refused.value.reason


@WRITE_PATHS
def test_a_move_after_an_abort_is_refused_whatever_the_copy_says(live, database_url, one_statement):
    players, game_id = four_seats(live)
    copy = held_copy(database_url, game_id)
    seat = copy.game.to_act(copy.state)[0]
    move = live.state(players[seat], game_id)["view"]["legal_moves"][0]["move"]
    assert live.admin().post(f"/api/admin/games/{game_id}/abort").status_code == 200
    with pytest.raises(IllegalMove, match="aborted"):
        commit(database_url, game_id, seat, move, copy.version, copy, one_statement)


@WRITE_PATHS
def test_a_copy_behind_the_game_gives_a_stale_version(live, database_url, one_statement):
    players, game_id = four_seats(live)
    copy = held_copy(database_url, game_id)
    seat = copy.game.to_act(copy.state)[0]
    move = live.state(players[seat], game_id)["view"]["legal_moves"][0]["move"]
    done = commit(database_url, game_id, seat, move, copy.version, copy, one_statement)
    assert done.version == copy.version + 1
    with pytest.raises(StaleVersion):
        commit(database_url, game_id, seat, move, copy.version, copy, one_statement)
    assert live.state(players[seat], game_id)["version"] == done.version


def test_a_dropped_database_connection_is_not_handed_out_again(live, database_url):
    """PostgreSQL moves run on asyncpg's own connection: when the server drops it, that move
    fails and the pool forgets the connection, so the next move gets a working one."""
    if not database_url.startswith("postgresql"):
        pytest.skip("the statement runs on asyncpg itself only with PostgreSQL")
    players, game_id = four_seats(live)
    copy = held_copy(database_url, game_id)
    seat = copy.game.to_act(copy.state)[0]
    move = live.state(players[seat], game_id)["view"]["legal_moves"][0]["move"]

    async def run():
        # One connection, never checked before use: only forgetting it can save the next move.
        db = Database(database_url, {"pool_size": 1, "max_overflow": 0})
        try:
            async with db.autocommit() as conn:
                backend = await conn.scalar(text("SELECT pg_backend_pid()"))
            await query(database_url, f"SELECT pg_terminate_backend({backend})")
            while await query(
                database_url, f"SELECT 1 FROM pg_stat_activity WHERE pid = {backend}"
            ):
                await asyncio.sleep(0.05)
            with pytest.raises(Exception) as dropped:
                await commit_move(
                    db, game_id, seat, move, copy.version, timing=Timing(0, 60), known=copy
                )
            assert not isinstance(dropped.value, IllegalMove | StaleVersion)
            return await commit_move(
                db, game_id, seat, move, copy.version, timing=Timing(0, 60), known=copy
            )
        finally:
            await db.dispose()

    done = asyncio.run(run())
    assert done.version == copy.version + 1 == held_copy(database_url, game_id).version
