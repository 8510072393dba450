"""A player's own tables: games under way (theirs to play first; of those, the turn-based ones
by the time they have left), then the ended ones, and the lobbies they sit in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import storable
from app.models import Game, Lobby, Player, Seat, now
from app.services import speeds
from app.services.clock import Clock
from app.services.errors import Problem
from app.services.games import CONCEDED, bot_name, stand_ins
from app.services.lobby_rows import LobbySeats
from engine.registry import get_game


@dataclass
class MyGame:
    row: Game
    you: int
    your_turn: bool
    # When the player's time runs out, while they are to act on a timed table; else the
    # seconds in their bank (None: untimed, or the stand-in plays their seat).
    deadline: datetime | None = None
    left: int | None = None

    @property
    def order(self) -> tuple:
        """Your turn first: the tables played in one sitting (real time, untimed), latest moved
        first, then the turn-based ones, whose time runs out soonest first; then the rest,
        latest moved first."""
        turn_based = self.your_turn and self.deadline is not None and self.pace == "turn-based"
        soonest = self.deadline.timestamp() if turn_based and self.deadline else 0.0
        return (
            not self.your_turn,
            turn_based,
            soonest,
            -self.row.updated_at.timestamp(),
            self.row.id,
        )

    @property
    def pace(self) -> str:
        return speeds.table_clock(self.row.speed, self.row.turn_seconds).pace


def _active(row: Game, seat: int, at: datetime) -> MyGame:
    your_turn = _your_turn(row, seat)
    if stand_ins(row.stand_ins).get(seat) is not None:
        return MyGame(row, seat, your_turn)
    held = Clock.load(row.clock)
    bank = speeds.table_clock(row.speed, row.turn_seconds).bank
    return MyGame(row, seat, your_turn, held.deadlines.get(seat), held.left(seat, bank, at))


def _your_turn(row: Game, seat: int) -> bool:
    if row.status != "active" or stand_ins(row.stand_ins).get(seat) == CONCEDED:
        return False
    game = get_game(row.kind)
    return seat in game.to_act(game.load(row.state))


def _mine(player_id: str):
    return (
        select(Game, Seat.seat)
        .join(Lobby, Lobby.game_id == Game.id)
        .join(Seat, Seat.lobby_id == Lobby.id)
        .where(Seat.player_id == player_id)
    )


async def games_page(
    session: AsyncSession, player_id: str, limit: int, before: str | None
) -> tuple[list[MyGame], bool]:
    """One page of the player's games in order, and whether more follow. ``before`` is the id
    of the last game of the previous page."""
    active = await active_games(session, player_id)
    ended = _mine(player_id).where(Game.status != "active")
    if before is not None:
        at = next((i for i, m in enumerate(active) if m.row.id == before), None)
        if at is not None:
            active = active[at + 1 :]
        else:
            last = await session.get(Game, before) if storable(before) else None
            if last is None or last.status == "active":
                raise Problem(422, "`before` is not a game of yours.")
            active = []
            ended = ended.where(
                or_(
                    Game.updated_at < last.updated_at,
                    and_(Game.updated_at == last.updated_at, Game.id < last.id),
                )
            )
    page = active[:limit]
    if len(page) < limit:
        rows = await session.execute(
            ended.order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit - len(page) + 1)
        )
        page += [MyGame(g, seat, False) for g, seat in rows.all()]
    more = len(active) > limit or len(page) > limit
    return page[:limit], more


async def active_games(session: AsyncSession, player_id: str) -> list[MyGame]:
    """The player's games under way, in order (``MyGame.order``): theirs to play first."""
    rows = await session.execute(_mine(player_id).where(Game.status == "active"))
    at = now()
    return sorted((_active(g, seat, at) for g, seat in rows.all()), key=lambda m: m.order)


async def seats_of(session: AsyncSession, game_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each game's seats (name, bot), in one query."""
    rows = await session.execute(
        select(Lobby.game_id, Seat, Player.name)
        .join(Seat, Seat.lobby_id == Lobby.id)
        .outerjoin(Player, Seat.player_id == Player.id)
        .where(Lobby.game_id.in_(game_ids))
        .order_by(Seat.seat)
    )
    found: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in game_ids}
    for game_id, seat, name in rows.all():
        assert game_id is not None  # only the lobbies of games were asked for
        found[game_id].append(
            {
                "seat": seat.seat,
                "name": name or bot_name(seat.bot_level or ""),
                "bot": seat.bot_level,
            }
        )
    return found


async def open_lobbies(session: AsyncSession, player_id: str) -> list[LobbySeats]:
    """The open lobbies the player sits in or hosts, newest first."""
    seated = select(Seat.lobby_id).where(Seat.player_id == player_id)
    found = await session.scalars(
        select(Lobby)
        .where(Lobby.status == "open", or_(Lobby.id.in_(seated), Lobby.host_id == player_id))
        .order_by(Lobby.created_at.desc(), Lobby.id)
        .limit(50)
    )
    listed = [LobbySeats(lobby, []) for lobby in found.all()]
    by_id = {ls.lobby.id: ls for ls in listed}
    rows = await session.execute(
        select(Seat, Player)
        .outerjoin(Player, Seat.player_id == Player.id)
        .where(Seat.lobby_id.in_(by_id))
        .order_by(Seat.lobby_id, Seat.seat)
    )
    for seat, player in rows.all():
        by_id[seat.lobby_id].seats.append((seat, player))
    return listed
