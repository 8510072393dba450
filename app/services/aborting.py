"""A game stopped for good, by an admin or because every person at it has been away."""

from __future__ import annotations

from sqlalchemy import update

from app.db import Database, rowcount
from app.models import Game, now
from app.notices import outbox


async def abort_game(db: Database, game_id: str, version: int | None = None) -> bool:
    """Stop an active game for good (at ``version``, when given); False if it was not
    active (or had moved on). Each person seated hears of it off the site, as of any end."""
    async with db.writing() as session:
        query = update(Game).where(Game.id == game_id, Game.status == "active")
        if version is not None:
            query = query.where(Game.version == version)
        at = now()
        result = await session.execute(
            query.values(
                status="aborted", updated_at=at, finished_at=at, due_at=None
            ).execution_options(synchronize_session=False)
        )
        if rowcount(result) != 1:
            return False
        seated = await outbox.seating(session, game_id)
        people = sorted({p for bot, p in seated.values() if p is not None and bot is None})
        await outbox.add(session, game_id, [(p, "ended") for p in people], "aborted", at=at)
        return True
