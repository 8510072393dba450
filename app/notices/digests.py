"""The daily digest: for a confirmed address that chose it, one mail a day listing the
turn-based tables where it is the player's turn, instead of a mail per turn. Nothing is
mailed on a day with no such table."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import Message
from typing import Any

from sqlalchemy import or_, select, update

from app.config import Settings
from app.db import Database, rowcount
from app.models import Game, Lobby, MailAddress, Seat
from app.notices import mail
from app.notices.keys import Keys
from app.notices.outbox import turn_based_games
from app.services.clock import Clock
from engine.registry import get_game

DAY = timedelta(days=1)
# Digests sent per scan; the rest wait for the next one.
BATCH = 50


async def _your_turn(db: Database, player_id: str) -> list[tuple[str, str]]:
    """(game id, game's title) of the turn-based tables where it is the player's move."""
    async with db.session() as session:
        rows = (
            await session.execute(
                select(Game.id, Game.kind, Game.clock, Seat.seat)
                .join(Lobby, Lobby.game_id == Game.id)
                .join(Seat, Seat.lobby_id == Lobby.id)
                .where(Seat.player_id == player_id, Game.status == "active", turn_based_games())
                .order_by(Game.created_at)
            )
        ).all()
    return [(g, get_game(k).title) for g, k, c, s in rows if s in Clock.load(c).deadlines]


async def send_due(
    db: Database, settings: Settings, smtp: mail.Smtp, keys: Keys, at: datetime
) -> int:
    """Send each digest that is due: claimed first (its time moved on by one UPDATE that only
    one instance wins), given back if the mail server fails. How many were sent."""
    due = or_(MailAddress.last_digest_at.is_(None), MailAddress.last_digest_at <= at - DAY)
    async with db.session() as session:
        found = (
            await session.execute(
                select(MailAddress.player_id, MailAddress.address, MailAddress.last_digest_at)
                .where(MailAddress.digest, MailAddress.confirmed_at.is_not(None), due)
                .limit(BATCH)
            )
        ).all()
    sender = mail.Sender(smtp, settings.PUSH_TIMEOUT)
    sent = 0
    try:
        for player_id, address, before in found:
            if not await _claim(db, player_id, due, at):
                continue
            tables = await _your_turn(db, player_id)
            if not tables:
                continue
            if await sender.send(_digest(settings, keys, player_id, address, tables)):
                sent += 1
            else:
                await _give_back(db, player_id, before)
    finally:
        await sender.close()
    return sent


async def _claim(db: Database, player_id: str, due: Any, at: datetime) -> bool:
    async with db.writing() as session:
        moved = await session.execute(
            update(MailAddress)
            .where(MailAddress.player_id == player_id, due)
            .values(last_digest_at=at)
            .execution_options(synchronize_session=False)
        )
        return rowcount(moved) == 1


async def _give_back(db: Database, player_id: str, before: datetime | None) -> None:
    async with db.writing() as session:
        await session.execute(
            update(MailAddress)
            .where(MailAddress.player_id == player_id)
            .values(last_digest_at=before)
            .execution_options(synchronize_session=False)
        )


def _digest(
    settings: Settings, keys: Keys, player_id: str, address: str, tables: list[tuple[str, str]]
) -> Message:
    base = (settings.PUBLIC_URL or "").rstrip("/")
    unsubscribe = (
        f"{base}/api/notices/mail/unsubscribe?token="
        f"{mail.unsubscribe_token(keys, player_id, address)}"
    )
    lines = [f"{title}: {base}/games/{game_id}" for game_id, title in tables]
    count = "1 table" if len(tables) == 1 else f"{len(tables)} tables"
    return mail.compose(
        settings.MAIL_FROM,
        address,
        f"Your move at {count}",
        [f"It is your move at {count} on Campground:", *lines],
        f"{base}/games/{tables[0][0]}",
        "Open the first table",
        unsubscribe,
    )
