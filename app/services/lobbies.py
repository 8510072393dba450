"""Lobbies: create, join by invite code or id, leave, seat bots, start the game."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from typing import Any

import asyncpg
from sqlalchemy import ColumnElement, bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import names
from app.db import Database, Prepared, row_values, storable
from app.models import Game, Lobby, Player, ReplacedInviteCode, Seat, now
from app.schemas import LobbyCreate, LobbyOut, PlayerOut, SeatOut
from app.services import ratings
from app.services.clock import Timing
from app.services.errors import Problem
from app.services.games import create_game, new_id
from engine.core import IllegalMove
from engine.registry import GAMES

# No 0/o, 1/l/i: codes get read aloud and typed.
INVITE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
# How long a rematch keeps a seat for each player of the old table.
REMATCH_HOLD = timedelta(minutes=10)


def invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(10))


@dataclass
class LobbySeats:
    lobby: Lobby
    seats: list[tuple[Seat, Player | None]]
    # Ratings in the lobby's game as loaded, by rater (``ratings.shown``).
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def rated_seats(self, rows: list[tuple[Seat, Player | None, Any, Any, Any]]) -> LobbySeats:
        """The seats of ``rows`` (a seat, its player, and its rating's mu, sigma and games)."""
        self.seats = [(seat, person) for seat, person, *_ in rows]
        for seat, _, mu, sigma, games in rows:
            rating = ratings.shown(mu, sigma, games)
            if rating is not None:
                self.ratings[ratings.rater_of(seat.player_id, seat.bot_level)] = rating
        return self

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


async def open_public(session: AsyncSession, per_host: int, limit: int = 50) -> list[LobbySeats]:
    """Open public lobbies, newest first, at most ``per_host`` of each host (so that no one
    player fills the listing), with their seats: two queries however many."""
    newest_of_host = (
        func.row_number()
        .over(partition_by=Lobby.host_id, order_by=(Lobby.created_at.desc(), Lobby.id))
        .label("rank")
    )
    ranked = (
        select(Lobby.id, newest_of_host)
        .where(Lobby.status == "open", Lobby.private.is_(False))
        .subquery()
    )
    found = await session.scalars(
        select(Lobby)
        .join(ranked, ranked.c.id == Lobby.id)
        .where(ranked.c.rank <= per_host)
        .order_by(Lobby.created_at.desc(), Lobby.id)
        .limit(limit)
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


def touched(lobby: Lobby, idle: float) -> None:
    """A change: the lobby stays open another ``idle`` seconds."""
    lobby.closes_at = now() + timedelta(seconds=idle)


async def create(
    db: Database, host: Player, data: LobbyCreate, max_open: int, idle: float
) -> LobbySeats:
    """A new lobby hosted by ``host``, who may host at most ``max_open`` open ones at once."""
    game = GAMES.get(data.game)
    if game is None:
        raise Problem(422, f"Unknown game {data.game!r}; known: {', '.join(GAMES)}.")
    try:
        options = game.options(data.options)
    except IllegalMove as exc:
        raise Problem(422, exc.reason) from None
    seats = data.seats if data.seats is not None else game.min_players
    if not game.min_players <= seats <= game.max_players:
        counts = f"{game.min_players} to {game.max_players}"
        raise Problem(422, f"{game.title} is for {counts} players, not {seats}.")
    rated = data.rated if data.rated is not None else host.handle is not None
    if rated and host.handle is None:
        raise Problem(422, "Only a signed-in host can open a rated table: add a sign-in first.")
    lobby = Lobby(
        id=new_id(),
        game=game.id,
        options=options.model_dump(mode="json"),
        turn_seconds=data.turn_seconds,
        seat_count=seats,
        private=data.private,
        invite_code=invite_code(),
        host_id=host.id,
        status="open",
        game_id=None,
        rated=rated,
    )
    touched(lobby, idle)
    rows = [
        Seat(lobby_id=lobby.id, seat=i, player_id=host.id if i == 0 else None,
             bot_level=None, reserved_for=None, reserved_until=None)
        for i in range(seats)
    ]
    if db.postgres:
        async with db.driver((Problem,)) as conn, conn.transaction():
            hosted = await conn.fetchval(_HOSTED.sql, *_HOSTED.args({"host_id": host.id}))
            _may_host(hosted, max_open)
            await conn.execute(
                _INSERT_LOBBY.sql, *_INSERT_LOBBY.args(row_values(_LOBBIES, lobby))
            )
            await conn.executemany(
                _INSERT_SEAT.sql, [_INSERT_SEAT.args(row_values(_SEATS, row)) for row in rows]
            )
    else:
        async with db.writing() as session:
            _may_host(await session.scalar(_HOSTED_BY, {"host_id": host.id}), max_open)
            session.add(lobby)
            await session.flush()
            session.add_all(rows)
    return LobbySeats(lobby, [(row, host if i == 0 else None) for i, row in enumerate(rows)])


def _may_host(hosted: int, max_open: int) -> None:
    if hosted >= max_open:
        raise Problem(
            409,
            f"You already host {hosted} open lobbies (at most {max_open}): start or close one "
            "first.",
        )


# PostgreSQL: the statements that create, change and start a lobby, run by asyncpg itself.
# Through the session, its unit of work and its transaction, they cost the server several
# times what they cost PostgreSQL, and setting up a game took about 40 ms of the server's CPU.
_LOBBIES, _SEATS = Lobby.__table__, Seat.__table__
_HOSTED_BY = select(func.count()).where(
    Lobby.host_id == bindparam("host_id"), Lobby.status == "open"
)
_HOSTED = Prepared(_HOSTED_BY)
_INSERT_LOBBY = Prepared(insert(_LOBBIES))
_INSERT_SEAT = Prepared(insert(_SEATS))
_INSERT_GAME = Prepared(insert(Game.__table__))
_LOCK = {
    column.key: Prepared(select(_LOBBIES).where(column == bindparam("key")).with_for_update())
    for column in (Lobby.id, Lobby.invite_code)
}
_REPLACED = Prepared(select(ReplacedInviteCode.code).where(
    ReplacedInviteCode.code == bindparam("code")
))
_INSERT_REPLACED = Prepared(insert(ReplacedInviteCode.__table__))
_SEATED = Prepared(ratings.with_ratings(
    select(_SEATS, Player.name.label("player_name"), Player.handle.label("player_handle"))
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Seat.player_id == Player.id)
    .where(Seat.lobby_id == bindparam("lobby_id"))
    .order_by(Seat.seat)
))
# What a change to a lobby may change: the lobby's status, its game, when it closes, its
# invite code and whom the host removed, and who sits in each seat.
_LOBBY_CHANGES = ("status", "game_id", "closes_at", "invite_code", "removed")
_SEAT_CHANGES = ("player_id", "bot_level", "reserved_for", "reserved_until")
_UPDATE_LOBBY = Prepared(
    update(_LOBBIES)
    .where(Lobby.id == bindparam("lobby"))
    .values({name: bindparam(name) for name in _LOBBY_CHANGES})
)
_UPDATE_SEAT = Prepared(
    update(_SEATS)
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
    lobby = Lobby(**{c.key: row[c.name] for c in _LOBBIES.columns})
    seats = []
    for found in await conn.fetch(_SEATED.sql, lobby.id):
        seat = Seat(**{c.key: found[c.name] for c in _SEATS.columns})
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
    """A lobby, its row locked, in the transaction that changes it (``_changing``)."""

    def __init__(self, ls: LobbySeats, conn: asyncpg.Connection | None,
                 session: AsyncSession | None):
        self.ls, self._conn, self._session = ls, conn, session

    async def insert_game(self, game: Game) -> None:
        """The game's row, inserted before the lobby that points at it is written."""
        if self._conn is not None:
            await self._conn.execute(
                _INSERT_GAME.sql, *_INSERT_GAME.args(row_values(Game.__table__, game))
            )
        else:
            self._session.add(game)
            await self._session.flush()

    async def replace_code(self, old: str) -> None:
        """Remember ``old`` as replaced, so that its link says so."""
        row = {"code": old, "lobby_id": self.ls.lobby.id}
        if self._conn is not None:
            await self._conn.execute(_INSERT_REPLACED.sql, *_INSERT_REPLACED.args(row))
        else:
            self._session.add(ReplacedInviteCode(**row))


@asynccontextmanager
async def _changing(
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
    else:
        async with db.writing() as session:
            try:
                ls = await _load(session, by == key, missing, True)
            except Problem:
                if by is Lobby.invite_code and await session.get(ReplacedInviteCode, key):
                    raise Problem(410, REPLACED) from None
                raise
            yield _Changing(ls, None, session)


async def change(
    db: Database,
    action: Callable[[LobbySeats], bool | None],
    idle: float,
    *,
    lobby_id: str | None = None,
    invite_code: str | None = None,
) -> tuple[LobbySeats, bool]:
    """One change to a lobby (``lobby_id``, or else the lobby of ``invite_code``), in one
    transaction: the lobby as the transaction left it, and whether anything changed
    (``action`` returns False for a no-op). A change keeps the lobby open another ``idle``
    seconds."""
    async with _changing(db, lobby_id, invite_code) as locked:
        changed = action(locked.ls) is not False
        if changed:
            touched(locked.ls.lobby, idle)
    return locked.ls, changed


async def new_invite_code(db: Database, lobby_id: str, player: Player, idle: float) -> LobbySeats:
    """The host replaces the invite code: the old link says it was replaced, and the players
    removed so far may join again (with the new code, if the host gives it to them)."""
    async with _changing(db, lobby_id, None) as locked:
        ls = locked.ls
        _must_be_host(ls, player)
        _must_be_open(ls)
        await locked.replace_code(ls.lobby.invite_code)
        ls.lobby.invite_code = invite_code()
        ls.lobby.removed = []
        touched(ls.lobby, idle)
    return locked.ls


async def start(db: Database, lobby_id: str, player: Player, timing: Timing) -> Game:
    """The host starts the game of a full lobby: the game's row, inserted."""
    async with _changing(db, lobby_id, None) as locked:
        game = _starting(locked.ls, player, timing)
        await locked.insert_game(game)
        _started(locked.ls, game)
    return game


def _must_be_open(ls: LobbySeats) -> None:
    if ls.lobby.status == "closed":
        raise Problem(409, "The lobby is closed.")
    if ls.lobby.status != "open":
        raise Problem(409, "The game has already started.")


def _must_be_host(ls: LobbySeats, player: Player) -> None:
    if ls.lobby.host_id != player.id:
        raise Problem(403, "Only the host can do this.")


def join(ls: LobbySeats, player: Player, *, by_code: bool) -> bool:
    """Seat ``player`` in the lowest free seat; False when already seated (nothing to do)."""
    if ls.seat_of(player.id) is not None:
        return False
    kept = any(s.reserved_for == player.id and reserved(s) for s, _ in ls.seats)
    if ls.lobby.private and not by_code and not kept:
        raise Problem(403, "This lobby is private: join it with its invite code.")
    _must_be_open(ls)
    if player.id in (ls.lobby.removed or []):
        raise Problem(403, "The host removed you from this lobby.")
    free = ls.open_to(player.id)
    if not free:
        raise Problem(409, "The lobby is full.")
    free[0].player_id = player.id
    return True


def reserved(seat: Seat) -> bool:
    """Whether ``seat`` is still kept for the player of a rematch."""
    until = seat.reserved_until
    if seat.reserved_for is None or seat.player_id is not None or until is None:
        return False
    # SQLite gives times back without their (UTC) offset.
    return (until if until.tzinfo else until.replace(tzinfo=UTC)) > now()


async def rematch(
    session: AsyncSession, game_id: str, player: Player, idle: float
) -> tuple[str, int | None]:
    """The lobby of a finished game's rematch, made by the first player to ask, who takes
    their old seat; bots keep theirs, and each other player's seat is kept for them for
    ``REMATCH_HOLD``. Later askers are seated there. Returns the lobby id and, when it is new, the game's version."""
    game = await session.get(Game, game_id, with_for_update=True) if storable(game_id) else None
    if game is None:
        raise Problem(404, "No such game.")
    old = await session.scalar(select(Lobby).where(Lobby.game_id == game_id))
    seats = (await session.scalars(
        select(Seat).where(Seat.lobby_id == old.id).order_by(Seat.seat)
    )).all() if old else []
    if not any(s.player_id == player.id for s in seats):
        raise Problem(403, "Only the game's players can ask for a rematch.")
    if game.status != "finished":
        raise Problem(409, "A rematch follows a finished game.")
    if game.rematch_lobby_id is not None:
        ls = await load(session, game.rematch_lobby_id, for_update=True)
        if ls.lobby.status == "open":
            join(ls, player, by_code=True)
        return ls.lobby.id, None
    lobby = Lobby(
        id=new_id(), game=old.game, options=old.options, seat_count=old.seat_count,
        private=old.private, invite_code=invite_code(), host_id=player.id, status="open",
        turn_seconds=old.turn_seconds, rated=old.rated,
    )
    touched(lobby, idle)
    session.add(lobby)
    await session.flush()
    until = now() + REMATCH_HOLD
    for s in seats:
        mine = s.player_id == player.id
        other = s.player_id if s.player_id is not None and not mine else None
        session.add(Seat(
            lobby_id=lobby.id, seat=s.seat, player_id=player.id if mine else None,
            bot_level=s.bot_level, reserved_for=other, reserved_until=until if other else None,
        ))
    game.rematch_lobby_id = lobby.id
    return lobby.id, game.version


def leave(ls: LobbySeats, player: Player) -> None:
    seat = ls.seat_of(player.id)
    if seat is None:
        raise Problem(409, "You are not in this lobby.")
    if ls.lobby.host_id == player.id:
        raise Problem(403, "The host cannot leave their own lobby.")
    _must_be_open(ls)
    ls.seats[seat][0].player_id = None


def _seat(ls: LobbySeats, seat: int) -> Seat:
    if not 0 <= seat < len(ls.seats):
        raise Problem(422, f"Seats are numbered 0 to {len(ls.seats) - 1}.")
    return ls.seats[seat][0]


def add_bot(ls: LobbySeats, player: Player, seat: int, level: str) -> None:
    _must_be_host(ls, player)
    _must_be_open(ls)
    levels = GAMES[ls.lobby.game].bots
    if level not in levels:
        raise Problem(422, f"Unknown bot level {level!r}; known: {', '.join(levels)}.")
    row = _seat(ls, seat)
    if row.player_id is not None or row.bot_level is not None:
        raise Problem(409, f"Seat {seat} is taken.")
    row.bot_level = level


def free_seat(ls: LobbySeats, player: Player, seat: int) -> None:
    """The host takes a bot, or a person other than themselves, out of a seat."""
    _must_be_host(ls, player)
    _must_be_open(ls)
    row = _seat(ls, seat)
    if row.player_id == player.id:
        raise Problem(409, "The host keeps their own seat: close the lobby instead.")
    if row.bot_level is None and row.player_id is None:
        raise Problem(409, f"Seat {seat} is empty.")
    if row.player_id is not None:
        # A new list: the ORM sees a JSON column change only when it is assigned.
        ls.lobby.removed = [*(ls.lobby.removed or []), row.player_id]
    row.bot_level = None
    row.player_id = None


def close(ls: LobbySeats, player: Player) -> None:
    _must_be_host(ls, player)
    _must_be_open(ls)
    ls.lobby.status = "closed"
    ls.lobby.closes_at = None


def _starting(ls: LobbySeats, player: Player, timing: Timing) -> Game:
    _must_be_host(ls, player)
    _must_be_open(ls)
    empty = [s.seat for s in ls.free_seats()]
    if empty:
        raise Problem(409, f"Every seat must be filled first; empty: {', '.join(map(str, empty))}.")
    people = {s.seat for s, _ in ls.seats if s.player_id is not None}
    return create_game(ls.lobby, people, timing)


def _started(ls: LobbySeats, game: Game) -> None:
    ls.lobby.status = "started"
    ls.lobby.game_id = game.id
    ls.lobby.closes_at = None
