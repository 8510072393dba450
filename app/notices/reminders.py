"""Reminders at a turn-based table: a notice when a quarter of a player's time for their move
is left, and when one hour is, once each (a row of ``reminders`` per seat, deadline and which).

``turn_time`` is the one place that says when a seat's time started and when it runs out; it
reads the table's clock (a deadline per acting person, and when its time started).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, tuple_

from app.db import Database
from app.models import Game, Lobby, Reminder, Seat
from app.notices import outbox
from app.services import speeds
from app.services.clock import Bank, Clock

HOUR = timedelta(hours=1)


def turn_time(clock: Clock, bank: Bank, seat: int) -> tuple[datetime, datetime] | None:
    """When ``seat``'s time for this move started and when it runs out; None when it has none
    running (not to act, or away and played by the bot). A clock kept before it noted the
    start is taken to have started with a full bank."""
    deadline = clock.deadlines.get(seat)
    if deadline is None or seat in clock.away:
        return None
    return clock.since.get(seat, deadline - timedelta(seconds=bank.start)), deadline


def _left(span: timedelta) -> str:
    hours = round(span / HOUR)
    if hours >= 48:
        return f"{round(hours / 24)} days"
    return "1 hour" if hours <= 1 else f"{hours} hours"


def due(started: datetime, deadline: datetime, at: datetime) -> dict[str, str]:
    """The reminders whose time has come by ``at`` (and not yet the deadline): which → how
    much time is left, in words."""
    if at >= deadline:
        return {}
    quarter = (deadline - started) / 4
    found = {}
    if at >= deadline - quarter and quarter > HOUR:
        found["quarter"] = _left(quarter)
    if at >= deadline - HOUR and deadline - started > HOUR:
        found["hour"] = "1 hour"
    return found


async def scan(db: Database, at: datetime) -> int:
    """Write the reminders that have come at every turn-based table; how many were new."""
    async with db.session() as session:
        games = (
            await session.execute(
                select(Game.id, Game.speed, Game.turn_seconds, Game.clock).where(
                    Game.status == "active", outbox.turn_based_games()
                )
            )
        ).all()
    wanted: dict[tuple[str, int, datetime, str], str] = {}
    for game_id, speed, turn_seconds, stored in games:
        clock, bank = Clock.load(stored), speeds.table_clock(speed, turn_seconds).bank
        if bank is None:
            continue
        for seat in clock.deadlines:
            window = turn_time(clock, bank, seat)
            if window is None:
                continue
            for which, left in due(*window, at).items():
                wanted[(game_id, seat, window[1], which)] = left
    if not wanted:
        return 0
    async with db.writing() as session:
        ids = {g for g, _, _, _ in wanted}
        stored = (
            await session.execute(
                select(Reminder.game_id, Reminder.seat, Reminder.deadline, Reminder.which).where(
                    Reminder.game_id.in_(ids)
                )
            )
        ).all()
        sent = {(g, s, utc(d), w) for g, s, d, w in stored}
        new = {k: v for k, v in wanted.items() if k not in sent}
        players = (
            dict(
                ((g, s), p)
                for g, s, p in (
                    await session.execute(
                        select(Lobby.game_id, Seat.seat, Seat.player_id)
                        .join(Seat, Seat.lobby_id == Lobby.id)
                        .where(tuple_(Lobby.game_id, Seat.seat).in_([(g, s) for g, s, _, _ in new]))
                    )
                ).all()
            )
            if new
            else {}
        )
        for (game_id, seat, deadline, which), left in new.items():
            session.add(Reminder(game_id=game_id, seat=seat, deadline=deadline, which=which))
            player = players.get((game_id, seat))
            if player is not None:
                await outbox.add(session, game_id, [(player, "reminder")], left, at)
    return len(new)


def utc(at: datetime) -> datetime:
    """SQLite gives stored times back without their zone; they are UTC."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)
