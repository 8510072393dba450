"""Writing notices: rows of ``notices``, in the transaction of the change that causes them.

A row is written only for a player who asked for notices (a push subscription, or a confirmed
address), so a table of people who never did costs a move nothing but the check.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    DateTime,
    String,
    and_,
    bindparam,
    exists,
    func,
    insert,
    or_,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Prepared
from app.models import Game, Lobby, MailAddress, Notice, PushSubscription, Seat, now
from app.services import speeds

# What a device may ask to be told of; a reminder goes with "turn".
KINDS = ("turn", "ended", "rematch", "invite", "chat")
# A table played turn-based (``app.services.speeds``: a turn-based speed, or a per-move clock
# of an hour or more): its people are not expected to wait at the page, so it mails "your
# turn", reminds, and passes on its chat.
TURN_BASED_SPEEDS = sorted(s.id for s in speeds.SPEEDS.values() if s.pace == "turn-based")


def turn_based(speed: str | None, turn_seconds: int | None) -> bool:
    return speeds.table_clock(speed, turn_seconds).pace == "turn-based"


def turn_based_games() -> ColumnElement[bool]:
    """``turn_based`` as a condition on games, for the scans."""
    return or_(
        Game.speed.in_(TURN_BASED_SPEEDS),
        and_(Game.speed.is_(None), Game.turn_seconds >= speeds.HOUR),
    )


def wants_notices(player_id: ColumnElement[Any]) -> ColumnElement[bool]:
    """Whether the player has anywhere to be told: a push subscription or a confirmed address."""
    return or_(
        exists().where(PushSubscription.player_id == player_id),
        exists().where(MailAddress.player_id == player_id, MailAddress.confirmed_at.is_not(None)),
    )


def of_move(
    acting_before: Iterable[int],
    acting: Iterable[int],
    people: set[int],
    away: Iterable[int],
    players: dict[int, str | None],
    mover: int,
    ended: bool,
) -> list[tuple[str, str]]:
    """(player id, kind) for a move: everyone seated hears of the end; otherwise each person
    whose turn it now is and was not before (the mover, still acting, is at the page)."""
    if ended:
        told = [p for s, p in sorted(players.items()) if p is not None and s in people]
        return [(p, "ended") for p in dict.fromkeys(told)]
    before, gone = set(acting_before), set(away)
    turns = [
        players.get(s)
        for s in acting
        if s in people and s not in gone and s not in before and s != mover
    ]
    return [(p, "turn") for p in dict.fromkeys(turns) if p is not None]


async def seating(conn: Any, game_id: str) -> dict[int, tuple[str | None, str | None]]:
    """Each seat's bot level and player id (a session or a connection)."""
    rows = await conn.execute(
        select(Seat.seat, Seat.bot_level, Seat.player_id)
        .join(Lobby, Lobby.id == Seat.lobby_id)
        .where(Lobby.game_id == game_id)
    )
    return {seat: (bot, player) for seat, bot, player in rows.all()}


async def add(
    session: AsyncSession,
    game_id: str | None,
    told: Iterable[tuple[str, str]],
    detail: str | None = None,
    at: datetime | None = None,
) -> None:
    """Write a notice per (player id, kind) in ``told`` to those who want notices."""
    told = list(told)
    if not told:
        return
    ids = {p for p, _ in told}
    wanting = set(
        (
            await session.scalars(
                select(func.distinct(PushSubscription.player_id))
                .where(PushSubscription.player_id.in_(ids))
                .union(
                    select(MailAddress.player_id).where(
                        MailAddress.player_id.in_(ids), MailAddress.confirmed_at.is_not(None)
                    )
                )
            )
        ).all()
    )
    at = at or now()
    rows: list[dict[str, Any]] = [
        {
            "player_id": p,
            "game_id": game_id,
            "kind": k,
            "detail": detail,
            "created_at": at,
            "next_try_at": at,
            "tries": 0,
            "done": [],
        }
        for p, k in told
        if p in wanting
    ]
    if rows:
        await session.execute(insert(Notice), rows)


async def chat(session: AsyncSession, game_id: str, player_id: str, line: str) -> None:
    """A chat line at a turn-based table: each other person seated there is told."""
    clock = (
        await session.execute(select(Game.speed, Game.turn_seconds).where(Game.id == game_id))
    ).one_or_none()
    if clock is None or not turn_based(*clock):
        return
    seated = await seating(session, game_id)
    others = {p for bot, p in seated.values() if p is not None and bot is None and p != player_id}
    await add(session, game_id, [(p, "chat") for p in sorted(others)], line[:300])


def _tell_statement() -> Any:
    """Notices written on a connection of asyncpg's own: one game's, one array per column."""
    told = (
        func.unnest(
            bindparam("told_players", type_=ARRAY(String)),
            bindparam("told_kinds", type_=ARRAY(String)),
        )
        .table_valued("player_id", "kind")
        .render_derived(name="told")
    )
    at = bindparam("at", type_=DateTime(timezone=True))
    return insert(Notice).from_select(
        ["player_id", "game_id", "kind", "created_at", "next_try_at"],
        select(
            told.c.player_id,
            bindparam("game_id", type_=String),
            told.c.kind,
            at.label("created_at"),
            at.label("next_try_at"),
        ).where(wants_notices(told.c.player_id)),
    )


_TELL = Prepared(_tell_statement())


async def tell(conn: Any, game_id: str, told: list[tuple[str, str]]) -> None:
    """``add`` on a session, or on a connection of asyncpg's own (``Database.driver``)."""
    if not told:
        return
    if isinstance(conn, AsyncSession):
        await add(conn, game_id, told)
        return
    await conn.execute(
        _TELL.sql,
        *_TELL.args(
            {
                "told_players": [p for p, _ in told],
                "told_kinds": [k for _, k in told],
                "game_id": game_id,
                "at": now(),
            }
        ),
    )


def in_one_statement(moved: Any, at: Any) -> Any:
    """For a move's one statement on PostgreSQL: a CTE that writes the move's notices (the
    ``told_players`` and ``told_kinds`` arrays) if the move's update (``moved``) matched."""
    told = (
        func.unnest(
            bindparam("told_players", type_=ARRAY(String)),
            bindparam("told_kinds", type_=ARRAY(String)),
        )
        .table_valued("player_id", "kind")
        .render_derived(name="told")
    )
    return (
        insert(Notice)
        .from_select(
            ["player_id", "game_id", "kind", "created_at", "next_try_at"],
            select(
                told.c.player_id,
                moved.c.id,
                told.c.kind,
                at.label("created_at"),
                at.label("next_try_at"),
            )
            .select_from(moved.join(told, true()))
            .where(wants_notices(told.c.player_id)),
        )
        .cte("noticed")
    )
