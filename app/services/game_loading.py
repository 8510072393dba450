"""A game's load: the statements that read a game and its seats, and ``load_snapshot``,
which runs them (on asyncpg itself on PostgreSQL) into a ``Snapshot``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Text, bindparam, cast, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app import names
from app.db import driver_connection, for_asyncpg, storable
from app.models import Game, Lobby, Player, RatingChange, Seat
from app.services import game_log, ratings
from app.services.clock import Clock
from app.services.errors import Problem
from app.services.games import Snapshot, TableSeat, bot_name, stand_ins
from app.services.watching import privacy
from engine.registry import get_game


def _table(found: Sequence[Any]) -> list[TableSeat]:
    """Seats as (seat, player id, bot level, player's name, handle, the game's rating change
    (mu and sigma before and after), and the rating's mu, sigma and games), in order, as the
    table shows them."""
    shown = names.distinct([row[3] or bot_name(row[2] or "") for row in found])
    return [
        TableSeat(
            seat,
            player_id,
            name,
            bot,
            handle,
            ratings.shown(mu, sigma, played),
            ratings.change_shown(mu0, sigma0, mu1, sigma1),
        )
        for (
            seat,
            player_id,
            bot,
            _,
            handle,
            mu0,
            sigma0,
            mu1,
            sigma1,
            mu,
            sigma,
            played,
        ), name in zip(found, shown)
    ]


SeatsCache = dict[str, tuple[int, list[TableSeat]]]

# The lobby of the game's rematch, beside the game's own lobby.
_REMATCH = aliased(Lobby)
# The state as its stored text, which pydantic validates straight into the state
# (``Game.load_json``): decoding it to a dict first was a fifth of a game's load.
_SNAPSHOT = (
    select(
        Game.kind,
        Game.version,
        Game.status,
        Game.seed,
        Game.seed_commitment,
        cast(Game.state, Text).label("state"),
        Game.stand_ins,
        Game.outcome,
        Game.rematch_lobby_id,
        Game.updated_at,
        Game.speed,
        Game.turn_seconds,
        Game.clock,
        Game.seats_version,
        Game.options,
        Game.log_length,
        Game.stand_in_level,
        Game.rated,
        Game.unrated_because,
        Lobby.private,
        Lobby.after_end,
        Lobby.invite_code,
        _REMATCH.status.label("rematch_status"),
        _REMATCH.game_id.label("rematch_game_id"),
    )
    .outerjoin(Lobby, Lobby.game_id == Game.id)
    .outerjoin(_REMATCH, _REMATCH.id == Game.rematch_lobby_id)
    .where(Game.id == bindparam("game_id"))
)
_TABLE = ratings.with_ratings(
    select(
        Seat.seat,
        Seat.player_id,
        Seat.bot_level,
        Player.name,
        Player.handle,
        RatingChange.mu_before,
        RatingChange.sigma_before,
        RatingChange.mu_after,
        RatingChange.sigma_after,
    )
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Seat.player_id == Player.id)
    .outerjoin(
        RatingChange, (RatingChange.game_id == Lobby.game_id) & (RatingChange.seat == Seat.seat)
    )
    .where(Lobby.game_id == bindparam("game_id"))
    .order_by(Seat.seat)
)
_SNAPSHOT_SQL = for_asyncpg(_SNAPSHOT).string
_TABLE_SQL = for_asyncpg(_TABLE).string


async def table_seats(session: AsyncSession, game_id: str) -> list[TableSeat]:
    """The game's seats as its table shows them."""
    return _table((await session.execute(_TABLE, {"game_id": game_id})).all())


async def load_snapshot(
    session: AsyncSession, game_id: str, seats_cache: SeatsCache | None = None
) -> Snapshot:
    """The game as stored now. A game's seats only change with ``seats_version`` (a rename),
    so a caller may keep them in ``seats_cache`` and save a query per load.

    On PostgreSQL asyncpg runs the statements itself, on the session's connection: every
    socket's first state and every reload reads a game, and SQLAlchemy's execution path
    around a statement cost more than the statement. The state comes as its stored text
    (``Game.load_json``); the other JSON columns arrive decoded either way (the engine gave
    the connection its JSON codec)."""
    if not storable(game_id):
        raise Problem(404, "No such game.")
    conn = None
    if session.get_bind().dialect.name == "postgresql":
        conn = await driver_connection(session)
        found = await conn.fetchrow(_SNAPSHOT_SQL, game_id)
    else:
        found = (await session.execute(_SNAPSHOT, {"game_id": game_id})).mappings().first()
    if found is None:
        raise Problem(404, "No such game.")
    row = dict(found.items())
    cached = seats_cache.get(game_id) if seats_cache is not None else None
    if cached is not None and cached[0] == row["seats_version"]:
        seats = cached[1]
    else:
        if conn is not None:
            seats = _table(await conn.fetch(_TABLE_SQL, game_id))
        else:
            seats = await table_seats(session, game_id)
        if seats_cache is not None:
            seats_cache[game_id] = (row["seats_version"], seats)
    game = get_game(row["kind"])
    return Snapshot(
        id=game_id,
        kind=row["kind"],
        game=game,
        version=row["version"],
        status=row["status"],
        seed=row["seed"],
        seed_commitment=row["seed_commitment"],
        state=game.load_json(row["state"]),
        seats=seats,
        stand_ins=stand_ins(row["stand_ins"]),
        outcome=row["outcome"],
        rematch_lobby_id=row["rematch_lobby_id"],
        rematch_status=row["rematch_status"],
        rematch_game_id=row["rematch_game_id"],
        updated_at=row["updated_at"],
        speed=row["speed"],
        turn_seconds=row["turn_seconds"],
        clock=Clock.load(row["clock"]),
        options=row["options"] or {},
        chosen_stand_in=row["stand_in_level"],
        rated=bool(row["rated"]),
        unrated_because=row["unrated_because"],
        log=await game_log.tail(session, conn, game_id, row["log_length"]),
        privacy=privacy(row["private"], row["after_end"], row["invite_code"]),
    )
