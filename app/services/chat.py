"""Table chat: a game's, or a lobby's before its start. Stored, rate-limited per player."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import metrics
from app.db import Database, storable
from app.models import ChatMessage, Player, now
from app.notices import outbox
from app.services import moderation
from app.services.errors import Problem, Suspended

MAX_CHARS = 300
RATE = 5
WINDOW = timedelta(seconds=10)
HISTORY = 100


class TooFast(Problem):
    def __init__(self, retry_after: float) -> None:
        metrics.LIMITED.labels("chat messages").inc()
        seconds = int(WINDOW.total_seconds())
        super().__init__(429, f"Slow down: at most {RATE} messages every {seconds} seconds.")
        self.retry_after = max(1, math.ceil(retry_after))


def clean(text: Any) -> str:
    """The message as stored: trimmed, 1 to ``MAX_CHARS`` characters."""
    if not isinstance(text, str):
        raise Problem(422, "A chat message needs a text.")
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHARS:
        raise Problem(422, f"A chat message is 1 to {MAX_CHARS} characters long.")
    if not storable(text):
        raise Problem(422, "A chat message cannot contain NUL or lone surrogate characters.")
    return text


def _utc(at: datetime) -> datetime:
    # SQLite gives times back without their (UTC) offset.
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def event(row: ChatMessage) -> dict[str, Any]:
    """The line as every socket at the table receives it."""
    return {
        "type": "chat",
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        # As the HTTP API writes times.
        "at": _utc(row.created_at).isoformat().replace("+00:00", "Z"),
    }


async def post(
    db: Database,
    player_id: str,
    seat: int,
    text: Any,
    *,
    game_id: str | None = None,
    lobby_id: str | None = None,
) -> dict[str, Any]:
    """Store one line by the player at ``seat``; ``TooFast`` (nothing stored) beyond ``RATE``
    lines per ``WINDOW``, counted over every table."""
    text = clean(text)
    async with db.writing() as session:
        # The player's row is locked, so two lines sent at once are counted one after the other.
        name, suspended_at = (
            await session.execute(
                select(Player.name, Player.suspended_at)
                .where(Player.id == player_id)
                .with_for_update()
            )
        ).one()
        if suspended_at is not None:
            raise Suspended()
        at = now()
        until = await moderation.muted_until(session, player_id, at)
        if until is not None:
            raise Problem(
                403,
                f"A moderator muted you in chat until {until:%H:%M} UTC on {until.day} {until:%B}.",
            )
        recent, oldest = (
            await session.execute(
                select(func.count(), func.min(ChatMessage.created_at)).where(
                    ChatMessage.player_id == player_id, ChatMessage.created_at > at - WINDOW
                )
            )
        ).one()
        if recent >= RATE:
            raise TooFast((_utc(oldest) + WINDOW - at).total_seconds())
        row = ChatMessage(
            game_id=game_id,
            lobby_id=lobby_id,
            player_id=player_id,
            seat=seat,
            name=name,
            text=text,
            created_at=at,
        )
        session.add(row)
        if game_id is not None:
            await outbox.chat(session, game_id, player_id, f"{name}: {text}")
    return event(row)


async def history(
    session: AsyncSession, *, game_id: str | None = None, lobby_id: str | None = None
) -> list[dict[str, Any]]:
    """The latest ``HISTORY`` lines, oldest first."""
    where = ChatMessage.game_id == game_id if game_id else ChatMessage.lobby_id == lobby_id
    rows = await session.scalars(
        select(ChatMessage).where(where).order_by(ChatMessage.id.desc()).limit(HISTORY)
    )
    return [event(row) for row in reversed(rows.all())]
