"""A lobby's rows: read (with its seats and their players' ratings), and changed in one
transaction on either database.

On PostgreSQL a change runs on asyncpg itself (``app.services.lobby_statements``): the lobby
row locked, its seats read, and only what the change touched written back (``_store``). Through
the session, its unit of work and its transaction, the same statements cost the server several
times what they cost PostgreSQL. SQLite takes the session's path. ``changing`` gives both paths
the same shape, so the rules of a change (``app.services.lobbies``) are written once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import asyncpg
from sqlalchemy import ColumnElement, insert, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import names
from app.db import Database, row_values, storable, table_of
from app.models import Game, Lobby, LogEntry, Player, ReplacedInviteCode, Seat, now
from app.schemas import LobbyOut, PlayerOut, SeatOut
from app.services import game_log, ratings
from app.notices import outbox
from app.services.speeds import shown as speed_fields
from app.services.games import stand_in_level
from app.services.errors import Problem
from app.services.lobby_statements import (
    INSERT_GAME,
    INSERT_REPLACED,
    LOBBIES,
    LOBBY_CHANGES,
    LOCK,
    RATING,
    RATING_OF,
    REMATCH,
    REMATCH_OF,
    REPLACED_CODE,
    SEATED,
    SEATS,
    SEAT_CHANGES,
    UPDATE_LOBBY,
    UPDATE_SEAT,
)
from app.services.watching import privacy
from engine.core import Event
from engine.registry import GAMES


@dataclass
class LobbySeats:
    lobby: Lobby
    seats: list[tuple[Seat, Player | None]]
    # Ratings in the lobby's game as loaded, by rater (``ratings.shown``), and every rater
    # whose rating was looked up (found or not).
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    looked_up: set[str] = field(default_factory=set)

    def rated_seats(self, rows: Sequence[tuple[Seat, Player | None, Any, Any, Any]]) -> LobbySeats:
        """The seats of ``rows`` (a seat, its player, and its rating's mu, sigma and games)."""
        self.seats = [(seat, person) for seat, person, *_ in rows]
        for seat, _, mu, sigma, games in rows:
            self.rate(ratings.rater_of(seat.player_id, seat.bot_level), mu, sigma, games)
        return self

    def rate(self, rater: str, mu: Any, sigma: Any, games: Any) -> None:
        self.looked_up.add(rater)
        rating = ratings.shown(mu, sigma, games)
        if rating is not None:
            self.ratings[rater] = rating

    def unrated(self) -> list[str]:
        """The raters seated since the lobby was loaded (a bot added, a player come in)."""
        seated = [
            ratings.rater_of(s.player_id, s.bot_level)
            for s, _ in self.seats
            if s.player_id is not None or s.bot_level is not None
        ]
        return [r for r in dict.fromkeys(seated) if r not in self.looked_up]

    def seat_of(self, player_id: str | None) -> int | None:
        return next((s.seat for s, p in self.seats if p is not None and p.id == player_id), None)

    def member(self, player_id: str | None) -> bool:
        """Seated, hosting, or kept a seat by a rematch."""
        return player_id is not None and (
            self.seat_of(player_id) is not None
            or player_id == self.lobby.host_id
            or any(s.reserved_for == player_id and reserved(s) for s, _ in self.seats)
        )

    def may_watch(self, player_id: str | None, invite: str | None) -> bool:
        """A private lobby is for its members and whoever holds its invite code, like its
        table (``app.services.watching``)."""
        lobby = self.lobby
        return (
            not lobby.private
            or self.member(player_id)
            or privacy(lobby.private, lobby.after_end, lobby.invite_code).invited(invite)
        )

    def may_read_chat(self, player_id: str | None) -> bool:
        return not self.lobby.private or self.seat_of(player_id) is not None

    def free_seats(self) -> list[Seat]:
        return [s for s, _ in self.seats if s.player_id is None and s.bot_level is None]

    def open_to(self, player_id: str) -> list[Seat]:
        """The free seats ``player_id`` may take: the one kept for them first, then those kept
        for nobody (or no longer)."""
        free = self.free_seats()
        mine = [s for s in free if s.reserved_for == player_id]
        return mine + [s for s in free if s.reserved_for is None or not reserved(s)]

    def seated_again(self, actor: Player) -> None:
        """Pair each seat with its player after a change made in this transaction (``actor``,
        who made it, may have just sat down or got up), so the lobby renders as committed
        without reading it back."""
        people = {p.id: p for _, p in self.seats if p is not None} | {actor.id: actor}
        self.seats = [
            (s, None if s.player_id is None else people.get(s.player_id)) for s, _ in self.seats
        ]

    def out(self, viewer_id: str | None, base_url: str) -> LobbyOut:
        lobby = self.lobby
        you = self.seat_of(viewer_id)
        member = you is not None or viewer_id == lobby.host_id
        seated = [p for _, p in self.seats if p is not None]
        shown = dict(zip([p.id for p in seated], names.distinct([p.name for p in seated])))
        # A rated table is rated only if every person at it has a sign-in.
        unrated = {
            p.id: f"{shown[p.id]} has no sign-in"
            for p in seated
            if lobby.rated and p.handle is None
        }
        return LobbyOut(
            id=lobby.id,
            game=lobby.game,
            title=GAMES[lobby.game].title,
            options=lobby.options,
            **speed_fields(lobby.speed, lobby.turn_seconds),
            private=lobby.private,
            after_end=lobby.after_end if lobby.private else None,
            rated=lobby.rated and not unrated,
            stand_in_level=stand_in_level(GAMES[lobby.game], lobby.stand_in_level),
            status=lobby.status,
            host_id=lobby.host_id,
            seats=[
                SeatOut(
                    seat=s.seat,
                    player=PlayerOut(id=p.id, name=shown[p.id], handle=p.handle)
                    if p is not None
                    else None,
                    bot=s.bot_level,
                    rating=self.ratings.get(ratings.rater_of(s.player_id, s.bot_level))
                    if p is not None or s.bot_level is not None
                    else None,
                    reserved_for=s.reserved_for if reserved(s) else None,
                    reserved_until=s.reserved_until if reserved(s) else None,
                    unrated_because=unrated.get(p.id) if p is not None else None,
                )
                for s, p in self.seats
            ],
            game_id=lobby.game_id,
            invite_code=lobby.invite_code if member else None,
            invite_url=f"{base_url.rstrip('/')}/join/{lobby.invite_code}" if member else None,
            you=you,
            removed=self.removed(viewer_id),
        )

    def removed(self, viewer_id: str | None) -> bool:
        """Whether the host removed ``viewer_id`` since the invite code was last made."""
        return viewer_id is not None and viewer_id in (self.lobby.removed or [])


NO_SUCH_LOBBY = "No such lobby."


async def load(session: AsyncSession, lobby_id: str, *, for_update: bool = False) -> LobbySeats:
    if not storable(lobby_id):
        raise Problem(404, NO_SUCH_LOBBY)
    return await _load(session, Lobby.id == lobby_id, NO_SUCH_LOBBY, for_update)


REPLACED = "The host has replaced this invite link: ask them for the new one."


async def load_by_invite_code(session: AsyncSession, code: str) -> LobbySeats:
    if not storable(code):
        raise Problem(404, "No lobby has this invite code.")
    try:
        return await _load(
            session, Lobby.invite_code == code.strip(), "No lobby has this invite code.", False
        )
    except Problem:
        if await session.get(ReplacedInviteCode, code.strip()) is not None:
            raise Problem(410, REPLACED) from None
        raise


async def _load(
    session: AsyncSession, which: ColumnElement[bool], missing: str, for_update: bool
) -> LobbySeats:
    """The lobby and its seats with their players. A read takes one statement. A change
    locks the lobby's row first and reads the seats after: a statement that locked the
    lobby while joining its seats would, once a concurrent change let go of the lock, still
    show the seats as they were when it began."""
    fresh = {"populate_existing": True}
    if for_update:
        lobby = await session.scalar(
            select(Lobby).where(which).with_for_update().execution_options(**fresh)
        )
        if lobby is None:
            raise Problem(404, missing)
        rows = await session.execute(
            ratings.with_ratings(
                select(Seat, Player)
                .join(Lobby, Lobby.id == Seat.lobby_id)
                .outerjoin(Player, Seat.player_id == Player.id)
                .where(Seat.lobby_id == lobby.id)
                .order_by(Seat.seat)
            ).execution_options(**fresh)
        )
        return LobbySeats(lobby, []).rated_seats(rows.all())
    found = (
        await session.execute(
            ratings.with_ratings(
                select(Lobby, Seat, Player)
                .outerjoin(Seat, Seat.lobby_id == Lobby.id)
                .outerjoin(Player, Seat.player_id == Player.id)
                .where(which)
                .order_by(Seat.seat)
            ).execution_options(**fresh)
        )
    ).all()
    if not found:
        raise Problem(404, missing)
    return LobbySeats(found[0][0], []).rated_seats([row[1:] for row in found if row[1] is not None])


async def _locked(
    conn: asyncpg.Connection, by: InstrumentedAttribute[str], key: str, missing: str
) -> LobbySeats:
    """The lobby whose ``by`` is ``key``, its row locked, and then its seats (see ``_load``)."""
    row = await conn.fetchrow(LOCK[by.key].sql, key)
    if row is None:
        if by is Lobby.invite_code and await conn.fetchval(REPLACED_CODE.sql, key) is not None:
            raise Problem(410, REPLACED)
        raise Problem(404, missing)
    lobby = Lobby(**{c.key: row[c.name] for c in LOBBIES.columns})
    seats = []
    for found in await conn.fetch(SEATED.sql, lobby.id):
        seat = Seat(**{c.key: found[c.name] for c in SEATS.columns})
        person = None
        if seat.player_id is not None:
            person = Player(
                id=seat.player_id,
                name=found["player_name"],
                handle=found["player_handle"],
                suspended_at=found["player_suspended_at"],
            )
        seats.append((seat, person, found["mu"], found["sigma"], found["games"]))
    return LobbySeats(lobby, []).rated_seats(seats)


def _as_stored(ls: LobbySeats) -> tuple[list[Any], list[list[Any]]]:
    return (
        [getattr(ls.lobby, name) for name in LOBBY_CHANGES],
        [[getattr(seat, name) for name in SEAT_CHANGES] for seat, _ in ls.seats],
    )


async def _store(
    conn: asyncpg.Connection, ls: LobbySeats, stored: tuple[list[Any], list[list[Any]]]
) -> None:
    """Writes what changed in ``ls`` since it was ``stored`` (``_as_stored``)."""
    lobby, seats = _as_stored(ls)
    changed = [
        UPDATE_SEAT.args(
            {"lobby": ls.lobby.id, "number": seat.seat} | dict(zip(SEAT_CHANGES, after))
        )
        for (seat, _), after, before in zip(ls.seats, seats, stored[1])
        if after != before
    ]
    if changed:
        await conn.executemany(UPDATE_SEAT.sql, changed)
    if lobby != stored[0]:
        await conn.execute(
            UPDATE_LOBBY.sql,
            *UPDATE_LOBBY.args({"lobby": ls.lobby.id} | dict(zip(LOBBY_CHANGES, lobby))),
        )


def _which(lobby_id: str | None, code: str | None) -> tuple[InstrumentedAttribute[str], str, str]:
    """How a change finds its lobby: by id, or else by invite code."""
    if lobby_id is not None:
        return Lobby.id, lobby_id, "No such lobby."
    return Lobby.invite_code, (code or "").strip(), "No lobby has this invite code."


class _Changing:
    """A lobby, its row locked, in the transaction that changes it (``changing``): on
    asyncpg's own connection (PostgreSQL) or through the session."""

    def __init__(self, ls: LobbySeats, on: asyncpg.Connection | AsyncSession):
        self.ls, self._on = ls, on

    async def insert_game(self, game: Game, entries: list[Event]) -> None:
        """The game's row and its setup's log entries, inserted before the lobby that points
        at it is written."""
        rows = game_log.rows(game.id, 0, entries)
        if isinstance(self._on, AsyncSession):
            self._on.add(game)
            await self._on.flush()
            if rows:
                await self._on.execute(insert(LogEntry), rows)
        else:
            await self._on.execute(
                INSERT_GAME.sql, *INSERT_GAME.args(row_values(table_of(Game), game))
            )
            if rows:
                await self._on.executemany(
                    game_log.INSERT.sql, [game_log.INSERT.args(r) for r in rows]
                )

    async def tell(self, game_id: str, told: list[tuple[str, str]]) -> None:
        """Notices of the change, in its transaction (``app.notices``)."""
        await outbox.tell(self._on, game_id, told)

    async def rematch_of(self) -> tuple[str, int] | None:
        """The ended game whose rematch this lobby is, with its version; None for a lobby
        that is no rematch."""
        args = {"lobby_id": self.ls.lobby.id}
        if isinstance(self._on, AsyncSession):
            found = (await self._on.execute(REMATCH_OF, args)).first()
        else:
            found = await self._on.fetchrow(REMATCH.sql, *REMATCH.args(args))
        return (found[0], found[1]) if found else None

    async def replace_code(self, old: str) -> None:
        """Remember ``old`` as replaced, so that its link says so."""
        row = {"code": old, "lobby_id": self.ls.lobby.id}
        if isinstance(self._on, AsyncSession):
            self._on.add(ReplacedInviteCode(**row))
        else:
            await self._on.execute(INSERT_REPLACED.sql, *INSERT_REPLACED.args(row))


@asynccontextmanager
async def changing(
    db: Database, lobby_id: str | None, code: str | None
) -> AsyncIterator[_Changing]:
    """The lobby ``lobby_id`` (or else the lobby of invite ``code``), locked, in one
    transaction that writes whatever the block changed in it."""
    by, key, missing = _which(lobby_id, code)
    if not storable(key):
        raise Problem(404, missing)
    if db.postgres:
        async with db.driver((Problem,)) as conn, conn.transaction():
            ls = await _locked(conn, by, key, missing)
            stored = _as_stored(ls)
            yield _Changing(ls, conn)
            await _store(conn, ls, stored)
            # The change answers with the ratings of whoever it seated, as a reload would.
            for rater in ls.unrated():
                row = await conn.fetchrow(
                    RATING.sql, *RATING.args({"game": ls.lobby.game, "rater": rater})
                )
                ls.rate(rater, *(row or (None, None, None)))
    else:
        async with db.writing() as session:
            try:
                ls = await _load(session, by == key, missing, True)
            except Problem:
                if (
                    by is Lobby.invite_code
                    and await session.get(ReplacedInviteCode, key) is not None
                ):
                    raise Problem(410, REPLACED) from None
                raise
            yield _Changing(ls, session)
            for rater in ls.unrated():
                row = (
                    await session.execute(RATING_OF, {"game": ls.lobby.game, "rater": rater})
                ).one_or_none()
                ls.rate(rater, *(row or (None, None, None)))


def reserved(seat: Seat) -> bool:
    """Whether ``seat`` is still kept for the player of a rematch."""
    until = seat.reserved_until
    if seat.reserved_for is None or seat.player_id is not None or until is None:
        return False
    # SQLite gives times back without their (UTC) offset.
    return (until if until.tzinfo else until.replace(tzinfo=UTC)) > now()
