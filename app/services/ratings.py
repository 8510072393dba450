"""Ratings: one OpenSkill rating (Plackett–Luce) per game per rater, a rater being a signed-in
player or a bot level, updated in the transaction that ends a rated game.

A game is rated when its lobby said so and, at its end, every seat is a signed-in person or a
bot. Places come from the stored outcome: the winners share first place, the other seats
follow by score (equal scores share a place), and seats given up for good (a concession, a
suspension) share last place. A game whose ``rating_changes`` rows exist has been rated:
processing its end again changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Select, String, and_, delete, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, Lobby, Player, Rating, RatingChange, Seat, now

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
# Shown points: 60 per OpenSkill mu, so a newcomer reads 1500.
POINTS_PER_MU = 60
# A rating stays provisional while its uncertainty is this high (it starts at 25/3 and
# falls below after five to ten games).
PROVISIONAL_SIGMA = 6.0
BOT = "bot:"


def points(mu: float) -> int:
    return round(POINTS_PER_MU * mu)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def bot_rater(level: str) -> str:
    return f"{BOT}{level}"


def rater_of(player_id: str | None, bot: str | None) -> str:
    """Whose rating a seat's is: its bot level's, else its player's."""
    return bot_rater(bot) if bot is not None else player_id or ""


def shown(mu: float | None, sigma: float | None, games: int | None) -> dict[str, Any] | None:
    """A rating as players see it; None for no rating yet."""
    if mu is None or sigma is None:
        return None
    return {"points": points(mu), "provisional": provisional(sigma), "games": games or 0}


def with_ratings(seats: Select) -> Select:
    """``seats`` (a query of seats joined to their lobby) with each seat's rating in the
    lobby's game: its mu, sigma and games, None where it has none (a guest, a newcomer)."""
    rater = func.coalesce(Seat.player_id, literal_column(f"'{BOT}'", String) + Seat.bot_level)
    return seats.outerjoin(
        Rating, and_(Rating.game == Lobby.game, Rating.rater == rater)
    ).add_columns(Rating.mu, Rating.sigma, Rating.games)


def places(outcome: dict[str, Any], players: int, given_up: Iterable[int]) -> list[int]:
    """Each seat's place (0 first; equal places are ties) in a finished game's outcome."""
    last = set(given_up) | set(outcome.get("conceded") or [])
    winners = set(outcome.get("winners") or []) - last
    scores = outcome.get("scores") or []

    def key(seat: int) -> tuple:
        if seat in last:
            return (2, 0)
        if seat in winners:
            return (0, 0)
        return (1, -(scores[seat] if seat < len(scores) else 0))

    keys = [key(seat) for seat in range(players)]
    # Competition ranking: a place is one more than the number of seats strictly ahead.
    return [sum(1 for k in keys if k < mine) for mine in keys]


@dataclass(frozen=True)
class Seated:
    seat: int
    rater: str | None  # None: a guest sits here, so the game is not rated


def _rater(player_id: str | None, handle: str | None, bot: str | None) -> str | None:
    if bot is not None:
        return bot_rater(bot)
    return player_id if handle is not None else None


def new_ratings(
    before: list[tuple[float, float]], seat_places: list[int]
) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game, from before it and the seats' places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=seat_places)
    return [(team[0].mu, team[0].sigma) for team in rated]


_SEATS = (
    select(Seat.seat, Seat.player_id, Player.handle, Seat.bot_level)
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .order_by(Seat.seat)
)


async def game_ended(session: AsyncSession, game_id: str) -> bool:
    """Rate the game that just ended in ``session``'s transaction, if it is rated and was not
    rated before. Returns whether it was rated now."""
    game = (await session.execute(
        select(Game.kind, Game.status, Game.rated, Game.outcome, Game.stand_ins)
        .where(Game.id == game_id)
    )).one_or_none()
    if game is None or game.status != "finished" or not game.rated:
        return False
    done = await session.scalar(
        select(RatingChange.seat).where(RatingChange.game_id == game_id).limit(1)
    )
    if done is not None:
        return False
    seats = [
        Seated(seat, _rater(player_id, handle, bot))
        for seat, player_id, handle, bot in (
            await session.execute(_SEATS.where(Lobby.game_id == game_id))
        ).all()
    ]
    if not seats or any(s.rater is None for s in seats):
        return False
    given_up = [int(seat) for seat in (game.stand_ins or {})]
    seat_places = places(game.outcome or {}, len(seats), given_up)
    await _rate(session, game.kind, game_id, seats, seat_places)
    return True


async def _rate(
    session: AsyncSession, kind: str, game_id: str, seats: list[Seated], seat_places: list[int]
) -> None:
    raters = [s.rater for s in seats]
    held = {
        r.rater: r
        for r in await session.scalars(
            select(Rating).where(Rating.game == kind, Rating.rater.in_(set(raters)))
        )
    }
    # Two seats of one bot level are one rater: each seat is rated from where it stood
    # before the game, and the rater keeps the later seat's result.
    before = [(held[r].mu, held[r].sigma) if r in held else (MU, SIGMA) for r in raters]
    after = new_ratings(before, seat_places)
    at = now()
    for seated, place, (mu0, sigma0), (mu1, sigma1) in zip(seats, seat_places, before, after):
        session.add(RatingChange(
            game_id=game_id, seat=seated.seat, kind=kind, rater=seated.rater, place=place,
            mu_before=mu0, sigma_before=sigma0, mu_after=mu1, sigma_after=sigma1, created_at=at,
        ))
        row = held.get(seated.rater)
        if row is None:
            row = Rating(game=kind, rater=seated.rater, mu=mu1, sigma=sigma1, games=0)
            held[seated.rater] = row
            session.add(row)
        row.mu, row.sigma, row.updated_at = mu1, sigma1, at
        row.games += 1
    await session.flush()


async def recompute(session: AsyncSession, kind: str) -> int:
    """Every rating of game ``kind`` again, from the stored records of its rated games
    (their seats and outcomes), oldest first. Returns how many games were rated."""
    rated = (await session.execute(
        select(RatingChange.game_id, RatingChange.seat, RatingChange.rater, Game.outcome,
               Game.stand_ins, Lobby.seat_count)
        .join(Game, Game.id == RatingChange.game_id)
        .join(Lobby, Lobby.game_id == Game.id)
        .where(RatingChange.kind == kind)
        .order_by(Game.finished_at, Game.id, RatingChange.seat)
    )).all()
    games: dict[str, tuple[Any, Any, int, list[Seated]]] = {}
    for game_id, seat, rater, outcome, stand_ins, count in rated:
        games.setdefault(game_id, (outcome, stand_ins, count, []))[3].append(Seated(seat, rater))
    await session.execute(delete(RatingChange).where(RatingChange.kind == kind))
    await session.execute(delete(Rating).where(Rating.game == kind))
    for game_id, (outcome, stand_ins, count, seats) in games.items():
        given_up = [int(seat) for seat in (stand_ins or {})]
        await _rate(session, kind, game_id, seats, places(outcome or {}, count, given_up))
    return len(games)


async def count(session: AsyncSession, kind: str) -> int:
    """How many raters game ``kind`` has."""
    return await session.scalar(select(func.count()).where(Rating.game == kind))
