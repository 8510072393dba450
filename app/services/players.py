"""Guest players: a display name and a random bearer token of which only the hash is kept."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from datetime import UTC, timedelta

from sqlalchemy import bindparam, insert, null, or_, select, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database, Prepared, for_asyncpg, row_values, storable, table_of
from app.models import Game, Lobby, Player, PlayerSession, Seat, now
from app.services.games import new_id

COOKIE = "campground_token"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_INSERT = Prepared(insert(table_of(Player)))


async def create(db: Database, name: str) -> tuple[Player, str]:
    """A new guest and their token. On PostgreSQL asyncpg runs the one insert itself, a
    transaction of its own: the session's unit of work, BEGIN and COMMIT around it cost
    several times the insert."""
    token = secrets.token_urlsafe(32)
    player = Player(id=new_id(), name=name, token_hash=token_hash(token), created_at=now())
    if db.postgres:
        async with db.driver() as conn:
            await conn.execute(_INSERT.sql, *_INSERT.args(row_values(table_of(Player), player)))
    else:
        async with db.writing() as session:
            session.add(player)
    return player, token


_PLAYER = select(Player.id, Player.name, Player.handle, Player.suspended_at, Player.created_at)
# A guest's token is on the player; each signed-in device's is a session of its own, whose id
# and last use come along (a guest's are null).
_BY_TOKEN = union_all(
    _PLAYER.add_columns(
        null().cast(PlayerSession.id.type), null().cast(PlayerSession.last_used_at.type)
    ).where(Player.token_hash == bindparam("token_hash")),
    _PLAYER.add_columns(PlayerSession.id, PlayerSession.last_used_at)
    .join(PlayerSession, PlayerSession.player_id == Player.id)
    .where(PlayerSession.token_hash == bindparam("token_hash")),
)
_BY_TOKEN_SQL = for_asyncpg(_BY_TOKEN).string
# A device's last use is written at most this often: not one write per request.
TOUCH_EVERY = timedelta(minutes=5)


async def by_token(db: Database, token: str | None) -> Player | None:
    """The player behind ``token`` (a guest's, or a signed-in device's), detached from any
    session. Every request and socket that names a player asks this: on PostgreSQL asyncpg
    runs the statement itself, without the session and execution path around it that cost
    twice the statement's own work. A device's last use is brought up to date when stale."""
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
    player_id, name, handle, suspended_at, created_at, device, used = row
    if device is not None and (used is None or now() - used.replace(tzinfo=UTC) > TOUCH_EVERY):
        async with db.writing() as session:
            await session.execute(
                update(PlayerSession).where(PlayerSession.id == device).values(last_used_at=now())
            )
    return Player(
        id=player_id, name=name, handle=handle, suspended_at=suspended_at, created_at=created_at
    )


# Token hashes asked about per statement: far below any database's limit on parameters.
ASKED_AT_ONCE = 500


async def still_valid(db: Database, digests: Collection[str]) -> set[str]:
    """Which of these token hashes still name a player: a guest's, or a signed-in device's."""
    found: set[str] = set()
    ordered = sorted(digests)
    async with db.session() as session:
        for start in range(0, len(ordered), ASKED_AT_ONCE):
            some = ordered[start : start + ASKED_AT_ONCE]
            rows = await session.scalars(
                union_all(
                    select(Player.token_hash).where(Player.token_hash.in_(some)),
                    select(PlayerSession.token_hash).where(PlayerSession.token_hash.in_(some)),
                )
            )
            found.update(rows.all())
    return found


# Ended games whose sockets still hear of a rename: results stay on screen for a while.
RENAME_REACHES_ENDED = timedelta(days=1)


async def rename(
    session: AsyncSession, player_id: str, name: str
) -> tuple[dict[str, int], list[str]]:
    """Rename the player in every seat they hold (the seats point at the player). Returns the
    games whose sockets should show it (id: version), and the open lobbies they sit in."""
    await session.execute(update(Player).where(Player.id == player_id).values(name=name))
    return await seats_changed(session, player_id)


async def seats_changed(session: AsyncSession, player_id: str) -> tuple[dict[str, int], list[str]]:
    """The player's seats read differently now (a new name, a sign-in added). Returns the
    games whose sockets should show it (id: version), and the open lobbies they sit in."""
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
