"""A game's log: its entries are rows (``log_entries``), written once with the move or the
setup that made them, never with the game's state. A view carries the latest entries and the
log's length; older ones are read a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import bindparam, insert, select

from app.db import Prepared, table_of
from app.models import LogEntry
from engine.core import Event, log_view

# The entries a view carries (a socket's first state, a sync, a page load).
SHOWN = 50
# The entries a game's hub holds, so that a socket a few moves behind still gets a patch.
KEPT = 200
# The most entries one page of ``GET /api/games/{id}/log`` gives.
PAGE_MAX = 200


def rows(game_id: str, first: int, entries: Sequence[Event]) -> list[dict[str, Any]]:
    """The rows of ``entries``, the game's entries from number ``first`` on."""
    return [
        {"game_id": game_id, "n": first + i, "seat": e.seat, "text": e.text}
        for i, e in enumerate(entries)
    ]


INSERT = Prepared(insert(table_of(LogEntry)))

# Bounded by the length the game's row gave: a move committed between reading the row and its
# log would otherwise put its entries under the older version.
_LATEST = (
    select(LogEntry.seat, LogEntry.text)
    .where(LogEntry.game_id == bindparam("game_id"), LogEntry.n < bindparam("length"))
    .order_by(LogEntry.n.desc())
    .limit(SHOWN)
)
_LATEST_PG = Prepared(_LATEST)


@dataclass(frozen=True)
class Tail:
    """The latest entries of a game's log that an instance holds, oldest first, and how many
    entries the log has in all."""

    entries: list[Event] = field(default_factory=list)
    length: int = 0

    def latest(self) -> list[dict[str, Any]]:
        """The latest ``SHOWN`` entries, as seats read them."""
        return log_view(self.entries[-SHOWN:])

    def since(self, n: int) -> list[dict[str, Any]] | None:
        """The entries from number ``n`` on, as seats read them; None when they are no
        longer all held."""
        held = self.length - len(self.entries)
        return log_view(self.entries[n - held :]) if held <= n <= self.length else None

    def follows(self, entries: list[Event], length: int) -> bool:
        """Whether ``entries`` are the ones right after this tail, making ``length``."""
        return self.length + len(entries) == length

    def after(self, entries: list[Event], length: int) -> Tail:
        """This tail with ``entries`` (a move's) appended; only them if they do not follow."""
        kept = self.entries + entries if self.follows(entries, length) else list(entries)
        return Tail(kept[-KEPT:], length)


def _events(found: Sequence[Any]) -> list[Event]:
    return [Event(text=text, seat=seat) for seat, text in reversed(found)]


async def tail(session: Any, conn: Any, game_id: str, length: int) -> Tail:
    """The game's latest ``SHOWN`` entries, with the log's ``length``; read on ``conn``
    (asyncpg's own connection) when given, else on ``session``."""
    if not length:
        return Tail()
    if conn is not None:
        found = [
            tuple(r)
            for r in await conn.fetch(
                _LATEST_PG.sql, *_LATEST_PG.args({"game_id": game_id, "length": length})
            )
        ]
    else:
        found = (await session.execute(_LATEST, {"game_id": game_id, "length": length})).all()
    return Tail(_events(found), length)


async def entries(session: Any, game_id: str) -> list[Event]:
    """The game's whole log, oldest first."""
    found = await session.execute(
        select(LogEntry.seat, LogEntry.text).where(LogEntry.game_id == game_id).order_by(LogEntry.n)
    )
    return [Event(text=text, seat=seat) for seat, text in found.all()]


async def page_rows(session: Any, game_id: str, before: int, limit: int) -> list[tuple[Any, ...]]:
    """Up to ``limit`` entries numbered below ``before`` as rows (seat, text), newest first:
    ``encoded_page`` makes the page of them."""
    found = await session.execute(
        select(LogEntry.seat, LogEntry.text)
        .where(LogEntry.game_id == game_id, LogEntry.n < before, LogEntry.n >= 0)
        .order_by(LogEntry.n.desc())
        .limit(limit)
    )
    return [tuple(row) for row in found.all()]


def encoded_page(game_id: str, length: int, before: int, found: list[tuple[Any, ...]]) -> bytes:
    """``LogPage`` JSON of the rows ``page_rows`` read, oldest first, as a seat reads them."""
    return orjson.dumps(
        {
            "game_id": game_id,
            "log_length": length,
            "before": before,
            "entries": log_view(_events(found)),
        }
    )
