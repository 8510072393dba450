"""Profiles and leaderboards: what anyone may see of a signed-in player.

A profile holds the player's handle, the name they show at tables, their rating in each game
and their latest rated games. Only rated games appear: a rated table's every seat is a
signed-in player (who sat down at a table marked rated) or a bot, so no guest's name and no
unrated table's existence is ever shown. A private table is listed to its own player only,
on their own profile: to anyone else it does not exist (``app.services.watching``). Guests
have no profile. Suspended players leave the leaderboards.

A leaderboard ranks by the conservative rating (``rating_rules.ordinal``) and lists the people
with enough rated games against enough different opponents, and every bot level that has
played, as landmarks of the ladder.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import storable
from app.models import Game, Lobby, Player, Rating, RatingChange
from app.schemas import RatingShown
from app.schemas_accounts import (
    LeaderboardEntry,
    Profile,
    ProfileGame,
    ProfileRating,
    ProfileSeat,
)
from app.services import accounts, rating_rules, ratings
from app.services.errors import Problem
from app.services.games import bot_name
from engine.registry import GAMES

RECENT_GAMES = 20
LEADERBOARD_SIZE = 100


def _shown(mu: float, sigma: float, games: int) -> RatingShown:
    return RatingShown(**ratings.shown(mu, sigma, games))


async def profile(session: AsyncSession, handle: str, viewer_id: str | None = None) -> Profile:
    """The profile of ``handle`` as ``viewer_id`` (None: a visitor) may see it."""
    missing = Problem(404, "No player has this handle.")
    if not storable(handle):
        raise missing
    player = await session.scalar(
        select(Player).where(Player.handle_key == accounts.handle_key(handle))
    )
    if player is None:
        raise missing
    held = await session.scalars(
        select(Rating).where(Rating.rater == player.id).order_by(Rating.games.desc(), Rating.game)
    )
    shown = [
        ProfileRating(game=r.game, title=GAMES[r.game].title, rating=_shown(r.mu, r.sigma, r.games))
        for r in held.all()
        if r.game in GAMES
    ]
    return Profile(
        handle=player.handle,
        name=player.name,
        ratings=shown,
        recent=await _recent(session, player.id, own=viewer_id == player.id),
    )


async def _recent(session: AsyncSession, player_id: str, own: bool) -> list[ProfileGame]:
    """The player's latest rated games; private tables only on their ``own`` profile."""
    query = (
        select(RatingChange, Game.finished_at)
        .join(Game, Game.id == RatingChange.game_id)
        .where(RatingChange.rater == player_id)
    )
    if not own:
        query = query.outerjoin(Lobby, Lobby.game_id == Game.id).where(Lobby.private.is_not(True))
    mine = (
        await session.execute(
            query.order_by(RatingChange.created_at.desc(), RatingChange.game_id).limit(RECENT_GAMES)
        )
    ).all()
    game_ids = [change.game_id for change, _ in mine]
    seats = (
        await session.execute(
            select(
                RatingChange.game_id,
                RatingChange.seat,
                RatingChange.rater,
                RatingChange.place,
                Player.handle,
            )
            .outerjoin(Player, Player.id == RatingChange.rater)
            .where(RatingChange.game_id.in_(game_ids))
            .order_by(RatingChange.game_id, RatingChange.seat)
        )
    ).all()
    by_game: dict[str, list[ProfileSeat]] = {game_id: [] for game_id in game_ids}
    for game_id, seat, rater, place, handle in seats:
        bot = rater.removeprefix(ratings.BOT) if rater.startswith(ratings.BOT) else None
        by_game[game_id].append(ProfileSeat(seat=seat, handle=handle, bot=bot, place=place))
    return [
        ProfileGame(
            game_id=change.game_id,
            game=change.kind,
            title=GAMES[change.kind].title if change.kind in GAMES else change.kind,
            finished_at=finished_at,
            place=change.place,
            points_before=ratings.points(change.mu_before),
            points_after=ratings.points(change.mu_after),
            seats=by_game[change.game_id],
            replay_url=f"/games/{change.game_id}",
        )
        for change, finished_at in mine
    ]


async def leaderboard(
    session: AsyncSession, kind: str, limit: int, offset: int
) -> tuple[list[LeaderboardEntry], int | None]:
    """One page of game ``kind``'s leaderboard, best first by the conservative rating: players
    who are not suspended and have played enough, and bots. Returns the page and the next
    page's offset (None on the last)."""
    if kind not in GAMES:
        raise Problem(404, "There is no such game kind.")
    limit = max(0, min(limit, LEADERBOARD_SIZE - offset))
    rows = (
        (
            await session.execute(
                select(Rating, Player.handle, Player.name)
                .outerjoin(Player, Player.id == Rating.rater)
                .where(
                    Rating.game == kind,
                    (Player.id.is_(None) & Rating.rater.startswith(ratings.BOT))
                    | (
                        Player.handle.is_not(None)
                        & Player.suspended_at.is_(None)
                        & (Rating.games >= rating_rules.LEADERBOARD_GAMES)
                        & (Rating.opponents >= rating_rules.LEADERBOARD_OPPONENTS)
                    ),
                )
                .order_by(Rating.ordinal.desc(), Rating.games.desc(), Rating.rater)
                .offset(offset)
                .limit(limit + 1)
            )
        ).all()
        if limit
        else []
    )
    entries = []
    for i, (rating, handle, name) in enumerate(rows[:limit]):
        bot = None if handle else rating.rater.removeprefix(ratings.BOT)
        entries.append(
            LeaderboardEntry(
                rank=offset + i + 1,
                handle=handle,
                bot=bot,
                name=name or bot_name(bot or ""),
                rating=_shown(rating.mu, rating.sigma, rating.games),
                ranked_by=ratings.points(rating.ordinal),
            )
        )
    more = len(rows) > limit and offset + limit < LEADERBOARD_SIZE
    return entries, offset + limit if more else None
