"""Moderation, and the audit log of every change an admin makes (who, what, when).

A removed chat line is deleted (its text stays in the audit log) and a muted player cannot
chat until the mute ends; the tables concerned are told by a moderator's line in their chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database, rowcount, storable
from app.models import AdminAction, ChatMessage, ChatMute, Game, Lobby, Player, Seat, now
from app.services.errors import Problem

MODERATOR = "Moderator"
# Every action the audit log records (the type checker holds every ``record(...)`` to them),
# and what it is. The audit log's description names them all, and its schema lists them.
Action = Literal[
    "game.abort",
    "chat.delete",
    "player.mute",
    "player.unmute",
    "player.sign_out",
    "player.suspend",
    "player.unsuspend",
    "ratings.recompute",
]
ACTIONS: dict[Action, str] = {
    "game.abort": "a game aborted",
    "chat.delete": "a chat line removed",
    "player.mute": "a player muted in chat",
    "player.unmute": "a mute lifted",
    "player.sign_out": "a player's signed-in devices signed out",
    "player.suspend": "a player suspended",
    "player.unsuspend": "a suspension lifted",
    "ratings.recompute": "a game's ratings computed again",
}


@dataclass(frozen=True)
class Actor:
    """Who acts: with one shared ADMIN_TOKEN, the name they give and where they are."""

    name: str
    address: str
    request_id: str | None


def record(
    session: AsyncSession, actor: Actor, action: Action, target: str, **details: Any
) -> None:
    """Add the audit entry to ``session``'s transaction: it stands or falls with the change."""
    session.add(
        AdminAction(
            at=now(),
            actor=actor.name,
            address=actor.address,
            request_id=actor.request_id,
            action=action,
            target=target,
            details=details,
        )
    )


async def audit(
    session: AsyncSession,
    *,
    action: str | None,
    since: datetime | None,
    before: int | None,
    limit: int,
) -> list[AdminAction]:
    """Newest first; ``before``: only entries older than that id (the next page)."""
    query = select(AdminAction).order_by(AdminAction.id.desc()).limit(limit)
    if action:
        query = query.where(AdminAction.action == action)
    if since:
        query = query.where(AdminAction.at >= since)
    if before:
        query = query.where(AdminAction.id < before)
    return list((await session.scalars(query)).all())


def _utc(at: datetime) -> datetime:
    # SQLite gives times back without their (UTC) offset.
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def notice(text: str, **extra: Any) -> dict[str, Any]:
    """A moderator's line, as the chat's sockets receive it (it is not stored)."""
    at = now().isoformat().replace("+00:00", "Z")
    return {
        "type": "chat",
        "id": None,
        "seat": None,
        "name": MODERATOR,
        "text": text,
        "at": at,
        **extra,
    }


async def remove_line(db: Database, message_id: int, actor: Actor) -> dict[str, Any]:
    """Delete one chat line; what it was, for the answer and the table."""
    async with db.writing() as session:
        row = await session.get(ChatMessage, message_id)
        if row is None:
            raise Problem(404, "No such chat line.")
        removed = {
            "id": row.id,
            "game_id": row.game_id,
            "lobby_id": row.lobby_id,
            "player_id": row.player_id,
            "name": row.name,
            "text": row.text,
            "at": _utc(row.created_at),
        }
        await session.delete(row)
        record(
            session,
            actor,
            "chat.delete",
            str(message_id),
            game_id=row.game_id,
            lobby_id=row.lobby_id,
            player_id=row.player_id,
            text=row.text,
        )
    return removed


async def _player(session: AsyncSession, player_id: str) -> Player:
    player = await session.get(Player, player_id) if storable(player_id) else None
    if player is None:
        raise Problem(404, "No such player.")
    return player


async def mute(
    db: Database, player_id: str, minutes: int, reason: str | None, actor: Actor
) -> tuple[str, datetime]:
    """The player may not chat for ``minutes``; returns their name and the mute's end."""
    until = now() + timedelta(minutes=minutes)
    async with db.writing() as session:
        player = await _player(session, player_id)
        await session.execute(delete(ChatMute).where(ChatMute.player_id == player_id))
        session.add(ChatMute(player_id=player_id, until=until, reason=reason))
        record(
            session,
            actor,
            "player.mute",
            player_id,
            minutes=minutes,
            reason=reason,
            until=until.isoformat(),
        )
    return player.name, until


async def unmute(db: Database, player_id: str, actor: Actor) -> tuple[str, bool]:
    """Lift the player's mute; their name, and whether they were muted."""
    async with db.writing() as session:
        player = await _player(session, player_id)
        result = await session.execute(
            delete(ChatMute).where(ChatMute.player_id == player_id, ChatMute.until > now())
        )
        record(session, actor, "player.unmute", player_id)
    return player.name, rowcount(result) > 0


async def muted_until(session: AsyncSession, player_id: str, at: datetime) -> datetime | None:
    until = await session.scalar(
        select(ChatMute.until).where(ChatMute.player_id == player_id, ChatMute.until > at)
    )
    return _utc(until) if until is not None else None


async def tables_of(db: Database, player_id: str) -> tuple[list[str], list[str]]:
    """The active games and open lobbies where the player has a seat."""
    async with db.session() as session:
        rows = (
            await session.execute(
                select(Lobby.id, Lobby.status, Game.id, Game.status)
                .join(Seat, Seat.lobby_id == Lobby.id)
                .outerjoin(Game, Game.id == Lobby.game_id)
                .where(Seat.player_id == player_id)
                .where(or_(Lobby.status == "open", Game.status == "active"))
            )
        ).all()
    games = sorted({game_id for _, _, game_id, status in rows if status == "active"})
    lobbies = sorted({lobby_id for lobby_id, status, _, _ in rows if status == "open"})
    return games, lobbies
