"""Guest players: a display name and a random bearer token of which only the hash is kept."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import bindparam, insert, or_, select, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database, Prepared, for_asyncpg, row_values, storable
from app.models import Game, Lobby, Player, PlayerSession, Seat, now
from app.services.games import new_id

COOKIE = "campground_token"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_INSERT = Prepared(insert(Player.__table__))


async def create(db: Database, name: str) -> tuple[Player, str]:
    """A new guest and their token. On PostgreSQL asyncpg runs the one insert itself, a
    transaction of its own: the session's unit of work, BEGIN and COMMIT around it cost
    several times the insert."""
    token = secrets.token_urlsafe(32)
    player = Player(id=new_id(), name=name, token_hash=token_hash(token), created_at=now())
    if db.postgres:
        async with db.driver() as conn:
            await conn.execute(_INSERT.sql, *_INSERT.args(row_values(Player.__table__, player)))
    else:
        async with db.writing() as session:
            session.add(player)
    return player, token


_PLAYER = select(Player.id, Player.name, Player.handle, Player.suspended_at, Player.created_at)
# A guest's token is on the player; each signed-in device's is a session of its own.
_BY_TOKEN = union_all(
    _PLAYER.where(Player.token_hash == bindparam("token_hash")),
    _PLAYER.join(PlayerSession, PlayerSession.player_id == Player.id).where(
        PlayerSession.token_hash == bindparam("token_hash")
    ),
)
_BY_TOKEN_SQL = for_asyncpg(_BY_TOKEN).string


async def by_token(db: Database, token: str | None) -> Player | None:
    """The player behind ``token`` (a guest's, or a signed-in device's), detached from any
    session. Every request and socket that names a player asks this: on PostgreSQL asyncpg
    runs the statement itself, without the session and execution path around it that cost
    twice the statement's own work."""
    if not token or not storable(token):
        return None
    digest = token_hash(token)
    if db.postgres:
        async with db.driver() as conn:
            row = await conn.fetchrow(_BY_TOKEN_SQL, digest)
    else:
        async with db.session() as session:
            row = (await session.execute(_BY_TOKEN, {"token_hash": digest})).first()
    if row is None:
        return None
    player_id, name, handle, suspended_at, created_at = row
    return Player(
        id=player_id, name=name, handle=handle, suspended_at=suspended_at, created_at=created_at
    )


# Ended games whose sockets still hear of a rename: results stay on screen for a while.
RENAME_REACHES_ENDED = timedelta(days=1)


async def rename(
    session: AsyncSession, player_id: str, name: str
) -> tuple[dict[str, int], list[str]]:
    """Rename the player in every seat they hold (the seats point at the player). Returns the
    games whose sockets should show it (id: version), and the open lobbies they sit in."""
    await session.execute(update(Player).where(Player.id == player_id).values(name=name))
    lobby_ids = select(Seat.lobby_id).where(Seat.player_id == player_id)
    game_ids = select(Lobby.game_id).where(Lobby.id.in_(lobby_ids), Lobby.game_id.is_not(None))
    # Every instance loads these games' seats (and so the name) again.
    await session.execute(
        update(Game)
        .where(Game.id.in_(game_ids))
        .values(seats_version=Game.seats_version + 1)
        .execution_options(synchronize_session=False)
    )
    live = await session.execute(
        select(Game.id, Game.version).where(
            Game.id.in_(game_ids),
            or_(Game.status == "active", Game.updated_at > now() - RENAME_REACHES_ENDED),
        )
    )
    lobbies = await session.scalars(
        select(Lobby.id).where(Lobby.id.in_(lobby_ids), Lobby.status == "open")
    )
    return {game_id: version for game_id, version in live.all()}, list(lobbies.all())
