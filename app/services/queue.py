"""The "Play now" queue: each waiting person's entry (``queue_entries``) with their choices,
kept while a page of theirs is open.

An entry counts while its ``alive_until`` is ahead. Joining gives it a lease of ``lease``
seconds; every open home socket of the person moves it on (``app.home``), and so does asking
for one's place (a heartbeat, for scripts). When the last socket closes the entry stops
counting at once (``expire``), and a page that comes back soon (a reload) revives it. Tables
are formed from the entries that count (``app.services.queue_tables``); an entry seated at a
table keeps the table's id until the person has heard, and entries nobody has kept for
``FORGET`` are deleted (``sweep``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from app.db import Database, rowcount
from app.models import Player, QueueEntry, Rating, now
from app.schemas_queue import QueueJoin, QueuePlace
from app.services import pairing, ratings, speeds
from app.services.errors import Problem
from engine.registry import GAMES

# An entry nobody has kept alive, or seated at a table, for this long is deleted.
FORGET = timedelta(minutes=1)
# What a page left alone is told when its entry is gone.
NOT_WAITING = "You are not waiting for a table."


def _aware(at: datetime) -> datetime:
    # SQLite gives times back without their (UTC) offset.
    return at if at.tzinfo else at.replace(tzinfo=now().tzinfo)


def _choices(player: Player, data: QueueJoin) -> dict:
    """The entry's choices, or a 422 saying which one cannot be."""
    game = GAMES.get(data.game)
    if game is None:
        raise Problem(422, f"Unknown game {data.game!r}; known: {', '.join(GAMES)}.")
    fewest = data.fewest if data.fewest is not None else game.min_players
    most = (
        data.most
        if data.most is not None
        else (data.fewest if data.fewest is not None else game.max_players)
    )
    for count in (fewest, most):
        if not game.min_players <= count <= game.max_players:
            players = (
                f"{game.min_players} players"
                if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players} players"
            )
            raise Problem(422, f"{game.title} is for {players}, not {count}.")
    if fewest > most:
        raise Problem(422, f"The fewest players ({fewest}) is more than the most ({most}).")
    if data.speed not in speeds.SPEEDS:
        raise Problem(422, f"Unknown speed {data.speed!r}; known: {', '.join(speeds.SPEEDS)}.")
    rated = data.rated if data.rated is not None else player.handle is not None
    if rated and player.handle is None:
        raise Problem(
            422, "Only a signed-in player can play rated: add a sign-in first, or play unrated."
        )
    level = data.bot_level
    if level is not None and level not in game.bots:
        raise Problem(422, f"Unknown bot level {level!r}; known: {', '.join(game.bots)}.")
    if data.bots_after is not None and level is None:
        level = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    return {
        "game": game.id,
        "speed": data.speed,
        "rated": rated,
        "fewest": fewest,
        "most": most,
        "bots_after": data.bots_after,
        "bot_level": level if data.bots_after is not None else None,
    }


async def join(
    db: Database, player: Player, data: QueueJoin, lease: float
) -> tuple[QueueEntry, int]:
    """``player`` waits for a table as ``data`` says: one queue at a time (409 while they
    still wait in another), any earlier entry (seated, or no longer kept) replaced. With the
    entry, how many wait for its game now, counted in the same transaction: nothing can fail
    once the join is committed."""
    choices = _choices(player, data)
    at = now()
    try:
        async with db.writing() as session:
            old = await session.get(QueueEntry, player.id, with_for_update=True)
            if old is not None:
                if old.game_id is None and _aware(old.alive_until) >= at:
                    title = GAMES[old.game].title
                    raise Problem(
                        409, f"You are already waiting for {title}: leave that queue first."
                    )
                await session.delete(old)
                await session.flush()
            found = (
                await session.execute(
                    select(Rating.mu, Rating.sigma).where(
                        Rating.game == choices["game"], Rating.rater == player.id
                    )
                )
            ).one_or_none()
            entry = QueueEntry(
                player_id=player.id,
                **choices,
                rating=ratings.matching_points(*(found or (None, None))),
                joined_at=at,
                alive_until=at + timedelta(seconds=lease),
                game_id=None,
            )
            session.add(entry)
            await session.flush()
            waiting = (
                await session.execute(
                    select(func.count()).where(
                        QueueEntry.game == entry.game,
                        QueueEntry.game_id.is_(None),
                        QueueEntry.alive_until >= at,
                    )
                )
            ).scalar_one()
    except IntegrityError:
        # Two joins of one person at once: the other came first.
        raise Problem(409, "You are already waiting for a table: leave that queue first.") from None
    return entry, waiting


async def leave(db: Database, player_id: str) -> None:
    """The person waits no more: 404 if they were not waiting, 409 if a table was formed for
    them first (its lock held the leave until then, so never both)."""
    async with db.writing() as session:
        entry = await session.get(QueueEntry, player_id, with_for_update=True)
        if entry is None:
            raise Problem(404, NOT_WAITING)
        if entry.game_id is not None:
            raise Problem(409, f"Too late: a table was formed for you (/games/{entry.game_id}).")
        await session.delete(entry)


async def place(db: Database, player_id: str, lease: float) -> QueueEntry | None:
    """The person's entry, kept alive another ``lease`` seconds if still waiting."""
    return (await keep(db, [player_id], lease)).get(player_id)


async def keep(db: Database, player_ids: Iterable[str], lease: float) -> dict[str, QueueEntry]:
    """The entries of ``player_ids``, by player, those still waiting kept alive another
    ``lease`` seconds: a read for every page this instance has open, and a write only when
    some of them wait."""
    ids = list(player_ids)
    if not ids:
        return {}
    async with db.session() as session:
        found = await session.scalars(select(QueueEntry).where(QueueEntry.player_id.in_(ids)))
        entries = {entry.player_id: entry for entry in found.all()}
    waiting = [e.player_id for e in entries.values() if e.game_id is None]
    if not waiting:
        return entries
    # One statement: the rows are locked no longer than it takes (a pass forming tables skips
    # the rows it finds locked).
    async with db.writing() as session:
        kept = await session.scalars(
            update(QueueEntry)
            .where(QueueEntry.player_id.in_(waiting), QueueEntry.game_id.is_(None))
            .values(alive_until=now() + timedelta(seconds=lease))
            .returning(QueueEntry)
            .execution_options(synchronize_session=False)
        )
        return entries | {entry.player_id: entry for entry in kept.all()}


async def expire(db: Database, player_ids: Iterable[str]) -> None:
    """These people's last pages here closed: their entries stop counting now (another page
    of theirs, on another instance, keeps it again within seconds)."""
    ids = list(player_ids)
    if not ids:
        return
    at = now()
    async with db.writing() as session:
        await session.execute(
            update(QueueEntry)
            .where(
                QueueEntry.player_id.in_(ids),
                QueueEntry.game_id.is_(None),
                QueueEntry.alive_until > at,
            )
            .values(alive_until=at)
            .execution_options(synchronize_session=False)
        )


async def waiting(db: Database) -> dict[str, int]:
    """How many people wait for each game now."""
    async with db.session() as session:
        rows = await session.execute(
            select(QueueEntry.game, func.count())
            .where(QueueEntry.game_id.is_(None), QueueEntry.alive_until >= now())
            .group_by(QueueEntry.game)
        )
        return dict(rows.all())


async def sweep(db: Database) -> int:
    """Delete the entries nobody has kept, or that were seated, ``FORGET`` ago."""
    async with db.writing() as session:
        result = await session.execute(
            delete(QueueEntry)
            .where(QueueEntry.alive_until < now() - FORGET)
            .execution_options(synchronize_session=False)
        )
        return rowcount(result)


async def matching_ratings(db: Database, player_id: str) -> dict[str, float]:
    """The person's matching rating in each game they have a rating in."""
    async with db.session() as session:
        rows = await session.execute(
            select(Rating.game, Rating.mu, Rating.sigma).where(Rating.rater == player_id)
        )
        return {game: ratings.matching_points(mu, sigma) for game, mu, sigma in rows.all()}


def pairing_entry(entry: QueueEntry) -> pairing.Entry:
    return pairing.Entry(
        entry.player_id,
        entry.game,
        entry.speed,
        entry.rated,
        entry.fewest,
        entry.most,
        entry.rating,
        _aware(entry.joined_at),
        entry.bots_after,
        entry.bot_level,
    )


def shown(entry: QueueEntry, counts: dict[str, int]) -> QueuePlace:
    """The entry as its person sees it, with how many wait for its game (``waiting``)."""
    waited = max(0.0, (now() - _aware(entry.joined_at)).total_seconds())
    gap = pairing.accepted_gap(waited)
    return QueuePlace(
        game=entry.game,
        title=GAMES[entry.game].title,
        fewest=entry.fewest,
        most=entry.most,
        speed=entry.speed,
        rated=entry.rated,
        bots_after=entry.bots_after,
        bot_level=entry.bot_level,
        joined_at=entry.joined_at,
        waited=round(waited, 1),
        rating=round(entry.rating),
        gap=None if gap == float("inf") else round(gap),
        waiting=counts.get(entry.game, 0),
        game_id=entry.game_id,
    )
