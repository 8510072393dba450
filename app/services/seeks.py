"""Open seeks: the public lobbies not yet started, as the home page lists them (the game, the
seats taken, the speed, rated or not, the host and their rating), in one query. Each instance
reads them once per change for all its home sockets (``app.home``)."""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Lobby, Player, Rating, Seat
from app.schemas_queue import Seek, SeekHost
from app.services import ratings, speeds
from app.services.lobby_statements import public_listing
from engine.registry import GAMES

# Seeks listed at most: the newest, at most ``per_host`` of each host.
LISTED = 200


async def open_seeks(session: AsyncSession, per_host: int) -> list[tuple[Seek, float]]:
    """The open seeks, newest first, each with its host's matching rating
    (``ratings.matching_points``)."""
    shown = public_listing(per_host)
    taken = (
        select(func.count())
        .where(
            Seat.lobby_id == Lobby.id, or_(Seat.player_id.is_not(None), Seat.bot_level.is_not(None))
        )
        .scalar_subquery()
    )
    rows = await session.execute(
        select(
            Lobby.id,
            Lobby.game,
            Lobby.seat_count,
            Lobby.speed,
            Lobby.turn_seconds,
            Lobby.rated,
            Lobby.created_at,
            Lobby.host_id,
            Player.name,
            Player.handle,
            Rating.mu,
            Rating.sigma,
            Rating.games,
            taken.label("taken"),
        )
        .join(shown, shown.c.id == Lobby.id)
        .join(Player, Player.id == Lobby.host_id)
        .outerjoin(Rating, and_(Rating.game == Lobby.game, Rating.rater == Lobby.host_id))
        .order_by(Lobby.created_at.desc(), Lobby.id)
        .limit(LISTED)
    )
    return [
        (
            Seek(
                lobby_id=row.id,
                game=row.game,
                title=GAMES[row.game].title,
                seats=row.seat_count,
                taken=row.taken,
                speed=speeds.speed_of(row.speed, row.turn_seconds),
                speed_name=speeds.table_clock(row.speed, row.turn_seconds).words,
                turn_seconds=row.turn_seconds,
                rated=row.rated,
                host=SeekHost(
                    id=row.host_id,
                    name=row.name,
                    handle=row.handle,
                    rating=ratings.shown(row.mu, row.sigma, row.games),
                ),
                created_at=row.created_at,
            ),
            ratings.matching_points(row.mu, row.sigma),
        )
        for row in rows.all()
    ]
