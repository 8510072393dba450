"""Tables formed from the "Play now" queue: the pairing's tables (``app.services.pairing``)
written as started games, one game kind at a time, by one instance at a time.

For each game kind, one transaction takes PostgreSQL's advisory lock of that kind's queue
(``pg_try_advisory_xact_lock``: an instance that finds it taken leaves the kind to the one
forming it), locks the entries that count (``FOR UPDATE SKIP LOCKED``: an entry a leave or a
join holds is left for the next pass), and writes every table formed: the game, a started
public lobby with its seats, the setup's log entries, and the table's id on each entry seated.
A leave waits on the entry's lock, so it either comes first (the entry is gone) or finds the
table (409): nobody is seated at a table they left. An instance that dies mid-pass never
commits, so every entry is as it was and the next pass, on any instance, forms the table.
SQLite serves one instance, whose writes go one at a time.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database
from app.models import Lobby, LogEntry, QueueEntry, Seat, now
from app.services import game_log, pairing
from app.services.clock import Timing
from app.services.games import create_game, new_id
from app.services.lobbies import invite_code
from app.services.queue import pairing_entry
from engine.registry import GAMES

# The first key of the queue's advisory locks; the second is the game kind's.
LOCK = 0x504C4159  # "PLAY"
_shuffle = random.SystemRandom().shuffle


@dataclass(frozen=True)
class Formed:
    """A table formed: its game, when it next needs the server, and who sits at it."""

    game_id: str
    kind: str
    due_at: datetime | None
    players: tuple[str, ...]
    bots: int
    spread: float


def _lock_key(kind: str) -> int:
    """The game kind as a signed 32-bit key."""
    crc = zlib.crc32(kind.encode())
    return crc - 2**32 if crc >= 2**31 else crc


async def form(db: Database, timing: Timing) -> list[Formed]:
    """Form every table the queue allows now."""
    async with db.session() as session:
        kinds = (
            await session.scalars(
                select(QueueEntry.game)
                .distinct()
                .where(QueueEntry.game_id.is_(None), QueueEntry.alive_until >= now())
            )
        ).all()
    formed: list[Formed] = []
    for kind in sorted(kinds):
        formed += await form_kind(db, kind, timing)
    return formed


async def form_kind(db: Database, kind: str, timing: Timing) -> list[Formed]:
    """The tables of one game kind, in one transaction."""
    async with db.writing() as session:
        if db.postgres and not await session.scalar(
            select(func.pg_try_advisory_xact_lock(LOCK, _lock_key(kind)))
        ):
            return []  # another instance is forming this game's tables
        at = now()
        rows = (
            await session.scalars(
                select(QueueEntry)
                .where(
                    QueueEntry.game == kind,
                    QueueEntry.game_id.is_(None),
                    QueueEntry.alive_until >= at,
                )
                .with_for_update(skip_locked=True)
            )
        ).all()
        by_player = {row.player_id: row for row in rows}
        formed = []
        for table in pairing.form([pairing_entry(row) for row in rows], at):
            formed.append(await _write(session, table, timing))
            for person in table.people:
                by_player[person.player_id].game_id = formed[-1].game_id
    return formed


async def _write(session: AsyncSession, table: pairing.Table, timing: Timing) -> Formed:
    """One table: its game, its started lobby and seats (in a random order: no one is host
    of it), and the setup's log entries."""
    first = table.people[0]
    seats: list[str | None] = [p.player_id for p in table.people] + [None] * table.bots
    _shuffle(seats)
    game = GAMES[first.game]
    lobby = Lobby(
        id=new_id(),
        game=game.id,
        options=game.options(None).model_dump(mode="json"),
        seat_count=table.size,
        private=False,
        invite_code=invite_code(),
        host_id=next(s for s in seats if s is not None),
        status="started",
        speed=first.speed,
        rated=first.rated,
        stand_in_level=table.bot_level,
        closes_at=None,
        removed=[],
    )
    # A suspended person cannot join the queue, so nobody at a formed table starts away.
    people = {i for i, s in enumerate(seats) if s is not None}
    row, entries = create_game(lobby, people, timing, suspended=set())
    session.add(row)
    await session.flush()
    log_rows = game_log.rows(row.id, 0, entries)
    if log_rows:
        await session.execute(insert(LogEntry), log_rows)
    lobby.game_id = row.id
    session.add(lobby)
    await session.flush()
    session.add_all(
        [
            Seat(
                lobby_id=lobby.id,
                seat=i,
                player_id=player,
                bot_level=table.bot_level if player is None else None,
                reserved_for=None,
                reserved_until=None,
            )
            for i, player in enumerate(seats)
        ]
    )
    await session.flush()
    return Formed(
        row.id,
        game.id,
        row.due_at,
        tuple(p.player_id for p in table.people),
        table.bots,
        table.spread(),
    )
