"""Guest players: a display name and a random bearer token of which only the hash is kept."""

from __future__ import annotations

import hashlib
import secrets

from datetime import timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, Lobby, Player, Seat, now
from app.services.games import new_id

COOKIE = "campground_token"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(session: AsyncSession, name: str) -> tuple[Player, str]:
    token = secrets.token_urlsafe(32)
    player = Player(id=new_id(), name=name, token_hash=token_hash(token))
    session.add(player)
    return player, token


async def by_token(session: AsyncSession, token: str | None) -> Player | None:
    if not token:
        return None
    return await session.scalar(select(Player).where(Player.token_hash == token_hash(token)))


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
