"""Tables stored before speeds had names, after the migration that names them: each keeps its
per-move clock, a whole ``turn_seconds`` for every decision, and says so in words."""

import asyncio
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import Database
from app.migrate import alembic_config, upgrade
from app.services.clock import Bank, Timing
from app.services.commit import commit_move
from app.services.game_loading import load_snapshot
from app.services.games import commitment
from engine.registry import get_game
from tests.app.migration_parts import GAME_COLUMNS, LOBBY_COLUMNS, old_table, players, seats

GAME = get_game("hike")
SEED = 5
AT = datetime(2026, 12, 1, tzinfo=UTC)

games = old_table(
    "games",
    [*GAME_COLUMNS, "seats_version", "turn_seconds", "log_length"],
    json=["options", "state", "clock", "stand_ins"],
)
lobbies = old_table("lobbies", [*LOBBY_COLUMNS, "turn_seconds"], json=["options"])
queue = old_table(
    "queue_entries",
    ["player_id", "game", "speed", "rated", "fewest", "most", "rating", "joined_at", "alive_until"],
)


async def store_the_old_way(url: str) -> int:
    """A Hike game at 60 s a move between two people and an open lobby at 600 s, as the code
    before speeds wrote them; returns the seat to act."""
    state = GAME.setup(2, GAME.options({}), SEED)
    acting = GAME.to_act(state)[0]
    deadline = (datetime.now(UTC) + timedelta(seconds=30)).replace(microsecond=0)
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            for who in ("ana", "ben"):
                await conn.execute(
                    players.insert().values(id=who, name=who.title(), token_hash=who, created_at=AT)
                )
            await conn.execute(
                games.insert().values(
                    id="g" * 32,
                    kind=GAME.id,
                    options={},
                    seed_commitment=commitment(SEED),
                    seed=SEED,
                    state=GAME.dump(state),
                    version=0,
                    status="active",
                    created_at=AT,
                    updated_at=AT,
                    stand_ins={},
                    seats_version=0,
                    rated=False,
                    turn_seconds=60,
                    log_length=0,
                    clock={"deadlines": {str(acting): deadline.isoformat()}, "away": {}},
                )
            )
            for lobby_id, game_id, status, turn_seconds in (
                ("l" * 32, "g" * 32, "started", 60),
                ("o" * 32, None, "open", 600),
            ):
                await conn.execute(
                    lobbies.insert().values(
                        id=lobby_id,
                        game=GAME.id,
                        options={},
                        seat_count=2,
                        private=True,
                        invite_code=lobby_id[:16],
                        host_id="ana",
                        status=status,
                        game_id=game_id,
                        created_at=AT,
                        turn_seconds=turn_seconds,
                    )
                )
            await conn.execute(
                seats.insert(),
                [
                    {"lobby_id": "l" * 32, "seat": 0, "player_id": "ana", "bot_level": None},
                    {"lobby_id": "l" * 32, "seat": 1, "player_id": "ben", "bot_level": None},
                ],
            )
            await conn.execute(
                queue.insert().values(
                    player_id="ben",
                    game=GAME.id,
                    speed="1h",
                    rated=False,
                    fewest=2,
                    most=2,
                    rating=0.0,
                    joined_at=AT,
                    alive_until=AT,
                )
            )
    finally:
        await engine.dispose()
    return acting


async def after(url: str, acting: int):
    db = Database(url)
    try:
        async with db.session() as session:
            before = await load_snapshot(session, "g" * 32)
            lobby = (
                await session.execute(
                    sa.text("SELECT speed, turn_seconds FROM lobbies WHERE id = :id"),
                    {"id": "o" * 32},
                )
            ).one()
            waiting = await session.scalar(sa.text("SELECT speed FROM queue_entries"))
        move = GAME.legal_moves(before.state, acting)[0]
        moved_at = datetime.now(UTC)
        done = await commit_move(
            db, "g" * 32, acting, move, 0, timing=Timing(bot_delay=1, abandon_after=3600)
        )
        return before, tuple(lobby), waiting, done, moved_at
    finally:
        await db.dispose()


def test_tables_made_before_speeds_keep_their_per_move_clock(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "queue")
    acting = asyncio.run(store_the_old_way(url))
    upgrade(url)
    before, lobby, waiting, done, moved_at = asyncio.run(after(url, acting))
    assert lobby == (None, 600)
    assert (before.speed, before.turn_seconds, before.bank) == (None, 60, Bank.per_move(60))
    table = before.table()
    assert (table["speed"], table["pace"], table["speed_name"]) == (
        None,
        "real time",
        "1 min per move",
    )
    # Whoever acts next has a whole minute, as every move of this table always gave.
    for seat in GAME.to_act(done.state):
        left = (done.clock.deadlines[seat] - moved_at).total_seconds()
        assert 59 <= left <= 61
    # Play now's presets that no longer exist wait for the nearest named speed.
    assert waiting == "20m"
