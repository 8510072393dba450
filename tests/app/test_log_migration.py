"""Games stored by the old code, whose state held the whole log, after the migration that moves
the log into ``log_entries``: the same replays, record and verdict, on SQLite and PostgreSQL."""

import asyncio
import random
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import Database
from app.migrate import alembic_config, upgrade
from app.services import records
from app.services.game_log import SHOWN
from app.services.replays import Replays
from app.services.game_loading import load_snapshot
from app.services.games import commitment, final_outcome
from engine.core import log_view, play
from engine.registry import get_game
from tests.app.migration_parts import (
    DATABASES,
    GAME_COLUMNS,
    LOBBY_COLUMNS,
    database_at,
    old_table,
    players,
    seats,
)

GAME = get_game("hike")
SEED = 11
AT = datetime(2026, 12, 1, tzinfo=UTC)

games = old_table(
    "games",
    [*GAME_COLUMNS, "finished_at", "seats_version"],
    json=["options", "state", "outcome", "clock", "stand_ins"],
)
lobbies = old_table("lobbies", LOBBY_COLUMNS, json=["options"])
moves = old_table("moves", ["game_id", "seq", "seat", "created_at"], json=["move"])


@pytest.fixture(params=DATABASES)
def old_database(request, tmp_path):
    """An empty database at the revision before the log left the state."""
    yield from database_at(request, tmp_path, "0008")


def played(moves_made: int | None):
    """A seeded two-player Hike game (to its end, or ``moves_made`` moves): its moves, and the
    log after each move (index k: after move k, 0 the setup)."""
    rng = random.Random(SEED)
    state = GAME.setup(2, GAME.options({}), SEED)
    logs, made = [list(state.log)], []
    while GAME.outcome(state) is None and len(made) != moves_made:
        seat = GAME.to_act(state)[0]
        move = rng.choice(GAME.legal_moves(state, seat))
        state = play(GAME, state, seat, move)
        made.append((seat, move.model_dump(mode="json")))
        logs.append(logs[-1] + state.log)
    return state, made, logs


async def store_the_old_way(url: str, game_id: str, moves_made: int | None):
    """The rows the old code wrote: the state with its whole log in it."""
    state, made, logs = played(moves_made)
    outcome = GAME.outcome(state)
    live = {k: v for k, v in GAME.dump(state).items() if k != "logged"}
    old_state = live | {"log": [e.model_dump(mode="json") for e in logs[-1]]}
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            host = f"p{game_id[1:]}"
            await conn.execute(
                players.insert().values(id=host, name="Ana", token_hash=host, created_at=AT)
            )
            await conn.execute(
                games.insert().values(
                    id=game_id,
                    kind=GAME.id,
                    options={},
                    seed_commitment=commitment(SEED),
                    seed=SEED,
                    state=old_state,
                    version=len(made),
                    status="finished" if outcome else "active",
                    outcome=final_outcome(outcome, {}) if outcome else None,
                    created_at=AT,
                    updated_at=AT,
                    finished_at=AT if outcome else None,
                    stand_ins={},
                    seats_version=0,
                    rated=False,
                    clock={},
                )
            )
            await conn.execute(
                lobbies.insert().values(
                    id=f"l{game_id[1:]}",
                    game=GAME.id,
                    options={},
                    seat_count=2,
                    private=False,
                    invite_code=game_id[:16],
                    host_id=host,
                    status="started",
                    game_id=game_id,
                    created_at=AT,
                )
            )
            await conn.execute(
                seats.insert(),
                [
                    {
                        "lobby_id": f"l{game_id[1:]}",
                        "seat": 0,
                        "player_id": host,
                        "bot_level": None,
                    },
                    {
                        "lobby_id": f"l{game_id[1:]}",
                        "seat": 1,
                        "player_id": None,
                        "bot_level": "random",
                    },
                ],
            )
            await conn.execute(
                moves.insert(),
                [
                    {"game_id": game_id, "seq": k, "seat": seat, "move": move, "created_at": AT}
                    for k, (seat, move) in enumerate(made, start=1)
                ],
            )
    finally:
        await engine.dispose()
    return old_state, logs


async def read_after(url: str, ended: str, active: str):
    db = Database(url)
    try:
        async with db.session() as session:
            stored = (
                await session.execute(
                    sa.text("SELECT game_id, n, seat, text FROM log_entries ORDER BY game_id, n")
                )
            ).all()
            states = dict((await session.execute(sa.select(games.c.id, games.c.state))).all())
            version = (await load_snapshot(session, ended)).version
        replays = {k: await Replays().view(db, ended, k) for k in (0, 7, version)}
        async with db.session() as session:
            record = await records.export(session, ended)
            at_end = await records.state_at(session, ended, version)
            live = await load_snapshot(session, active)
        return stored, states, replays, record, at_end, live
    finally:
        await db.dispose()


def test_stored_games_keep_their_log_replays_record_and_verdict(old_database):
    url = old_database
    ended, active = "e" * 32, "a" * 32
    old_ended, ended_logs = asyncio.run(store_the_old_way(url, ended, None))
    old_active, active_logs = asyncio.run(store_the_old_way(url, active, 30))
    upgrade(url)
    stored, states, replays, record, at_end, live = asyncio.run(read_after(url, ended, active))

    entries = {game_id: [] for game_id in (ended, active)}
    for game_id, n, seat, text in stored:
        assert n == len(entries[game_id])
        entries[game_id].append({"text": text, "seat": seat})
    assert entries[ended] == old_ended["log"] and entries[active] == old_active["log"]
    assert "log" not in states[ended] and "log" not in states[active]
    without_log = {k: v for k, v in old_ended.items() if k != "log"}
    assert states[ended] == without_log | {"logged": len(old_ended["log"])}

    # Replay at move k shows the log as it was then: its latest entries and its length.
    for k, view in replays.items():
        assert view["log"] == log_view(ended_logs[k][-SHOWN:])
        assert view["log_length"] == len(ended_logs[k])
    assert at_end == states[ended]
    verdict = records.verify(record)
    assert verdict.ok, verdict.message

    # A game under way: its latest entries and the log's length are what a view shows.
    assert live.log.length == len(active_logs[-1])
    assert live.view(0)["log"] == old_active["log"][-SHOWN:]

    # And back: the old shape, exactly. (SQLite cannot rebuild a table other rows refer to,
    # as dropping a column takes, with its foreign keys on.)
    if url.startswith("sqlite"):
        return
    command.downgrade(alembic_config(url), "0008")
    assert asyncio.run(old_states(url)) == {ended: old_ended, active: old_active}


async def old_states(url: str) -> dict:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return dict((await conn.execute(sa.select(games.c.id, games.c.state))).all())
    finally:
        await engine.dispose()
