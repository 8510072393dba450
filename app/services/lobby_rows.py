"""A lobby's rows: read (with its seats and their players' ratings), and changed in one
transaction on either database.

On PostgreSQL a change runs on asyncpg itself: the lobby row locked, its seats read, and only
what the change touched written back (``_store``). Through the session, its unit of work and
its transaction, the same statements cost the server several times what they cost PostgreSQL.
SQLite takes the session's path. ``changing`` gives both paths the same shape, so the rules of
a change (``app.services.lobbies``) are written once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import asyncpg
from sqlalchemy import ColumnElement, bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import names
from app.db import Database, Prepared, row_values, storable
from app.models import Game, Lobby, LogEntry, Player, Rating, ReplacedInviteCode, Seat, now
from app.schemas import LobbyOut, PlayerOut, SeatOut
from app.services import game_log, ratings
from app.services.games import stand_in_level
from app.services.errors import Problem
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

    def rated_seats(self, rows: list[tuple[Seat, Player | None, Any, Any, Any]]) -> LobbySeats:
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
        seated = [ratings.rater_of(s.player_id, s.bot_level) for s, _ in self.seats
                  if s.player_id is not None or s.bot_level is not None]
        return [r for r in dict.fromkeys(seated) if r not in self.looked_up]

    def seat_of(self, player_id: str | None) -> int | None:
        return next((s.seat for s, p in self.seats if p is not None and p.id == player_id), None)

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
        self.seats = [(s, people.get(s.player_id)) for s, _ in self.seats]

    def out(self, viewer_id: str | None, base_url: str) -> LobbyOut:
        lobby = self.lobby
        you = self.seat_of(viewer_id)
        member = you is not None or viewer_id == lobby.host_id
        seated = [p for _, p in self.seats if p is not None]
        shown = dict(zip([p.id for p in seated], names.distinct([p.name for p in seated])))
        return LobbyOut(
            id=lobby.id,
            game=lobby.game,
            title=GAMES[lobby.game].title,
            options=lobby.options,
            turn_seconds=lobby.turn_seconds,
            private=lobby.private,
            rated=lobby.rated,
            stand_in_level=stand_in_level(GAMES[lobby.game], lobby.stand_in_level),
            status=lobby.status,
            host_id=lobby.host_id,
            seats=[
                SeatOut(
                    seat=s.seat,
                    player=PlayerOut(id=p.id, name=shown[p.id], handle=p.handle)
                    if p is not None else None,
                    bot=s.bot_level,
                    rating=self.ratings.get(ratings.rater_of(s.player_id, s.bot_level))
                    if p is not None or s.bot_level is not None else None,
                    reserved_for=s.reserved_for if reserved(s) else None,
                    reserved_until=s.reserved_until if reserved(s) else None,
                )
                for s, p in self.seats
            ],
            game_id=lobby.game_id,
            invite_code=lobby.invite_code if member else None,
            invite_url=f"{base_url.rstrip('/')}/join/{lobby.invite_code}" if member else None,
            you=you,
        )


async def load(session: AsyncSession, lobby_id: str, *, for_update: bool = False) -> LobbySeats:
    if not storable(lobby_id):
        raise Problem(404, "No such lobby.")
    return await _load(session, Lobby.id == lobby_id, "No such lobby.", for_update)


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
    found = (await session.execute(
        ratings.with_ratings(
            select(Lobby, Seat, Player)
            .outerjoin(Seat, Seat.lobby_id == Lobby.id)
            .outerjoin(Player, Seat.player_id == Player.id)
            .where(which)
            .order_by(Seat.seat)
        ).execution_options(**fresh)
    )).all()
    if not found:
        raise Problem(404, missing)
    return LobbySeats(found[0][0], []).rated_seats([row[1:] for row in found if row[1] is not None])


# PostgreSQL: the statements that create, change and start a lobby, run by asyncpg itself.
# Through the session, its unit of work and its transaction, they cost the server several
# times what they cost PostgreSQL, and setting up a game took about 40 ms of the server's CPU.
LOBBIES, SEATS = Lobby.__table__, Seat.__table__


HOSTED_BY = select(func.count()).where(
    Lobby.host_id == bindparam("host_id"), Lobby.status == "open"
)


HOSTED = Prepared(HOSTED_BY)


INSERT_LOBBY = Prepared(insert(LOBBIES))


INSERT_SEAT = Prepared(insert(SEATS))


_INSERT_GAME = Prepared(insert(Game.__table__))


_LOCK = {
    column.key: Prepared(select(LOBBIES).where(column == bindparam("key")).with_for_update())
    for column in (Lobby.id, Lobby.invite_code)
}
_RATING_OF = select(Rating.mu, Rating.sigma, Rating.games).where(
    Rating.game == bindparam("game"), Rating.rater == bindparam("rater")
)
_RATING = Prepared(_RATING_OF)
_REPLACED = Prepared(select(ReplacedInviteCode.code).where(
    ReplacedInviteCode.code == bindparam("code")
))
_INSERT_REPLACED = Prepared(insert(ReplacedInviteCode.__table__))


_SEATED = Prepared(ratings.with_ratings(
    select(SEATS, Player.name.label("player_name"), Player.handle.label("player_handle"))
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Seat.player_id == Player.id)
    .where(Seat.lobby_id == bindparam("lobby_id"))
    .order_by(Seat.seat)
))


# What a change to a lobby may change: the lobby's status, its game, when it closes, its
# invite code and whom the host removed, and who sits in each seat.
_LOBBY_CHANGES = ("status", "game_id", "closes_at", "invite_code", "removed", "stand_in_level")


_SEAT_CHANGES = ("player_id", "bot_level", "reserved_for", "reserved_until")


_UPDATE_LOBBY = Prepared(
    update(LOBBIES)
    .where(Lobby.id == bindparam("lobby"))
    .values({name: bindparam(name) for name in _LOBBY_CHANGES})
)


_UPDATE_SEAT = Prepared(
    update(SEATS)
    .where(Seat.lobby_id == bindparam("lobby"), Seat.seat == bindparam("number"))
    .values({name: bindparam(name) for name in _SEAT_CHANGES})
)


async def _locked(
    conn: asyncpg.Connection, by: InstrumentedAttribute[str], key: str, missing: str
) -> LobbySeats:
    """The lobby whose ``by`` is ``key``, its row locked, and then its seats (see ``_load``)."""
    row = await conn.fetchrow(_LOCK[by.key].sql, key)
    if row is None:
        if by is Lobby.invite_code and await conn.fetchval(_REPLACED.sql, key) is not None:
            raise Problem(410, REPLACED)
        raise Problem(404, missing)
    lobby = Lobby(**{c.key: row[c.name] for c in LOBBIES.columns})
    seats = []
    for found in await conn.fetch(_SEATED.sql, lobby.id):
        seat = Seat(**{c.key: found[c.name] for c in SEATS.columns})
        person = None
        if seat.player_id is not None:
            person = Player(id=seat.player_id, name=found["player_name"],
                            handle=found["player_handle"])
        seats.append((seat, person, found["mu"], found["sigma"], found["games"]))
    return LobbySeats(lobby, []).rated_seats(seats)


def _as_stored(ls: LobbySeats) -> tuple[list[Any], list[list[Any]]]:
    return (
        [getattr(ls.lobby, name) for name in _LOBBY_CHANGES],
        [[getattr(seat, name) for name in _SEAT_CHANGES] for seat, _ in ls.seats],
    )


async def _store(
    conn: asyncpg.Connection, ls: LobbySeats, stored: tuple[list[Any], list[list[Any]]]
) -> None:
    """Writes what changed in ``ls`` since it was ``stored`` (``_as_stored``)."""
    lobby, seats = _as_stored(ls)
    changed = [
        _UPDATE_SEAT.args(
            {"lobby": ls.lobby.id, "number": seat.seat} | dict(zip(_SEAT_CHANGES, after))
        )
        for (seat, _), after, before in zip(ls.seats, seats, stored[1])
        if after != before
    ]
    if changed:
        await conn.executemany(_UPDATE_SEAT.sql, changed)
    if lobby != stored[0]:
        await conn.execute(
            _UPDATE_LOBBY.sql,
            *_UPDATE_LOBBY.args({"lobby": ls.lobby.id} | dict(zip(_LOBBY_CHANGES, lobby))),
        )


def _which(
    lobby_id: str | None, code: str | None
) -> tuple[InstrumentedAttribute[str], str, str]:
    """How a change finds its lobby: by id, or else by invite code."""
    if lobby_id is not None:
        return Lobby.id, lobby_id, "No such lobby."
    return Lobby.invite_code, (code or "").strip(), "No lobby has this invite code."


class _Changing:
    """A lobby, its row locked, in the transaction that changes it (``changing``)."""

    def __init__(self, ls: LobbySeats, conn: asyncpg.Connection | None,
                 session: AsyncSession | None):
        self.ls, self._conn, self._session = ls, conn, session

    async def insert_game(self, game: Game, entries: list[Event]) -> None:
        """The game's row and its setup's log entries, inserted before the lobby that points
        at it is written."""
        rows = game_log.rows(game.id, 0, entries)
        if self._conn is not None:
            await self._conn.execute(
                _INSERT_GAME.sql, *_INSERT_GAME.args(row_values(Game.__table__, game))
            )
            if rows:
                await self._conn.executemany(
                    game_log.INSERT.sql, [game_log.INSERT.args(r) for r in rows]
                )
        else:
            self._session.add(game)
            await self._session.flush()
            if rows:
                await self._session.execute(insert(LogEntry), rows)

    async def replace_code(self, old: str) -> None:
        """Remember ``old`` as replaced, so that its link says so."""
        row = {"code": old, "lobby_id": self.ls.lobby.id}
        if self._conn is not None:
            await self._conn.execute(_INSERT_REPLACED.sql, *_INSERT_REPLACED.args(row))
        else:
            self._session.add(ReplacedInviteCode(**row))


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
            yield _Changing(ls, conn, None)
            await _store(conn, ls, stored)
            # The change answers with the ratings of whoever it seated, as a reload would.
            for rater in ls.unrated():
                row = await conn.fetchrow(_RATING.sql, *_RATING.args(
                    {"game": ls.lobby.game, "rater": rater}
                ))
                ls.rate(rater, *(row or (None, None, None)))
    else:
        async with db.writing() as session:
            try:
                ls = await _load(session, by == key, missing, True)
            except Problem:
                if by is Lobby.invite_code and await session.get(ReplacedInviteCode, key):
                    raise Problem(410, REPLACED) from None
                raise
            yield _Changing(ls, None, session)
            for rater in ls.unrated():
                row = (await session.execute(_RATING_OF, {
                    "game": ls.lobby.game, "rater": rater
                })).one_or_none()
                ls.rate(rater, *(row or (None, None, None)))


def reserved(seat: Seat) -> bool:
    """Whether ``seat`` is still kept for the player of a rematch."""
    until = seat.reserved_until
    if seat.reserved_for is None or seat.player_id is not None or until is None:
        return False
    # SQLite gives times back without their (UTC) offset.
    return (until if until.tzinfo else until.replace(tzinfo=UTC)) > now()
