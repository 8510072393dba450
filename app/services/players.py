"""Guest players: a display name and a random bearer token of which only the hash is kept."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Player
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
